// Removing objects. Rows are deleted as the caller, so storage.objects RLS decides which of the named
// objects go; objects the caller may not delete are left alone and simply absent from the answer, as
// in Supabase Storage. Files are deleted only after the row deletion has committed.
import { type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { iso } from "./iso-time.ts";
import { checkObjectName, nameList } from "./object-key.ts";
import { asStorageRole, type Operation, OPERATIONS } from "./operation.ts";

interface DeletedRow {
  name: string;
  [key: string]: unknown;
}

async function deleteRows(
  db: Db,
  claims: Claims,
  operation: Operation,
  bucket: string,
  names: string[],
): Promise<DeletedRow[]> {
  const text = await asStorageRole(db, claims, operation, async (tx) => {
    const { rows } = await tx.query<{ list: string }>(
      `with d as (delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *)
       select coalesce(json_agg(json_build_object('name', d.name, 'bucket_id', d.bucket_id, 'owner', d.owner,
         'owner_id', d.owner_id, 'id', d.id, 'version', d.version, 'updated_at', ${iso("d.updated_at")},
         'created_at', ${iso("d.created_at")}, 'last_accessed_at', ${iso("d.last_accessed_at")}, 'metadata', d.metadata,
         'user_metadata', d.user_metadata)), '[]')::text
         as list from d`,
      [bucket, names],
    );
    return rows[0].list;
  });
  return JSON.parse(text) as DeletedRow[];
}

export async function removeMany(
  db: Db,
  store: BlobStore,
  claims: Claims,
  bucket: string,
  body: Record<string, unknown>,
): Promise<Result<Response, StorageError>> {
  const prefixes = nameList(body, "prefixes");
  if (!prefixes.ok) return prefixes;
  // A name that fails validation cannot exist, so it is simply not deleted.
  const names = prefixes.value.flatMap((p) => {
    const name = checkObjectName(p);
    return name.ok ? [name.value] : [];
  });
  const deleted = names.length ?
    await store.locked(names.map((n) => [bucket, n] as const), async () => {
      const rows = await deleteRows(db, claims, OPERATIONS.deleteObjects, bucket, names);
      for (const row of rows) await store.remove(bucket, row.name);
      return rows;
    }) :
    [];
  return ok(json(deleted));
}

export async function removeOne(
  db: Db,
  store: BlobStore,
  claims: Claims,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const deleted = await store.locked([[bucket, name]], async () => {
    const rows = await deleteRows(db, claims, OPERATIONS.deleteObject, bucket, [name]);
    for (const row of rows) await store.remove(bucket, row.name);
    return rows;
  });
  if (deleted.length) return ok(json({ message: "Successfully deleted" }));
  // As storage-api: it looks the object up with its own rights first (NoSuchKey when there is none), and
  // a delete the caller's policies then refuse is AccessDenied.
  const { rows } = await db.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [bucket, name]);
  return err(rows.length ? storageErrors.accessDenied("Access denied") : storageErrors.noSuchKey());
}

/** storage-api refuses to empty a bucket holding more objects than this (STORAGE_EMPTY_BUCKET_MAX). */
const EMPTY_BUCKET_MAX = 200_000;

/**
 * POST /bucket/<id>/empty (supabase-js `emptyBucket`). As storage-api: the caller must see the bucket
 * (NoSuchBucket otherwise), and one holding more than 200,000 objects is refused with 409; the answer is
 * hosted's "queued" message. Hosted's background job then deletes every object with the server's
 * rights; here the objects are deleted at once and as the caller, so storage.objects RLS decides which
 * go (the service role's empty the bucket; a user's only what their delete policies allow): stricter.
 */
export async function emptyBucket(
  db: Db,
  store: BlobStore,
  claims: Claims,
  bucket: string,
): Promise<Result<Response, StorageError>> {
  const found = await asStorageRole(db, claims, OPERATIONS.emptyBucket, async (tx) => {
    const { rows } = await tx.query("select 1 from storage.buckets where id = $1", [bucket]);
    if (!rows.length) return null;
    const { rows: names } = await tx.query<{ name: string }>(
      "select name from storage.objects where bucket_id = $1 and created_at <= now() limit $2",
      [bucket, EMPTY_BUCKET_MAX + 1],
    );
    return names.map((r) => r.name);
  });
  if (found === null) return err(storageErrors.noSuchBucket());
  if (found.length > EMPTY_BUCKET_MAX) {
    return err(storageErrors.unableToEmptyBucket());
  }
  if (found.length) {
    await store.locked(found.map((n) => [bucket, n] as const), async () => {
      const rows = await deleteRows(db, claims, OPERATIONS.emptyBucket, bucket, found);
      for (const row of rows) await store.remove(bucket, row.name);
    });
  }
  return ok(json({ message: "Empty bucket has been queued. Completion may take up to an hour." }));
}
