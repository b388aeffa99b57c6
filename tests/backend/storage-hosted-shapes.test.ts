// What storage-api answers beyond the bare operations, through the real supabase-js on PGlite and on
// PostgreSQL: user metadata on uploads (and copies), listV2's folder entries and time order with the
// delimiter, partial bucket updates, emptying a bucket, times written as storage-api's JSON writes them,
// and the X-Transformations header of a rendered image. Found by running the upstream storage-js suite
// against this backend; each case is what storage-api (github:supabase/storage) does.
import { beforeAll, expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { keyHeaders } from "../support/clients.ts";
import { png } from "../support/png.ts";

const BUCKET = "shapes";
const ISO_MS_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const BYTES = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);

describeOnBackends("storage as storage-api answers on $title", { prefix: "pc_storage_shapes" }, (backend, { skip }) => {
  const { owner, server } = castFor(backend);

  beforeAll(async () => {
    if (skip) return;
    expect((await server.storage.createBucket(BUCKET, { public: false })).error).toBeNull();
  });

  const files = () => server.storage.from(BUCKET);

  it.skipIf(skip)("keeps an upload's user metadata, answers it from info(), and copies it", async () => {
    const metadata = { custom: "metadata", n: 2, nested: { ok: true } };
    // A Blob goes as multipart (the "metadata" field), a Buffer as a raw body (the x-metadata header).
    expect((await files().upload("meta/blob.bin", new Blob([BYTES]), { metadata })).error).toBeNull();
    expect((await files().upload("meta/raw.bin", Buffer.from(BYTES), { metadata })).error).toBeNull();
    expect((await files().upload("meta/none.bin", new Blob([BYTES]))).error).toBeNull();
    expect((await files().info("meta/blob.bin")).data!.metadata).toEqual(metadata);
    expect((await files().info("meta/raw.bin")).data!.metadata).toEqual(metadata);
    expect((await files().info("meta/none.bin")).data!.metadata).toEqual({});

    // Replacing the object replaces its user metadata ({} when the update sends none).
    expect((await files().update("meta/raw.bin", Buffer.from(BYTES))).error).toBeNull();
    expect((await files().info("meta/raw.bin")).data!.metadata).toEqual({});

    // A copy carries the source's user metadata; with copyMetadata false, x-metadata gives the copy's.
    expect((await files().copy("meta/blob.bin", "meta/copy.bin")).error).toBeNull();
    expect((await files().info("meta/copy.bin")).data!.metadata).toEqual(metadata);
    const res = await fetch(`${backend.url}/storage/v1/object/copy`, {
      method: "POST",
      headers: {
        ...keyHeaders(backend.serviceRoleKey),
        "content-type": "application/json",
        "x-metadata": Buffer.from(JSON.stringify({ fresh: "yes" })).toString("base64"),
      },
      body: JSON.stringify({
        bucketId: BUCKET,
        sourceKey: "meta/blob.bin",
        destinationKey: "meta/fresh.bin",
        copyMetadata: false,
      }),
    });
    expect(res.status).toBe(200);
    expect((await files().info("meta/fresh.bin")).data!.metadata).toEqual({ fresh: "yes" });

    // Stricter than storage-api, which spreads any JSON into an object: metadata must be an object.
    const list = await files().upload("meta/array.bin", new Blob([BYTES]), {
      metadata: [1, 2] as unknown as Record<string, unknown>,
    });
    expect(list.error).toMatchObject({ statusCode: "400" });
  });

  it.skipIf(skip)("writes times as storage-api's JSON does: UTC with milliseconds", async () => {
    const bucket = (await server.storage.getBucket(BUCKET)).data!;
    expect(bucket.created_at).toMatch(ISO_MS_Z);
    expect(bucket.updated_at).toMatch(ISO_MS_Z);
    expect((await files().upload("times/a.bin", new Blob([BYTES]))).error).toBeNull();
    const info = (await files().info("times/a.bin")).data!;
    expect(info.createdAt).toMatch(ISO_MS_Z);
    expect(info.lastModified).toMatch(ISO_MS_Z);
    const [listed] = (await files().list("times")).data!;
    expect(listed.created_at).toMatch(ISO_MS_Z);
    const v2 = (await files().listV2({ prefix: "times/" })).data!;
    expect(v2.objects[0].updated_at).toMatch(ISO_MS_Z);
  });

  it.skipIf(skip)("lists folders with their key, and pages a delimited listing in time order", async () => {
    const put = async (p: string) => {
      expect((await files().upload(p, new Blob([BYTES]))).error).toBeNull();
      await new Promise((r) => setTimeout(r, 5)); // distinct creation times, milliseconds apart
    };
    await put("lv2/sub/deep.bin");
    for (const s of ["zz", "bb", "xx", "ww"]) await put(`lv2/f-${s}`);
    await put("lv2/later/x.bin");

    const folded = await files().listV2({ prefix: "lv2/", with_delimiter: true });
    expect(folded.error).toBeNull();
    expect(folded.data!.folders).toEqual([
      expect.objectContaining({ key: "later", name: "lv2/later/", id: null }),
      expect.objectContaining({ key: "sub", name: "lv2/sub/", id: null }),
    ]);
    expect(folded.data!.objects[0]).toMatchObject({ key: "f-bb", name: "lv2/f-bb" });
    expect(folded.data!.objects[0]).not.toHaveProperty("bucket_id");

    // By creation time, two at a time: the folder "sub" (its oldest object first), then the files in
    // upload order, then "later"; the cursor carries the order across pages.
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await files().listV2({
        prefix: "lv2/",
        with_delimiter: true,
        limit: 2,
        sortBy: { column: "created_at", order: "asc" },
        ...(cursor ? { cursor } : {}),
      });
      expect(page.error).toBeNull();
      // supabase-js types a folder without times; with a time order storage-api gives it its oldest object's.
      const entries = [...page.data!.folders, ...page.data!.objects] as { name: string; created_at: string }[];
      const names = entries.sort((a, b) => (a.created_at < b.created_at ? -1 : 1)).map((e) => e.name);
      seen.push(...names);
      cursor = page.data!.hasNext ? page.data!.nextCursor : undefined;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(["lv2/sub/", "lv2/f-zz", "lv2/f-bb", "lv2/f-xx", "lv2/f-ww", "lv2/later/"]);
    expect(pages).toBe(3);
  });

  it.skipIf(skip)("updates only the bucket settings given, and refuses an update that gives none", async () => {
    const id = "shapes-partial";
    expect(
      (await server.storage.createBucket(id, { public: true, fileSizeLimit: "20mb", allowedMimeTypes: ["image/jpeg"] }))
        .error,
    ).toBeNull();
    expect((await server.storage.updateBucket(id, { public: false })).data).toEqual({
      message: "Successfully updated",
    });
    expect((await server.storage.getBucket(id)).data).toMatchObject({
      public: false,
      file_size_limit: 20_000_000,
      allowed_mime_types: ["image/jpeg"],
    });
    const res = await fetch(`${backend.url}/storage/v1/bucket/${id}`, {
      method: "PUT",
      headers: {
        ...keyHeaders(backend.serviceRoleKey),
        "content-type": "application/json",
      },
      body: JSON.stringify({ id, name: id }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: "400", code: "InvalidRequest" });
  });

  it.skipIf(skip)("empties a bucket for the service role; a user who cannot see it gets NoSuchBucket", async () => {
    const id = "shapes-empty";
    expect((await server.storage.createBucket(id)).error).toBeNull();
    for (const p of ["a.bin", "f/b.bin", "f/g/c.bin"]) {
      expect((await server.storage.from(id).upload(p, new Blob([BYTES]))).error).toBeNull();
    }
    const refused = await owner.client.storage.emptyBucket(id);
    expect(refused.error).toMatchObject({ statusCode: "404", message: "Bucket not found" });
    expect((await server.storage.from(id).listV2()).data!.objects).toHaveLength(3);

    expect(await server.storage.emptyBucket(id)).toEqual({
      data: { message: "Empty bucket has been queued. Completion may take up to an hour." },
      error: null,
    });
    expect((await server.storage.from(id).listV2()).data!.objects).toEqual([]);
    expect((await server.storage.from(id).download("f/b.bin")).error).not.toBeNull();
    expect((await server.storage.emptyBucket("shapes-missing")).error).toMatchObject({ statusCode: "404" });
    // Empty, it can be deleted.
    expect((await server.storage.deleteBucket(id)).error).toBeNull();
  });

  it.skipIf(skip)("names the applied transformation in X-Transformations", async () => {
    expect((await files().upload("render/a.png", new Blob([png(64, 48)], { type: "image/png" }))).error).toBeNull();
    const signed = await files().createSignedUrl("render/a.png", 60, {
      transform: { width: 20, height: 10, quality: 60 },
    });
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-transformations")).toBe("height:10,width:20,resizing_type:fill,quality:60");
    await res.arrayBuffer();

    const contain = await files().download("render/a.png", { transform: { width: 16, resize: "contain" } });
    expect(contain.error).toBeNull();
    const direct = await fetch(
      `${backend.url}/storage/v1/render/image/authenticated/${BUCKET}/render/a.png?width=16&resize=contain`,
      { headers: keyHeaders(backend.serviceRoleKey) },
    );
    expect(direct.headers.get("x-transformations")).toBe("width:16,resizing_type:fit");
    await direct.arrayBuffer();
  });
});
