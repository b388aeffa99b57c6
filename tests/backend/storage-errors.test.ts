// Storage's refusals as storage-api (github:supabase/storage) sends them, and its two public routes, on
// PGlite and on PostgreSQL. storage-api renders its own errors as HTTP 400 (500 for a server fault) with
// the real status in a string `statusCode`, its `code`, the error's legacy label (or the code) as
// `error`, and `message`; a request its schema refuses, or a body Fastify cannot parse, keeps Fastify's
// status with the JavaScript error's name as `error`; a route it lacks is a 404. supabase-js 2.109 turns
// the body into StorageApiError {message, status, statusCode}, asserted through it where it is the
// caller, and the whole body with raw fetch where supabase-js hides part of it.
import { beforeAll, expect, it } from "vitest";
import { signJwt } from "../../supabase/local/jwt.ts";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { png } from "../support/png.ts";

const OPEN = "open-pictures";
const APP_BUCKET = "generations";

const PICTURE = png(32, 24);
const picture = () => new Blob([PICTURE], { type: "image/png" });

/** storage-api's own error, as it sends it: HTTP 400 and the real status in the body. */
const own = (statusCode: string, code: string, message: string, error = code) => ({
  statusCode,
  code,
  error,
  message,
});
const NO_SUCH_BUCKET = own("404", "NoSuchBucket", "Bucket not found", "Bucket not found");
const NO_SUCH_KEY = own("404", "NoSuchKey", "Object not found", "not_found");

