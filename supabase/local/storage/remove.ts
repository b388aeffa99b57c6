// Removing objects. Rows are deleted as the caller, so storage.objects RLS decides which of the named
// objects go; objects the caller may not delete are left alone and simply absent from the answer, as
// in Supabase Storage. Files are deleted only after the row deletion has committed.
import { type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { type StorageError, storageErrors } from "./errors.ts";
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
         'owner_id', d.owner_id, 'id', d.id, 'version', d.version, 'updated_at', d.updated_at,
         'created_at', d.created_at, 'last_accessed_at', d.last_accessed_at, 'metadata', d.metadata)), '[]')::text
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
    await store.locked(bucket, names, async () => {
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
  const deleted = await store.locked(bucket, [name], async () => {
    const rows = await deleteRows(db, claims, OPERATIONS.deleteObject, bucket, [name]);
    for (const row of rows) await store.remove(bucket, row.name);
    return rows;
  });
  return deleted.length ? ok(json({ message: "Successfully deleted" })) : err(storageErrors.noSuchKey());
}
