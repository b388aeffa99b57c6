// The operation a storage request performs, told to the database as hosted Supabase Storage tells it:
// storage-api sets the transaction-local setting `storage.operation` to the route's operation name
// (src/http/routes/operations.ts in supabase/storage) before any RLS-checked query, and
// `storage.operation()` reads it. Policies can then tell a download from a signing request: the
// generations bucket lets a visitor view a published image but never sign one (migration
// 20261124000200). The names below are hosted's, letter for letter, so one policy decides the same on
// both backends.
import { asRole, type Claims, type Db, type Sql } from "../db.ts";

export const OPERATIONS = {
  createBucket: "storage.bucket.create",
  deleteBucket: "storage.bucket.delete",
  listBuckets: "storage.bucket.list",
  getBucket: "storage.bucket.get",
  updateBucket: "storage.bucket.update",
  emptyBucket: "storage.bucket.empty",
  upload: "storage.object.upload",
  uploadUpdate: "storage.object.upload_update",
  deleteObject: "storage.object.delete",
  deleteObjects: "storage.object.delete_many",
  getAuthenticated: "storage.object.get_authenticated",
  /** HEAD of /object/authenticated/… and /object/…: hosted still uses this legacy name. */
  headAuthenticated: "object.head_authenticated_info",
  /** GET /object/info/…: hosted names it with this legacy name. */
  info: "object.get_authenticated_info",
  move: "storage.object.move",
  copy: "storage.object.copy",
  sign: "storage.object.sign",
  signMany: "storage.object.sign_many",
  signUploadUrl: "storage.object.sign_upload_url",
  uploadSigned: "storage.object.upload_signed",
  list: "storage.object.list",
  listV2: "storage.object.list_v2",
  renderAuthenticated: "storage.render.image_authenticated",
} as const;

export type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];

/** `asRole` with `storage.operation` set for the transaction, as storage-api does. */
export function asStorageRole<T>(
  db: Db,
  claims: Claims,
  operation: Operation,
  fn: (tx: Sql) => Promise<T>,
): Promise<T> {
  return asRole(db, claims, async (tx) => {
    await tx.query("select set_config('storage.operation', $1, true)", [operation]);
    return await fn(tx);
  });
}
