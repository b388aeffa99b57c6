// Storage through the real supabase-js client against the local backend, on PGlite and on PostgreSQL:
// uploads, downloads, signed and public URLs, removal, and who may read or write what in the private
// 'generations' bucket (owner, stranger, anonymous visitor, published generation). Images are stored
// by the server (the service role, as generate-image does): no client may upload into the bucket.
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { serviceClient, storeGeneration } from "../support/clients.ts";

const BUCKET = "generations";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

async function bytesOf(blob: Blob | null): Promise<number[]> {
  return blob ? [...new Uint8Array(await blob.arrayBuffer())] : [];
}

describeOnBackends("storage on $title", { prefix: "pc_storage" }, (backend, { skip }) => {
  const { owner, stranger, anon, server } = castFor(backend);

  const authHeaders = (token: string) => ({ apikey: backend.anonKey, Authorization: `Bearer ${token}` });
  const ownerToken = async () => (await owner.client.auth.getSession()).data.session!.access_token;

  /**
   * The owner's generation row for the image at `path`, stored by the server as generate-image does: the
   * owner downloads and signs an image only while it has its row.
   */
  const rowFor = (path: string, isPublic = false): Promise<string> =>
    storeGeneration(server, owner.id, { image_path: path, is_public: isPublic });

  /** An image stored by the server in the owner's folder, with its row. */
  async function storedWithRow(name: string, isPublic = false): Promise<{ path: string; id: string }> {
    const path = `${owner.id}/${name}`;
    expect((await server.storage.from(BUCKET).upload(path, new Blob([PNG], { type: "image/png" }))).error).toBeNull();
    return { path, id: await rowFor(path, isPublic) };
  }

  /** The claims of a signed URL's token, to read its expiry. */
  function tokenClaims(signedUrl: string): { exp: number; iat: number; url: string } {
    const token = new URL(signedUrl).searchParams.get("token")!;
    return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
  }

  it.skipIf(skip)("uploads a Blob as multipart and downloads the same bytes with its type", async () => {
    const path = `${owner.id}/blob.png`;
    const up = await server.storage.from(BUCKET).upload(path, new Blob([PNG], { type: "image/png" }));
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path, fullPath: `${BUCKET}/${path}` });
    expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/);
    await rowFor(path);

    const down = await owner.client.storage.from(BUCKET).download(path);
    expect(down.error).toBeNull();
    expect(down.data!.type).toBe("image/png");
    expect(await bytesOf(down.data)).toEqual([...PNG]);
  });

  it.skipIf(skip)("uploads a Buffer as a raw body and serves it with length, ETag and cache headers", async () => {
    const path = `${owner.id}/raw.webp`;
    const up = await server.storage
      .from(BUCKET)
      .upload(path, Buffer.from(PNG), { contentType: "image/webp", cacheControl: "120" });
    expect(up.error).toBeNull();
    await rowFor(path);

    const url = `${backend.url}/storage/v1/object/${BUCKET}/${path}`;
    const res = await fetch(url, { headers: authHeaders(await ownerToken()) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("content-length")).toBe(String(PNG.length));
    expect(res.headers.get("cache-control")).toBe("max-age=120");
    const etag = res.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([...PNG]);

    const head = await fetch(url, { method: "HEAD", headers: authHeaders(await ownerToken()) });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(PNG.length));

    const again = await fetch(url, { headers: { ...authHeaders(await ownerToken()), "If-None-Match": etag! } });
    expect(again.status).toBe(304);

    const viaAuthenticated = await fetch(url.replace("/object/", "/object/authenticated/"), {
      headers: authHeaders(await ownerToken()),
    });
    expect(viaAuthenticated.status).toBe(200);
    expect([...new Uint8Array(await viaAuthenticated.arrayBuffer())]).toEqual([...PNG]);
  });

  it.skipIf(skip)(
    "serves a signed URL to a request with no credentials, until the token is tampered with",
    async () => {
      const { path } = await storedWithRow("signed.png");
      const signed = await owner.client.storage.from(BUCKET).createSignedUrl(path, 60);
      expect(signed.error).toBeNull();
      expect(signed.data!.signedUrl).toContain(`/storage/v1/object/sign/${BUCKET}/${path}?token=`);

      const res = await fetch(signed.data!.signedUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([...PNG]);

      // Change a character inside the signature: the last one of a base64url HS256 signature carries two
      // padding bits, so changing it can leave the decoded signature as it was.
      const url = signed.data!.signedUrl;
      const at = url.length - 10;
      const tampered = await fetch(url.slice(0, at) + (url[at] === "A" ? "B" : "A") + url.slice(at + 1));
      // storage-api verifies the token with jose and answers InvalidJWT with jose's words.
      expect(tampered.status).toBe(400);
      expect(await tampered.json()).toEqual({
        statusCode: "400",
        code: "InvalidJWT",
        error: "InvalidJWT",
        message: "signature verification failed",
      });

      // A token for one object does not open another.
      const other = signed.data!.signedUrl.replace("signed.png", "blob.png");
      const opened = await fetch(other);
      expect(opened.status).toBe(400);
      expect(await opened.json()).toEqual({
        statusCode: "400",
        code: "InvalidSignature",
        error: "InvalidSignature",
        message: "Invalid signature",
      });
    },
  );

  it.skipIf(skip)("refuses an expired signed URL", async () => {
    const { path } = await storedWithRow("short-lived.png");
    const signed = await owner.client.storage.from(BUCKET).createSignedUrl(path, 1);
    await new Promise((r) => setTimeout(r, 2100));
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: "400",
      code: "InvalidJWT",
      error: "InvalidJWT",
      message: '"exp" claim timestamp check failed',
    });
  });

  it.skipIf(skip)("signs several paths at once, with an error for the ones the caller cannot read", async () => {
    const { path: mine } = await storedWithRow("many.png");
    const { data, error } = await owner.client.storage
      .from(BUCKET)
      .createSignedUrls([mine, `${stranger.id}/nothing.png`], 60);
    expect(error).toBeNull();
    expect(data![0]).toMatchObject({ path: mine, error: null });
    expect((await fetch(data![0].signedUrl!)).status).toBe(200);
    expect(data![1]).toMatchObject({ signedUrl: null });
    expect(data![1].error).toBeTruthy();
  });

  it.skipIf(skip)("refuses the public URL of an object in a private bucket", async () => {
    const path = `${owner.id}/private.png`;
    await server.storage.from(BUCKET).upload(path, new Blob([PNG], { type: "image/png" }));
    const { data } = owner.client.storage.from(BUCKET).getPublicUrl(path);
    const res = await fetch(data.publicUrl);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: "404", message: "Bucket not found" });
  });

  it.skipIf(skip)("serves the public URL of an object in a public bucket", async () => {
    const service = serviceClient(backend);
    const created = await service.storage.createBucket("showcase", { public: true });
    expect(created.error).toBeNull();
    const up = await service.storage.from("showcase").upload("hero image.png", new Blob([PNG], { type: "image/png" }));
    expect(up.error).toBeNull();
    const { data } = anon.storage.from("showcase").getPublicUrl("hero image.png");
    const res = await fetch(data.publicUrl);
    expect(res.status).toBe(200);
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([...PNG]);
  });

  it.skipIf(skip)(
    "refuses a duplicate upload without upsert and replaces the object with upsert or update",
    async () => {
      const path = `${owner.id}/dup.png`;
      const store = server.storage.from(BUCKET);
      expect((await store.upload(path, new Blob([PNG], { type: "image/png" }))).error).toBeNull();

      const dup = await store.upload(path, new Blob([Uint8Array.of(9)], { type: "image/png" }));
      expect(dup.error).toMatchObject({ status: 400, statusCode: "409", message: "The resource already exists" });
      expect(await bytesOf((await store.download(path)).data)).toEqual([...PNG]);

      const upsert = await store.upload(path, new Blob([Uint8Array.of(7, 7)], { type: "image/png" }), { upsert: true });
      expect(upsert.error).toBeNull();
      expect(await bytesOf((await store.download(path)).data)).toEqual([7, 7]);

      const update = await store.update(path, new Blob([Uint8Array.of(8, 8, 8)], { type: "image/png" }));
      expect(update.error).toBeNull();
      expect(await bytesOf((await store.download(path)).data)).toEqual([8, 8, 8]);
    },
  );

  it.skipIf(skip)("keeps a stranger from reading, removing or overwriting the owner's object", async () => {
    const { path } = await storedWithRow("guarded.png");
    const theirs = stranger.client.storage.from(BUCKET);

    const read = await theirs.download(path);
    expect(read.data).toBeNull();
    expect(read.error).toMatchObject({ status: 400, statusCode: "404", message: "Object not found" });

    const removed = await theirs.remove([path]);
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual([]);

    const overwrite = await theirs.upload(path, new Blob([Uint8Array.of(6)], { type: "image/png" }), { upsert: true });
    expect(overwrite.error).toMatchObject({ status: 400, statusCode: "403" });
    const update = await theirs.update(path, new Blob([Uint8Array.of(6)], { type: "image/png" }));
    // An update goes through the caller's read access first: the stranger cannot see the object at all.
    expect(update.error).toMatchObject({ status: 400, statusCode: "404", message: "Object not found" });
    const intrude = await theirs.upload(`${owner.id}/planted.png`, new Blob([PNG], { type: "image/png" }));
    expect(intrude.error).toMatchObject({
      statusCode: "403",
      message: "new row violates row-level security policy",
    });

    expect(await bytesOf((await owner.client.storage.from(BUCKET).download(path)).data)).toEqual([...PNG]);
  });

  it.skipIf(skip)("refuses anonymous reads and writes of private objects", async () => {
    const path = `${owner.id}/not-for-anon.png`;
    await server.storage.from(BUCKET).upload(path, new Blob([PNG], { type: "image/png" }));
    const read = await anon.storage.from(BUCKET).download(path);
    expect(read.error).toMatchObject({ statusCode: "404" });
    const write = await anon.storage
      .from(BUCKET)
      .upload(`${owner.id}/anon.png`, new Blob([PNG], { type: "image/png" }));
    expect(write.error).toMatchObject({ statusCode: "403" });
  });

  it.skipIf(skip)("lets anyone download the image of a published generation, and only that one", async () => {
    const published = crypto.randomUUID();
    const hidden = crypto.randomUUID();
    for (const id of [published, hidden]) {
      const path = `${owner.id}/${id}.png`;
      expect((await server.storage.from(BUCKET).upload(path, new Blob([PNG], { type: "image/png" }))).error).toBeNull();
      await storeGeneration(server, owner.id, { id, image_path: path, is_public: id === published });
    }
    const seen = await anon.storage.from(BUCKET).download(`${owner.id}/${published}.png`);
    expect(seen.error).toBeNull();
    expect(await bytesOf(seen.data)).toEqual([...PNG]);
    expect((await stranger.client.storage.from(BUCKET).download(`${owner.id}/${published}.png`)).error).toBeNull();

    const unseen = await anon.storage.from(BUCKET).download(`${owner.id}/${hidden}.png`);
    expect(unseen.error).toMatchObject({ statusCode: "404" });
  });

  it.skipIf(skip)("lets the owner remove their objects and answers with the deleted rows", async () => {
    const store = owner.client.storage.from(BUCKET);
    const a = `${owner.id}/remove-a.png`;
    const b = `${owner.id}/remove-b.png`;
    await server.storage.from(BUCKET).upload(a, new Blob([PNG], { type: "image/png" }));
    await server.storage.from(BUCKET).upload(b, new Blob([PNG], { type: "image/png" }));
    const { data, error } = await store.remove([a, b, `${owner.id}/never-existed.png`]);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name).sort()).toEqual([a, b]);
    expect(data![0]).toMatchObject({ bucket_id: BUCKET, metadata: { size: PNG.length } });
    expect((await store.download(a)).error).toMatchObject({ statusCode: "404" });
    expect(existsSync(join(backend.dataDir, "storage", BUCKET, a))).toBe(false);
  });

  it.skipIf(skip)("lists one folder level of the caller's objects", async () => {
    const store = owner.client.storage.from(BUCKET);
    await server.storage.from(BUCKET).upload(`${owner.id}/album/one.png`, new Blob([PNG], { type: "image/png" }));
    await server.storage.from(BUCKET).upload(`${owner.id}/listed.png`, new Blob([PNG], { type: "image/png" }));
    const { data, error } = await store.list(owner.id, { limit: 100, sortBy: { column: "name", order: "asc" } });
    expect(error).toBeNull();
    const names = data!.map((o) => o.name);
    expect(names).toContain("album");
    expect(names).toContain("listed.png");
    expect(names).not.toContain("one.png");
    expect(data!.find((o) => o.name === "album")!.id).toBeNull();
    // A stranger's listing shows only what they may read (published images), never the rest.
    const theirs = (await stranger.client.storage.from(BUCKET).list(owner.id)).data!.map((o) => o.name);
    expect(theirs).not.toContain("listed.png");
    expect(theirs).not.toContain("album");
  });

  it.skipIf(skip)("refuses names that would escape the bucket folder", async () => {
    const store = owner.client.storage.from(BUCKET);
    // The client folds the dots away, leaving /object/escape.png: no bucket/name route, storage-api's 404.
    const escaped = await store.upload(`${owner.id}/../../escape.png`, new Blob([PNG], { type: "image/png" }));
    expect(escaped.error).toMatchObject({
      status: 404,
      statusCode: "404",
      message: "Route POST:/object/escape.png not found",
    });

    const token = await ownerToken();
    // Sent as written (node:http keeps the path; fetch would fold the encoded dots away as above).
    const post = (path: string) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const url = new URL(backend.url);
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: "POST",
            headers: { ...authHeaders(token), "content-type": "image/png", "content-length": PNG.length },
          },
          (res) => {
            let text = "";
            res.on("data", (c) => (text += c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        req.on("error", reject);
        req.end(Buffer.from(PNG));
      });
    // Encoded dots reach the server, whose URL parsing folds them too: no bucket/name route is left.
    const dots = await post(`/storage/v1/object/${BUCKET}/${owner.id}/%2e%2e/%2e%2e/escape.png`);
    expect(dots).toEqual({
      status: 404,
      body: {
        statusCode: "404",
        code: "InvalidRequest",
        error: "Not Found",
        message: "Route POST:/object/escape.png not found",
      },
    });
    for (const raw of [`${owner.id}/a%00b.png`, `${owner.id}/${"x".repeat(300)}.png`]) {
      const res = await post(`/storage/v1/object/${BUCKET}/${raw}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: "400", code: "InvalidKey" });
    }
    expect(existsSync(join(backend.dataDir, "storage", "escape.png"))).toBe(false);
    expect(existsSync(join(backend.dataDir, "escape.png"))).toBe(false);
  });

  it.skipIf(skip)("enforces the bucket's allowed types and size limit", async () => {
    const wrongType = await server.storage
      .from(BUCKET)
      .upload(`${owner.id}/notes.txt`, new Blob(["hello"], { type: "text/plain" }));
    expect(wrongType.error).toMatchObject({ statusCode: "415" });

    const service = serviceClient(backend);
    expect((await service.storage.createBucket("tiny", { public: false, fileSizeLimit: 1000 })).error).toBeNull();
    const big = await service.storage.from("tiny").upload("big.bin", new Blob([new Uint8Array(2000)]));
    // storage-api answers an upload over a limit with HTTP 400 and the 413 in the body.
    expect(big.error).toMatchObject({
      status: 400,
      statusCode: "413",
      message: "The object exceeded the maximum allowed size",
    });
    const small = await service.storage.from("tiny").upload("small.bin", new Blob([new Uint8Array(500)]));
    expect(small.error).toBeNull();
  });

  it.skipIf(skip)("refuses a content type that lists a second, disallowed type after an allowed one", async () => {
    // Browsers take the last type of a comma-separated Content-Type, so storing this would serve HTML
    // from the API origin out of an image-only bucket. Written as the server, the only writer left.
    const token = backend.serviceRoleKey;
    for (const type of ["image/png;x=1, text/html", "image/png, text/html", "image/png\t,text/html"]) {
      const path = `${owner.id}/sneaky-${encodeURIComponent(type.length)}.png`;
      const raw = await fetch(`${backend.url}/storage/v1/object/${BUCKET}/${path}`, {
        method: "POST",
        headers: { ...authHeaders(token), "content-type": type },
        body: "<script>alert(1)</script>",
      });
      const body = await raw.json();
      expect(body, type).toMatchObject({ statusCode: "415", code: "InvalidMimeType" });
      const form = new FormData();
      form.append("", new Blob(["<script>alert(1)</script>"], { type }), "x.png");
      const multipart = await fetch(`${backend.url}/storage/v1/object/${BUCKET}/${path}`, {
        method: "POST",
        headers: authHeaders(token),
        body: form,
      });
      expect(await multipart.json(), type).toMatchObject({ statusCode: "415", code: "InvalidMimeType" });
      const read = await fetch(`${backend.url}/storage/v1/object/${BUCKET}/${path}`, { headers: authHeaders(token) });
      expect(read.headers.get("content-type") ?? "").not.toContain("text/html");
      await read.body?.cancel();
    }
    const fine = await fetch(`${backend.url}/storage/v1/object/${BUCKET}/${owner.id}/typed.png`, {
      method: "POST",
      headers: { ...authHeaders(token), "content-type": "image/png; charset=binary" },
      body: PNG,
    });
    expect(fine.status).toBe(200);
    await fine.body?.cancel();
  });

  it.skipIf(skip)("answers an upload to a missing bucket with a not-found error", async () => {
    const { error } = await owner.client.storage
      .from("no-such-bucket")
      .upload(`${owner.id}/x.png`, new Blob([PNG], { type: "image/png" }));
    expect(error).toMatchObject({ status: 400, statusCode: "404", message: "Bucket not found" });
  });

  it.skipIf(skip)("answers a forged JWT as storage-api does: AccessDenied in jose's words", async () => {
    const forged = `${(await ownerToken()).slice(0, -4)}AAAA`;
    const res = await fetch(`${backend.url}/storage/v1/object/authenticated/${BUCKET}/${owner.id}/blob.png`, {
      headers: authHeaders(forged),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: "403",
      code: "AccessDenied",
      error: "Unauthorized",
      message: "signature verification failed",
    });
    // The plain download route lets a token that does not verify through as unauthenticated, which may
    // read public buckets only: this bucket is private, so it is not found.
    const plain = await fetch(`${backend.url}/storage/v1/object/${BUCKET}/${owner.id}/blob.png`, {
      headers: authHeaders(forged),
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({
      statusCode: "404",
      code: "NoSuchBucket",
      error: "Bucket not found",
      message: "Bucket not found",
    });
  });

  it.skipIf(skip)("lists buckets for the service role only", async () => {
    const service = serviceClient(backend);
    const all = await service.storage.listBuckets();
    expect(all.error).toBeNull();
    expect(all.data!.map((b) => b.id)).toContain(BUCKET);
    const one = await service.storage.getBucket(BUCKET);
    expect(one.data).toMatchObject({ id: BUCKET, public: false });
    expect((await anon.storage.listBuckets()).data).toEqual([]);
  });
  it.skipIf(skip)("lets a visitor view a published image but sign it never; only its owner signs it", async () => {
    const { path, id } = await storedWithRow(`${crypto.randomUUID()}.png`, true);
    expect((await anon.storage.from(BUCKET).download(path)).error).toBeNull();
    expect((await stranger.client.storage.from(BUCKET).download(path)).error).toBeNull();

    // The attack as reported: a year-long signed URL minted with the anon key, one by one and in bulk.
    for (const who of [anon, stranger.client]) {
      const one = await who.storage.from(BUCKET).createSignedUrl(path, 31536000);
      expect(one.data).toBeNull();
      expect(one.error).toMatchObject({ statusCode: "404", message: "Object not found" });
      const many = await who.storage.from(BUCKET).createSignedUrls([path], 31536000);
      expect(many.error).toBeNull();
      expect(many.data![0]).toMatchObject({ path, signedUrl: null });
      expect(many.data![0].error).toBeTruthy();
    }
    const raw = await fetch(`${backend.url}/storage/v1/object/sign/${BUCKET}/${path}`, {
      method: "POST",
      headers: { ...authHeaders(backend.anonKey), "content-type": "application/json" },
      body: JSON.stringify({ expiresIn: 31536000 }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
    // Nor does listing the owner's folder show a visitor the published name.
    expect((await anon.storage.from(BUCKET).list(owner.id)).data).toEqual([]);

    // The owner may sign their own image; unpublishing withdraws the visitor's view at once.
    const own = await owner.client.storage.from(BUCKET).createSignedUrl(path, 60);
    expect(own.error).toBeNull();
    expect((await fetch(own.data!.signedUrl)).status).toBe(200);
    expect((await owner.client.from("generations").update({ is_public: false }).eq("id", id)).error).toBeNull();
    expect((await anon.storage.from(BUCKET).download(path)).error).toMatchObject({ statusCode: "404" });
    const thumb = await fetch(
      `${backend.url}/storage/v1/render/image/authenticated/${BUCKET}/${path}?width=64&height=64`,
      { headers: authHeaders(backend.anonKey) },
    );
    expect(thumb.status).toBe(400);
    expect(await thumb.json()).toMatchObject({ statusCode: "404" });
  });

  it.skipIf(skip)("hands an image whose row is gone to nobody, and leaves it for its owner to remove", async () => {
    const { path, id } = await storedWithRow(`${crypto.randomUUID()}.png`, true);
    expect((await owner.client.from("generations").delete().eq("id", id)).error).toBeNull();

    const store = owner.client.storage.from(BUCKET);
    expect((await store.download(path)).error).toMatchObject({ statusCode: "404" });
    expect((await store.createSignedUrl(path, 60)).error).toMatchObject({ statusCode: "404" });
    expect((await anon.storage.from(BUCKET).download(path)).error).toMatchObject({ statusCode: "404" });
    const head = await fetch(`${backend.url}/storage/v1/object/authenticated/${BUCKET}/${path}`, {
      method: "HEAD",
      headers: authHeaders(await ownerToken()),
    });
    expect(head.status).toBe(400);
    // Listing and removing go by the folder, so the owner (and the account sweep) can still clear it.
    const listed = await store.list(owner.id, { limit: 1000, search: path.split("/")[1] });
    expect(listed.data!.map((o) => o.name)).toEqual([path.split("/")[1]]);
    const removed = await store.remove([path]);
    expect(removed.data!.map((o) => o.name)).toEqual([path]);
    expect(existsSync(join(backend.dataDir, "storage", BUCKET, path))).toBe(false);
  });

  it.skipIf(skip)("takes expiresIn as a whole number of seconds and caps it at a year", async () => {
    const { path } = await storedWithRow(`${crypto.randomUUID()}.png`);
    const sign = (body: unknown) =>
      ownerToken().then((token) =>
        fetch(`${backend.url}/storage/v1/object/sign/${BUCKET}/${path}`, {
          method: "POST",
          headers: { ...authHeaders(token), "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    // Refused as hosted refuses them (its limit: the expiry in milliseconds must be a safe integer).
    // Its body schema refuses what is not a whole number of at least 1 (stricter here: true and [60],
    // which its schema coerces to 1 and 60, are refused too)...
    const schema: [unknown, string][] = [
      [0, "body/expiresIn must be >= 1"],
      [-5, "body/expiresIn must be >= 1"],
      [null, "body/expiresIn must be >= 1"],
      [1.5, "body/expiresIn must be integer"],
      ["soon", "body/expiresIn must be integer"],
      ["", "body/expiresIn must be integer"],
      [true, "body/expiresIn must be integer"],
      [[60], "body/expiresIn must be integer"],
    ];
    for (const [expiresIn, message] of schema) {
      const res = await sign({ expiresIn });
      expect(res.status, String(expiresIn)).toBe(400);
      expect(await res.json()).toEqual({ statusCode: "400", code: "InvalidRequest", error: "Error", message });
    }
    // ...and its signer what would overflow the token's expiry.
    for (const expiresIn of [1e300, Number.MAX_SAFE_INTEGER]) {
      const res = await sign({ expiresIn });
      expect(res.status, String(expiresIn)).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: "400",
        code: "InvalidParameter",
        error: "InvalidParameter",
        message: "Invalid Parameter expiresIn",
      });
    }
    expect(await (await sign({})).json()).toMatchObject({ message: "body must have required property 'expiresIn'" });
    const year = 365 * 24 * 3600;
    for (const expiresIn of [31536000 * 1000, Math.floor(Number.MAX_SAFE_INTEGER / 1000) - 1e10, "120"]) {
      const res = await sign({ expiresIn });
      expect(res.status, String(expiresIn)).toBe(200);
      const claims = tokenClaims(`${backend.url}/storage/v1${(await res.json()).signedURL}`);
      expect(claims.exp - claims.iat).toBe(expiresIn === "120" ? 120 : year);
    }
  });

  it.skipIf(skip)("answers a deep JSON body or a NUL or broken character in a name with a 400", async () => {
    const token = await ownerToken();
    const post = (route: string, body: string) =>
      fetch(`${backend.url}/storage/v1/${route}`, {
        method: "POST",
        headers: { ...authHeaders(token), "content-type": "application/json" },
        body,
      });
    const deep = `{"expiresIn":60,"paths":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const tooDeep = await post(`object/sign/${BUCKET}`, deep);
    expect(tooDeep.status).toBe(400);
    expect(await tooDeep.json()).toMatchObject({ statusCode: "400", message: "JSON may nest at most 64 levels deep" });
    for (const bad of ["\\u0000", "\\ud800", "\\udfff"]) {
      for (const [route, body] of [
        [`object/sign/${BUCKET}`, `{"expiresIn":60,"paths":["${owner.id}/a${bad}.png"]}`],
        [`object/list/${BUCKET}`, `{"prefix":"${owner.id}${bad}","limit":10}`],
        [`object/list/${BUCKET}`, `{"prefix":"${owner.id}","search":"x${bad}"}`],
        [`object/sign/${BUCKET}/${owner.id}/a.png`, `{"expiresIn":60,"k${bad}":1}`],
      ]) {
        const res = await post(route, body);
        expect(res.status, `${route} ${body}`).toBe(400);
        expect(await res.json()).toMatchObject({ statusCode: "400", code: "InvalidRequest" });
      }
      const removed = await fetch(`${backend.url}/storage/v1/object/${BUCKET}`, {
        method: "DELETE",
        headers: { ...authHeaders(token), "content-type": "application/json" },
        body: `{"prefixes":["${owner.id}/a${bad}.png"]}`,
      });
      expect(removed.status).toBe(400);
      await removed.body?.cancel();
    }
    const bucket = await fetch(`${backend.url}/storage/v1/bucket`, {
      method: "POST",
      headers: { ...authHeaders(backend.serviceRoleKey), "content-type": "application/json" },
      body: `{"name":"types","allowed_mime_types":["image/png\\u0000"]}`,
    });
    expect(bucket.status).toBe(400);
    await bucket.body?.cancel();
  });
});