describeOnBackends(
  "storage errors as storage-api sends them on $title",
  { prefix: "pc_storage_errors" },
  (backend, { skip }) => {
    const { owner, stranger, anon, server } = castFor(backend);
    let appPath: string;

    beforeAll(async () => {
      if (skip) return;
      expect((await server.storage.createBucket(OPEN, { public: true })).error).toBeNull();
      expect((await server.storage.from(OPEN).upload("p/a.png", picture())).error).toBeNull();
      appPath = `${owner.id}/${crypto.randomUUID()}.png`;
      expect((await server.storage.from(APP_BUCKET).upload(appPath, picture())).error).toBeNull();
    });

    /** A raw request to /storage/v1 with the anon key and `token` (the anon key when none is given). */
    const call = (path: string, init: RequestInit & { token?: string } = {}) => {
      const { token, ...rest } = init;
      return fetch(`${backend.url}/storage/v1${path}`, {
        ...rest,
        headers: {
          apikey: backend.anonKey,
          authorization: `Bearer ${token ?? backend.anonKey}`,
          ...(rest.headers as Record<string, string> | undefined),
        },
      });
    };
    const ownerToken = async () => (await owner.client.auth.getSession()).data.session!.access_token;
    const answer = async (res: Response) => ({ status: res.status, body: await res.json() });
    const jsonPost = (path: string, body: string, token?: string) =>
      call(path, { method: "POST", body, token, headers: { "content-type": "application/json" } });

    it.skipIf(skip)("serves a public bucket's object info and renders at the public routes, to anyone", async () => {
      const info = await fetch(`${backend.url}/storage/v1/object/info/public/${OPEN}/p/a.png`, {
        headers: { apikey: backend.anonKey },
      });
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({
        name: "p/a.png",
        bucket_id: OPEN,
        size: PICTURE.length,
        content_type: "image/png",
        metadata: {},
      });

      const { data } = anon.storage.from(OPEN).getPublicUrl("p/a.png", { transform: { width: 16, height: 12 } });
      expect(data.publicUrl).toContain(`/storage/v1/render/image/public/${OPEN}/p/a.png?`);
      const rendered = await fetch(data.publicUrl, { headers: { apikey: backend.anonKey } });
      expect(rendered.status).toBe(200);
      expect(rendered.headers.get("content-type")).toMatch(/^image\//);
      expect(rendered.headers.get("x-transformations")).toBe("height:12,width:16,resizing_type:fill");
      await rendered.arrayBuffer();

      // A missing object of a public bucket is storage-api's NoSuchKey; a bad transformation its schema's.
      expect(await answer(await call(`/object/info/public/${OPEN}/p/missing.png`))).toEqual({
        status: 400,
        body: NO_SUCH_KEY,
      });
      expect(await answer(await call(`/render/image/public/${OPEN}/p/missing.png?width=8`))).toEqual({
        status: 400,
        body: NO_SUCH_KEY,
      });
      expect(await answer(await call(`/render/image/public/${OPEN}/p/a.png?quality=5`))).toEqual({
        status: 400,
        body: own("400", "InvalidRequest", "querystring/quality must be >= 20", "Error"),
      });
      // The public info route has no HEAD twin on storage-api.
      const head = await call(`/object/info/public/${OPEN}/p/a.png`, { method: "HEAD" });
      expect(head.status).toBe(404);
    });

    it.skipIf(skip)("refuses the public routes for a private bucket (the app's) as hosted: NoSuchBucket", async () => {
      // The object exists; the bucket is private, so the public routes do not know it, whoever asks.
      for (const token of [backend.anonKey, backend.serviceRoleKey]) {
        for (const path of [
          `/object/info/public/${APP_BUCKET}/${appPath}`,
          `/render/image/public/${APP_BUCKET}/${appPath}?width=8`,
          `/object/public/${APP_BUCKET}/${appPath}`,
          `/object/info/public/no-such-bucket/${appPath}`,
          `/render/image/public/no-such-bucket/${appPath}`,
        ]) {
          expect(await answer(await call(path, { token })), path).toEqual({ status: 400, body: NO_SUCH_BUCKET });
        }
      }
      // The same through supabase-js: the public URL of a private bucket's image does not serve it.
      const { data } = owner.client.storage.from(APP_BUCKET).getPublicUrl(appPath, { transform: { width: 8 } });
      expect((await fetch(data.publicUrl)).status).toBe(400);
    });

    it.skipIf(skip)(
      "answers StorageApiError with storage-api's status and statusCode through supabase-js",
      async () => {
        expect((await server.storage.getBucket("no-such-bucket")).error).toMatchObject({
          name: "StorageApiError",
          status: 400,
          statusCode: "404",
          message: "Bucket not found",
        });
        expect((await server.storage.createBucket(OPEN)).error).toMatchObject({
          status: 400,
          statusCode: "409",
          message: "The resource already exists",
        });
        expect((await server.storage.deleteBucket(OPEN)).error).toMatchObject({
          status: 400,
          statusCode: "409",
          message: "The bucket you tried to delete is not empty",
        });
        expect((await server.storage.createBucket("bad#name")).error).toMatchObject({
          status: 400,
          statusCode: "400",
          message: "Bucket name invalid",
        });
        expect((await server.storage.from(OPEN).upload("p/café.png", picture())).error).toMatchObject({
          status: 400,
          statusCode: "400",
          message: "Invalid key: p/café.png",
        });
        expect((await server.storage.from(OPEN).upload("p/a.png", picture())).error).toMatchObject({
          status: 400,
          statusCode: "409",
          message: "The resource already exists",
        });
        expect(
          (await owner.client.storage.from(APP_BUCKET).upload(`${stranger.id}/x.png`, picture())).error,
        ).toMatchObject({
          status: 400,
          statusCode: "403",
          message: "new row violates row-level security policy",
        });
        expect((await owner.client.storage.from(APP_BUCKET).download(`${owner.id}/none.png`)).error).toMatchObject({
          status: 400,
        });
        expect((await owner.client.storage.from(APP_BUCKET).info(`${owner.id}/none.png`)).error).toMatchObject({
          status: 400,
          statusCode: "404",
        });
      },
    );

    it.skipIf(skip)("sends each of its own errors whole: status, statusCode, code, error label, message", async () => {
      const service = backend.serviceRoleKey;
      expect(await answer(await call("/bucket/no-such-bucket", { token: service }))).toEqual({
        status: 400,
        body: NO_SUCH_BUCKET,
      });
      expect(await answer(await jsonPost("/bucket", JSON.stringify({ id: OPEN, name: OPEN }), service))).toEqual({
        status: 400,
        body: own("409", "BucketAlreadyExists", "The resource already exists", "Duplicate"),
      });
      expect(await answer(await call(`/bucket/${OPEN}`, { method: "DELETE", token: service }))).toEqual({
        status: 400,
        body: own("409", "ResourceNotEmpty", "The bucket you tried to delete is not empty"),
      });
      expect(await answer(await jsonPost("/bucket", JSON.stringify({ name: "bad#name" }), service))).toEqual({
        status: 400,
        body: own("400", "InvalidBucketName", "Bucket name invalid", "Invalid Input"),
      });
      const upload = (path: string, body: BodyInit, type: string, token = service) =>
        call(`/object/${path}`, { method: "POST", body, token, headers: { "content-type": type } });
      expect(await answer(await upload(`${OPEN}/p/caf%C3%A9.png`, PICTURE, "image/png"))).toEqual({
        status: 400,
        body: own("400", "InvalidKey", "Invalid key: p/café.png"),
      });
      expect(await answer(await upload(`${OPEN}/p/a.png`, PICTURE, "image/png"))).toEqual({
        status: 400,
        body: own("409", "ResourceAlreadyExists", "The resource already exists", "Duplicate"),
      });
      expect(
        await answer(await upload(`${APP_BUCKET}/${stranger.id}/x.png`, PICTURE, "image/png", await ownerToken())),
      ).toEqual({
        status: 400,
        body: own("403", "AccessDenied", "new row violates row-level security policy", "Unauthorized"),
      });
      expect(await answer(await upload(`${APP_BUCKET}/${owner.id}/notes.txt`, "hello", "text/plain"))).toEqual({
        status: 400,
        body: own("415", "InvalidMimeType", "mime type text/plain is not supported", "invalid_mime_type"),
      });
      // An upload over the bucket's limit: HTTP 400 with the 413 in the body (storage-api's own error).
      expect(
        await answer(await upload(`${APP_BUCKET}/${owner.id}/big.png`, new Uint8Array(20971521), "image/png")),
      ).toEqual({
        status: 400,
        body: own("413", "EntityTooLarge", "The object exceeded the maximum allowed size", "Payload too large"),
      });
      expect(
        await answer(await call(`/object/authenticated/${APP_BUCKET}/${owner.id}/none.png`, { token: service })),
      ).toEqual({
        status: 400,
        body: NO_SUCH_KEY,
      });
    });

    it.skipIf(skip)(
      "refuses requests its schema or its body parser refuses, with Fastify's status and name",
      async () => {
        const service = backend.serviceRoleKey;
        expect(await answer(await jsonPost(`/object/list/${OPEN}`, "{}", service))).toEqual({
          status: 400,
          body: own("400", "InvalidRequest", "body must have required property 'prefix'", "Error"),
        });
        expect(
          await answer(await jsonPost(`/object/list/${OPEN}`, '{"prefix":"","sortBy":{"column":"size"}}', service)),
        ).toEqual({
          status: 400,
          body: own("400", "InvalidRequest", "body/sortBy/column must be equal to one of the allowed values", "Error"),
        });
        expect(await answer(await jsonPost("/object/move", '{"bucketId":"x","sourceKey":"a"}', service))).toEqual({
          status: 400,
          body: own("400", "InvalidRequest", "body must have required property 'destinationKey'", "Error"),
        });
        expect(await answer(await jsonPost(`/object/sign/${OPEN}`, '{"expiresIn":60,"paths":[]}', service))).toEqual({
          status: 400,
          body: own("400", "InvalidRequest", "body/paths must NOT have fewer than 1 items", "Error"),
        });
        expect(await answer(await jsonPost(`/object/list/${OPEN}`, "{not json", service))).toEqual({
          status: 400,
          body: own(
            "400",
            "InvalidRequest",
            "Body is not valid JSON but content-type is set to 'application/json'",
            "FastifyError",
          ),
        });
        // A JSON body over the limit is Fastify's own 413, the one place storage-api answers 413 on the wire.
        const big = JSON.stringify({ prefix: "x".repeat(300_000) });
        expect(await answer(await jsonPost(`/object/list/${OPEN}`, big, service))).toEqual({
          status: 413,
          body: own("413", "EntityTooLarge", "Request body is too large", "FastifyError"),
        });
      },
    );

    it.skipIf(skip)("answers a delete of one object the caller may not delete with AccessDenied", async () => {
      const token = (await stranger.client.auth.getSession()).data.session!.access_token;
      expect(await answer(await call(`/object/${APP_BUCKET}/${appPath}`, { method: "DELETE", token }))).toEqual({
        status: 400,
        body: own("403", "AccessDenied", "Access denied", "Unauthorized"),
      });
      expect(
        await answer(await call(`/object/${APP_BUCKET}/${owner.id}/none.png`, { method: "DELETE", token })),
      ).toEqual({ status: 400, body: NO_SUCH_KEY });
      expect((await server.storage.from(APP_BUCKET).exists(appPath)).data).toBe(true);
    });

    it.skipIf(skip)("refuses update() of a missing object (stricter: hosted's update creates it)", async () => {
      expect((await server.storage.from(OPEN).update("p/never.png", picture())).error).toMatchObject({
        status: 400,
        statusCode: "404",
        message: "Object not found",
      });
      expect((await server.storage.from(OPEN).exists("p/never.png")).data).toBe(false);
    });

    it.skipIf(skip)(
      "answers a route it does not have with its 404, the route named as storage-api sees it",
      async () => {
        expect(await answer(await call(`/object/${OPEN}?x=1`))).toEqual({
          status: 404,
          body: {
            statusCode: "404",
            code: "InvalidRequest",
            error: "Not Found",
            message: `Route GET:/object/${OPEN}?x=1 not found`,
          },
        });
        expect(await answer(await call(`/bucket/${OPEN}/extra`, { token: backend.serviceRoleKey }))).toEqual({
          status: 404,
          body: {
            statusCode: "404",
            code: "InvalidRequest",
            error: "Not Found",
            message: `Route GET:/bucket/${OPEN}/extra not found`,
          },
        });
      },
    );

    it.skipIf(skip)("refuses a token that does not verify with jose's words, as AccessDenied", async () => {
      const now = Math.floor(Date.now() / 1000);
      const expired = await signJwt({ role: "authenticated", sub: owner.id, exp: now - 60 }, backend.jwtSecret);
      const cases: [string, string][] = [
        ["not-a-token", "Invalid Compact JWS"],
        [`${backend.anonKey.slice(0, -4)}AAAA`, "signature verification failed"],
        [expired, '"exp" claim timestamp check failed'],
      ];
      for (const [token, message] of cases) {
        expect(await answer(await call("/bucket", { token })), message).toEqual({
          status: 400,
          body: own("403", "AccessDenied", message, "Unauthorized"),
        });
      }
      // The download and info routes let such a token through as unauthenticated: public buckets only.
      const forged = cases[1][0];
      const download = await call(`/object/${OPEN}/p/a.png`, { token: forged });
      expect(download.status).toBe(200);
      await download.arrayBuffer();
      expect((await call(`/object/info/${OPEN}/p/a.png`, { token: forged })).status).toBe(200);
      expect(await answer(await call(`/object/${APP_BUCKET}/${appPath}`, { token: forged }))).toEqual({
        status: 400,
        body: NO_SUCH_BUCKET,
      });
      expect(await answer(await call(`/object/info/${APP_BUCKET}/${appPath}`, { token: forged }))).toEqual({
        status: 400,
        body: NO_SUCH_BUCKET,
      });
    });

    it.skipIf(skip)(
      "refuses a signed token naming a role the database lacks before any SQL, as AccessDenied",
      async () => {
        // Hosted fails in the database here (a 500 DatabaseError); refused as a 4xx instead, stricter.
        const token = await signJwt(
          { role: "nobody_here", exp: Math.floor(Date.now() / 1000) + 600 },
          backend.jwtSecret,
        );
        expect(await answer(await call("/bucket", { token }))).toEqual({
          status: 400,
          body: own("403", "AccessDenied", 'role "nobody_here" does not exist', "Unauthorized"),
        });
      },
    );
  },
);
