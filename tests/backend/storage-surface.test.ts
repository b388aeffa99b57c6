// The rest of Supabase Storage's object surface through the real supabase-js client, on PGlite and on
// PostgreSQL: move, copy, info, exists, listV2, signed upload URLs, transformed signed URLs, scoped
// signed tokens and the 404 of a route hosted serves and this backend does not (the public info and
// render routes are served: storage-errors.test.ts). Surface tests use a
// bucket of their own, created by the service role (no policy lets a user into it, so users are refused
// everything there); the 'generations' bucket's read policy shows the operation names hosted sets.
import { beforeAll, expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { keyHeaders, storeGeneration } from "../support/clients.ts";
import { png } from "../support/png.ts";

const BUCKET = "surface";
const GENERATIONS = "generations";
/** The pixels of this file's pictures: a colour ramp. */
const RAMP = (x: number, y: number): [number, number, number] => [x * 7, y * 5, 90];

const BYTES: Uint8Array<ArrayBuffer> = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
const blob = (bytes: Uint8Array<ArrayBuffer> = BYTES, type = "image/png") => new Blob([bytes], { type });
const bytesOf = async (b: Blob | null) => (b ? [...new Uint8Array(await b.arrayBuffer())] : []);

function claimsOf(url: string): Record<string, unknown> {
  const token = new URL(url).searchParams.get("token")!;
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
}

describeOnBackends("storage surface on $title", { prefix: "pc_storage_surface" }, (backend, { skip }) => {
  const { owner, anon, server } = castFor(backend);

  beforeAll(async () => {
    if (skip) return;
    expect((await server.storage.createBucket(BUCKET, { public: false })).error).toBeNull();
  });

  const files = () => server.storage.from(BUCKET);
  const put = async (path: string, bytes: Uint8Array<ArrayBuffer> = BYTES, type = "image/png") =>
    expect((await files().upload(path, blob(bytes, type))).error).toBeNull();

  it.skipIf(skip)("moves an object: the bytes follow it and the old name is gone", async () => {
    await put("move/a.png");
    const moved = await files().move("move/a.png", "move/sub/b.png");
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: "Successfully moved" });
    expect(await bytesOf((await files().download("move/sub/b.png")).data)).toEqual([...BYTES]);
    expect((await files().download("move/a.png")).error).toMatchObject({ statusCode: "404" });
    expect((await files().move("move/missing.png", "move/x.png")).error).toMatchObject({ statusCode: "404" });
    await put("move/c.png");
    expect((await files().move("move/c.png", "move/sub/b.png")).error).toMatchObject({ statusCode: "409" });
    // A user with no policy on the bucket moves nothing.
    expect((await owner.client.storage.from(BUCKET).move("move/c.png", "move/d.png")).error).toMatchObject({
      statusCode: "404",
    });
    expect((await files().exists("move/c.png")).data).toBe(true);
  });

  it.skipIf(skip)("answers a move onto itself and two crossing moves, and leaves both objects writable", async () => {
    // Each answer within 5 s: a move once held its source's lock while waiting for its destination's.
    const soon = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error("no answer in 5 s")), 5000))]);
    await put("cross/a.png");
    await put("cross/b.png");
    expect((await soon(files().move("cross/a.png", "cross/a.png"))).error).toBeNull();
    const crossing = await soon(
      Promise.all([files().move("cross/a.png", "cross/b.png"), files().move("cross/b.png", "cross/a.png")]),
    );
    // Both names are taken, so each crossing move is refused as a duplicate.
    expect(crossing.map((r) => r.error)).toMatchObject([{ statusCode: "409" }, { statusCode: "409" }]);
    const removed = await soon(files().remove(["cross/a.png", "cross/a.png", "cross/b.png"]));
    expect(removed.error).toBeNull();
    expect(removed.data!.map((o) => o.name).sort()).toEqual(["cross/a.png", "cross/b.png"]);
    for (const name of ["cross/a.png", "cross/b.png"]) {
      expect((await soon(files().upload(name, blob(), { upsert: true }))).error).toBeNull();
    }
  });

  it.skipIf(skip)("copies an object, also into another bucket, and keeps the source", async () => {
    await put("copy/a.png");
    const copied = await files().copy("copy/a.png", "copy/b.png");
    expect(copied.error).toBeNull();
    expect(copied.data).toEqual({ path: `${BUCKET}/copy/b.png` });
    expect(await bytesOf((await files().download("copy/b.png")).data)).toEqual([...BYTES]);
    expect(await bytesOf((await files().download("copy/a.png")).data)).toEqual([...BYTES]);
    expect((await files().copy("copy/a.png", "copy/b.png")).error).toMatchObject({ statusCode: "409" });

    expect((await server.storage.createBucket("surface-other", { public: false })).error).toBeNull();
    const across = await files().copy("copy/a.png", "copy/c.png", { destinationBucket: "surface-other" });
    expect(across.data).toEqual({ path: "surface-other/copy/c.png" });
    const there = await server.storage.from("surface-other").download("copy/c.png");
    expect(await bytesOf(there.data)).toEqual([...BYTES]);
    expect((await owner.client.storage.from(BUCKET).copy("copy/a.png", "copy/z.png")).error).toMatchObject({
      statusCode: "404",
    });
  });

  it.skipIf(skip)("tells an object's info and whether it exists", async () => {
    await put("info/a.png");
    const info = await files().info("info/a.png");
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      name: "info/a.png",
      bucketId: BUCKET,
      size: BYTES.length,
      contentType: "image/png",
    });
    expect(info.data!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(info.data!.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await files().info("info/missing.png")).error).toMatchObject({ statusCode: "404" });
    expect((await owner.client.storage.from(BUCKET).info("info/a.png")).error).toMatchObject({ statusCode: "404" });

    expect(await files().exists("info/a.png")).toEqual({ data: true, error: null });
    expect((await files().exists("info/missing.png")).data).toBe(false);
    expect((await owner.client.storage.from(BUCKET).exists("info/a.png")).data).toBe(false);
  });

  it.skipIf(skip)("lists with listV2: folders folded, keys in order, a cursor for the next page", async () => {
    for (const p of ["lv2/a.png", "lv2/b.png", "lv2/c.png", "lv2/sub/d.png", "lv2/sub/e.png"]) await put(p);
    const folded = await files().listV2({ prefix: "lv2/", with_delimiter: true });
    expect(folded.error).toBeNull();
    expect(folded.data!.folders.map((f) => f.name)).toEqual(["lv2/sub/"]);
    expect(folded.data!.objects.map((o) => o.name)).toEqual(["lv2/a.png", "lv2/b.png", "lv2/c.png"]);
    expect(folded.data!.hasNext).toBe(false);

    const first = await files().listV2({ prefix: "lv2/", limit: 2 });
    expect(first.data!.objects.map((o) => o.name)).toEqual(["lv2/a.png", "lv2/b.png"]);
    expect(first.data!.hasNext).toBe(true);
    const rest = await files().listV2({ prefix: "lv2/", limit: 10, cursor: first.data!.nextCursor });
    expect(rest.data!.objects.map((o) => o.name)).toEqual(["lv2/c.png", "lv2/sub/d.png", "lv2/sub/e.png"]);
    expect(rest.data!.hasNext).toBe(false);

    const desc = await files().listV2({ prefix: "lv2/sub/", sortBy: { column: "name", order: "desc" } });
    expect(desc.data!.objects.map((o) => o.name)).toEqual(["lv2/sub/e.png", "lv2/sub/d.png"]);
    expect((await files().listV2({ cursor: "%%%" })).error).toMatchObject({ statusCode: "400" });
    expect((await owner.client.storage.from(BUCKET).listV2({ prefix: "lv2/" })).data!.objects).toEqual([]);
  });

  it.skipIf(skip)("signs an upload URL that uploads once with its token, as its signer", async () => {
    const signed = await files().createSignedUploadUrl("signed/up.png");
    expect(signed.error).toBeNull();
    expect(claimsOf(signed.data!.signedUrl)).toMatchObject({ url: `${BUCKET}/signed/up.png`, scope: "upload" });
    const up = await anon.storage.from(BUCKET).uploadToSignedUrl("signed/up.png", signed.data!.token, blob());
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: "signed/up.png", fullPath: `${BUCKET}/signed/up.png` });
    expect(await bytesOf((await files().download("signed/up.png")).data)).toEqual([...BYTES]);
    // Without upsert the token does not overwrite; it is bound to its own path.
    const again = await anon.storage.from(BUCKET).uploadToSignedUrl("signed/up.png", signed.data!.token, blob());
    expect(again.error).toMatchObject({ statusCode: "409" });
    const elsewhere = await anon.storage.from(BUCKET).uploadToSignedUrl("signed/other.png", signed.data!.token, blob());
    expect(elsewhere.error).toMatchObject({ statusCode: "400" });
    // Upsert tokens overwrite.
    const upsert = await files().createSignedUploadUrl("signed/up.png", { upsert: true });
    const png4 = png(4, 4, RAMP);
    expect(
      (await anon.storage.from(BUCKET).uploadToSignedUrl("signed/up.png", upsert.data!.token, blob(png4))).error,
    ).toBeNull();
    expect(await bytesOf((await files().download("signed/up.png")).data)).toEqual([...png4]);
    // A user with no insert right gets no upload URL.
    expect((await owner.client.storage.from(BUCKET).createSignedUploadUrl("signed/mine.png")).error).toMatchObject({
      statusCode: "403",
    });
  });

  it.skipIf(skip)("keeps download and upload tokens apart", async () => {
    await put("scope/a.png");
    const upload = await files().createSignedUploadUrl("scope/a.png", { upsert: true });
    const asDownload = await fetch(
      `${backend.url}/storage/v1/object/sign/${BUCKET}/scope/a.png?token=${upload.data!.token}`,
    );
    expect(asDownload.status).toBe(400);
    expect(await asDownload.json()).toMatchObject({ code: "InvalidSignature" });

    const download = await files().createSignedUrl("scope/a.png", 60);
    expect(claimsOf(download.data!.signedUrl)).toMatchObject({ scope: "download" });
    const token = new URL(download.data!.signedUrl).searchParams.get("token")!;
    const asUpload = await anon.storage.from(BUCKET).uploadToSignedUrl("scope/a.png", token, blob(png(2, 2, RAMP)), {
      upsert: true,
    });
    expect(asUpload.error).toMatchObject({ statusCode: "400" });
    expect(await bytesOf((await files().download("scope/a.png")).data)).toEqual([...BYTES]);
  });

  it.skipIf(skip)("serves a transformed signed URL as the transformed image", async () => {
    const original = png(64, 48, RAMP);
    await put("render/a.png", original);
    const signed = await files().createSignedUrl("render/a.png", 60, { transform: { width: 16, height: 16 } });
    expect(signed.error).toBeNull();
    expect(new URL(signed.data!.signedUrl).pathname).toBe(`/storage/v1/render/image/sign/${BUCKET}/render/a.png`);
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0);
    expect([...bytes]).not.toEqual([...original]);
    // The plain signed URL still serves the stored bytes.
    const plain = await files().createSignedUrl("render/a.png", 60);
    expect([...new Uint8Array(await (await fetch(plain.data!.signedUrl)).arrayBuffer())]).toEqual([...original]);
    // The transformation is the token's: the URL's query cannot change it, nor the path the object.
    const wrong = signed.data!.signedUrl.replace("render/a.png", "render/b.png");
    expect((await fetch(wrong)).status).toBe(400);
    expect((await files().createSignedUrl("render/a.png", 60, { transform: { width: 99999 } })).error).toMatchObject({
      statusCode: "400",
    });
  });

  it.skipIf(skip)("answers 404 NotSupported for hosted routes it does not serve", async () => {
    const headers = keyHeaders(backend.serviceRoleKey);
    for (const [method, path] of [
      ["POST", "/upload/resumable"],
      ["GET", "/s3/surface"],
    ]) {
      const res = await fetch(`${backend.url}/storage/v1${path}`, { method, headers });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toMatchObject({ statusCode: "404", code: "NotSupported" });
    }
    // A route storage-api does not have at all is its own 404.
    const wrongMethod = await fetch(`${backend.url}/storage/v1/object/move`, { headers });
    expect(wrongMethod.status).toBe(404);
    expect(await wrongMethod.json()).toEqual({
      statusCode: "404",
      code: "InvalidRequest",
      error: "Not Found",
      message: "Route GET:/object/move not found",
    });
  });

  it.skipIf(skip)(
    "sets hosted's operation names: a visitor gets a published image's info, never a signed link",
    async () => {
      const path = `${owner.id}/${crypto.randomUUID()}.png`;
      expect((await server.storage.from(GENERATIONS).upload(path, blob())).error).toBeNull();
      await storeGeneration(server, owner.id, { image_path: path, is_public: true });
      expect((await anon.storage.from(GENERATIONS).info(path)).data).toMatchObject({ name: path });
      expect((await anon.storage.from(GENERATIONS).exists(path)).data).toBe(true);
      expect((await anon.storage.from(GENERATIONS).createSignedUrl(path, 60)).error).toMatchObject({
        statusCode: "404",
      });
      expect((await anon.storage.from(GENERATIONS).listV2({ prefix: `${owner.id}/` })).data!.objects).toEqual([]);
      // The owner lists an orphan (no row) in their folder with list_v2, and may not move or copy images.
      const orphan = `${owner.id}/${crypto.randomUUID()}.png`;
      expect((await server.storage.from(GENERATIONS).upload(orphan, blob())).error).toBeNull();
      const mine = await owner.client.storage.from(GENERATIONS).listV2({ prefix: `${owner.id}/` });
      expect(mine.data!.objects.map((o) => o.name)).toEqual(expect.arrayContaining([path, orphan]));
      expect((await owner.client.storage.from(GENERATIONS).move(path, `${owner.id}/moved.png`)).error).not.toBeNull();
      expect((await owner.client.storage.from(GENERATIONS).copy(path, `${owner.id}/copy.png`)).error).not.toBeNull();
      expect(
        (await owner.client.storage.from(GENERATIONS).createSignedUploadUrl(`${owner.id}/up.png`)).error,
      ).not.toBeNull();
    },
  );
});
