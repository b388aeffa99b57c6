// Reading objects: authenticated download (the caller must pass storage.objects RLS), public buckets
// (anyone, no headers) and signed URLs (anyone holding an unexpired token for that exact object). All
// three serve bytes the same way: Content-Type, Content-Length, ETag, Cache-Control, Last-Modified,
// HEAD without a body, and 304 for a matching If-None-Match.
import { type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { findBucket } from "./buckets.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { iso } from "./iso-time.ts";
import { asStorageRole, OPERATIONS } from "./operation.ts";

export interface ObjectRow {
  name: string;
  updated_at: string | null;
  metadata: { eTag?: string; mimetype?: string; cacheControl?: string } | null;
  user_metadata?: Record<string, unknown> | null;
}

/** One object's row (name, time, metadata, user metadata) as JSON text; run as the caller for an RLS-checked read. */
export const ROW_SQL = `select json_build_object('name', name, 'updated_at', updated_at, 'metadata', metadata,
    'user_metadata', user_metadata)::text as o
  from storage.objects where bucket_id = $1 and name = $2`;

export function parseRow(rows: { o: string }[]): ObjectRow | null {
  return rows[0] ? (JSON.parse(rows[0].o) as ObjectRow) : null;
}

export async function downloadAuthenticated(
  db: Db,
  store: BlobStore,
  req: Request,
  claims: Claims,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const operation = req.method === "HEAD" ? OPERATIONS.headAuthenticated : OPERATIONS.getAuthenticated;
  const row = await asStorageRole(
    db,
    claims,
    operation,
    async (tx) => parseRow((await tx.query<{ o: string }>(ROW_SQL, [bucket, name])).rows),
  );
  return row ? await serve(store, req, bucket, row) : err(storageErrors.noSuchKey());
}

export async function downloadPublic(
  db: Db,
  store: BlobStore,
  req: Request,
  bucketId: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const bucket = await findBucket(db, bucketId);
  if (!bucket || !bucket.public) return err(storageErrors.noSuchBucket());
  const row = parseRow((await db.query<{ o: string }>(ROW_SQL, [bucketId, name])).rows);
  return row ? await serve(store, req, bucketId, row) : err(storageErrors.noSuchKey());
}

/** Serves an object whose access was already granted (signed URL), reading its row with server rights. */
export async function downloadGranted(
  db: Db,
  store: BlobStore,
  req: Request,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const row = parseRow((await db.query<{ o: string }>(ROW_SQL, [bucket, name])).rows);
  return row ? await serve(store, req, bucket, row) : err(storageErrors.noSuchKey());
}

async function serve(
  store: BlobStore,
  req: Request,
  bucket: string,
  row: ObjectRow,
): Promise<Result<Response, StorageError>> {
  const opened = await store.open(bucket, row.name);
  if (!opened) return err(storageErrors.blobMissing());
  const meta = row.metadata ?? {};
  const headers = new Headers({
    "content-type": meta.mimetype || "application/octet-stream",
    "content-length": String(opened.size),
    "cache-control": meta.cacheControl || "no-cache",
    // Stored bytes are served as their declared type only; a browser must never sniff them into HTML.
    "x-content-type-options": "nosniff",
  });
  if (meta.eTag) headers.set("etag", meta.eTag);
  if (row.updated_at) headers.set("last-modified", new Date(row.updated_at).toUTCString());
  const download = new URL(req.url).searchParams.get("download");
  if (download !== null) {
    const filename = download || row.name.split("/").pop()!;
    headers.set("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`);
  }
  if (meta.eTag && etagMatches(req.headers.get("if-none-match"), meta.eTag)) {
    opened.file.close();
    headers.delete("content-length");
    return ok(new Response(null, { status: 304, headers }));
  }
  if (req.method === "HEAD") {
    opened.file.close();
    return ok(new Response(null, { status: 200, headers }));
  }
  return ok(new Response(opened.file.readable, { status: 200, headers }));
}

export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || bare(t) === bare(etag));
}

/** One object's facts as info() answers them, as JSON text. */
const INFO_SQL = `select json_build_object('id', id, 'name', name, 'version', version, 'bucket_id', bucket_id,
    'metadata', metadata, 'user_metadata', user_metadata, 'updated_at', ${iso("updated_at")},
    'created_at', ${iso("created_at")})::text as o
  from storage.objects where bucket_id = $1 and name = $2`;

/**
 * GET /object/info/<bucket>/<name> (supabase-js `info()`): the object's facts as JSON, read as the caller
 * with hosted's info operation. Hosted reads public buckets' objects with its own rights; here the
 * caller's read right is always asked, which is stricter.
 */
export async function objectInfo(
  db: Db,
  claims: Claims,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  if (!(await findBucket(db, bucket))) return err(storageErrors.noSuchBucket());
  const text = await asStorageRole(db, claims, OPERATIONS.info, async (tx) => {
    const { rows } = await tx.query<{ o: string }>(INFO_SQL, [bucket, name]);
    return rows[0]?.o ?? null;
  });
  return infoAnswer(text);
}

/**
 * GET /object/info/public/<bucket>/<name>, and /object/info/<bucket>/<name> with a token that does not
 * verify (hosted lets that route through as unauthenticated): as hosted, the bucket must be public (any
 * other answers NoSuchBucket, whether it exists or not), and the object is then read with the server's
 * rights, as a public download is.
 */
export async function objectInfoPublic(
  db: Db,
  bucketId: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const bucket = await findBucket(db, bucketId);
  if (!bucket || !bucket.public) return err(storageErrors.noSuchBucket());
  const { rows } = await db.query<{ o: string }>(INFO_SQL, [bucketId, name]);
  return infoAnswer(rows[0]?.o ?? null);
}

function infoAnswer(text: string | null): Result<Response, StorageError> {
  if (!text) return err(storageErrors.noSuchKey());
  const o = JSON.parse(text) as {
    id: string;
    name: string;
    version: string | null;
    bucket_id: string;
    metadata: { size?: number; mimetype?: string; cacheControl?: string; eTag?: string } | null;
    user_metadata: Record<string, unknown> | null;
    updated_at: string | null;
    created_at: string | null;
  };
  const meta = o.metadata ?? {};
  const headers = new Headers({ "cache-control": "no-cache" });
  if (meta.eTag) headers.set("etag", meta.eTag);
  return ok(
    json(
      {
        id: o.id,
        name: o.name,
        version: o.version,
        bucket_id: o.bucket_id,
        size: meta.size ?? null,
        content_type: meta.mimetype ?? null,
        cache_control: meta.cacheControl ?? null,
        etag: meta.eTag ?? null,
        // The uploader's own metadata (user_metadata), as hosted answers it.
        metadata: o.user_metadata,
        last_modified: o.updated_at,
        created_at: o.created_at,
      },
      200,
      headers,
    ),
  );
}
