// Moving and copying objects (POST /object/move, POST /object/copy), as supabase-js's move() and copy()
// call them. Hosted storage-api first checks the caller's rights under RLS (move: select and update of
// the source row, renamed; copy: select of the source, insert or upsert of the destination) and then
// writes as the server. Here the row change itself runs as the caller, with `storage.operation` set to
// hosted's name, so the same policies decide and nothing is written that the caller could not write.
// The bytes are copied to a staging file and put in place before the row commits; a move removes the
// source's bytes only after its row has committed.
import { type Claims, type Db, type Sql } from "../db.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { KeyCollision } from "./blob-store.ts";
import { findBucket, ownerOf } from "./buckets.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { checkBucketId, checkObjectName } from "./object-key.ts";
import { asStorageRole, OPERATIONS } from "./operation.ts";
import { parseRow, ROW_SQL } from "./read.ts";
import { decodeBase64Text, INSERT_SQL, mimeAllowed, UPSERT_SQL, userMetadataOf } from "./upload.ts";
import { iso } from "./iso-time.ts";

interface Transfer {
  bucket: string;
  source: string;
  destBucket: string;
  dest: string;
}

/** The body's bucketId, sourceKey, destinationKey and optional destinationBucket, checked. */
function transferOf(body: Record<string, unknown>): Result<Transfer, StorageError> {
  for (const field of ["bucketId", "sourceKey", "destinationKey"]) {
    if (body[field] === undefined) {
      return err(storageErrors.validation(`body must have required property '${field}'`));
    }
    if (typeof body[field] !== "string") return err(storageErrors.validation(`body/${field} must be string`));
  }
  const destinationBucket = body.destinationBucket;
  if (destinationBucket !== undefined && destinationBucket !== null && typeof destinationBucket !== "string") {
    return err(storageErrors.validation("body/destinationBucket must be string"));
  }
  const bucket = checkBucketId(body.bucketId as string);
  if (!bucket.ok) return bucket;
  const destBucket = checkBucketId((destinationBucket as string | undefined) || bucket.value);
  if (!destBucket.ok) return destBucket;
  const source = checkObjectName(body.sourceKey as string);
  if (!source.ok) return source;
  const dest = checkObjectName(body.destinationKey as string);
  if (!dest.ok) return dest;
  return ok({ bucket: bucket.value, source: source.value, destBucket: destBucket.value, dest: dest.value });
}

/** Why a row change touched nothing: the caller cannot see the source, or sees it but may not change it. */
async function refusal(tx: Sql, bucket: string, name: string): Promise<StorageError> {
  const { rows } = await tx.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [bucket, name]);
  return rows.length ? storageErrors.accessDenied() : storageErrors.noSuchKey();
}

/** A JSON parameter, or SQL null (not JSON null) for a missing value. */
const jsonOrNull = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export async function moveObject(
  db: Db,
  store: BlobStore,
  claims: Claims,
  body: Record<string, unknown>,
): Promise<Result<Response, StorageError>> {
  const t = transferOf(body);
  if (!t.ok) return t;
  const { bucket, source, destBucket, dest } = t.value;
  const same = bucket === destBucket && source === dest;
  const version = crypto.randomUUID();
  let staged: string | null = null;
  let placed = false;
  try {
    // Both objects in one hold: a move onto itself names one key twice, and a move of a to b racing
    // one of b to a would otherwise each hold one key and wait for the other's.
    const moved = await store.locked([[bucket, source], [destBucket, dest]], async () => {
      const r = await asStorageRole(
        db,
        claims,
        OPERATIONS.move,
        async (tx): Promise<Result<string, StorageError>> => {
          const { rows } = await tx.query<{ id: string }>(
            `update storage.objects set bucket_id = $3, name = $4, version = $5, owner = $6, owner_id = $7,
               updated_at = now() where bucket_id = $1 and name = $2 returning id::text`,
            [bucket, source, destBucket, dest, version, ownerOf(claims), ownerOf(claims) ?? null],
          );
          if (!rows[0]) return err(await refusal(tx, bucket, source));
          if (!same) {
            staged = await store.stageCopy(bucket, source);
            if (!staged) return err(storageErrors.noSuchKey());
            await store.commit(staged, destBucket, dest);
            staged = null;
            placed = true;
          }
          return ok(rows[0].id);
        },
      );
      if (r.ok && !same) await store.remove(bucket, source);
      return r;
    });
    if (!moved.ok) return moved;
    return ok(json({ message: "Successfully moved", Id: moved.value, Key: dest }));
  } catch (e) {
    if (placed) await store.remove(destBucket, dest);
    if (e instanceof KeyCollision) return err(storageErrors.keyCollision(`${destBucket}/${dest}`));
    throw e;
  } finally {
    if (staged) await store.discard(staged);
  }
}

export async function copyObject(
  db: Db,
  store: BlobStore,
  claims: Claims,
  body: Record<string, unknown>,
  upsert: boolean,
  xMetadata: string | null,
): Promise<Result<Response, StorageError>> {
  const t = transferOf(body);
  if (!t.ok) return t;
  if (body.copyMetadata !== undefined && typeof body.copyMetadata !== "boolean") {
    return err(storageErrors.validation("body/copyMetadata must be boolean"));
  }
  // As storage-api: the source's user metadata travels with it unless copyMetadata is false; then the
  // x-metadata header (base64 JSON) gives the copy's, or it has none.
  const copyMetadata = body.copyMetadata !== false;
  const given = copyMetadata || xMetadata === null ? null : userMetadataOf(decodeBase64Text(xMetadata));
  if (given && !given.ok) return given;
  const { bucket, source, destBucket, dest } = t.value;
  if (bucket === destBucket && source === dest) {
    return err(storageErrors.invalidRequest("the source and the destination are the same object"));
  }
  const target = await findBucket(db, destBucket);
  if (!target) return err(storageErrors.noSuchBucket());
  const owner = ownerOf(claims);
  const version = crypto.randomUUID();
  let staged: string | null = null;
  let placed = false;
  try {
    const copied = await store.locked(
      [[destBucket, dest]],
      () =>
        asStorageRole(
          db,
          claims,
          OPERATIONS.copy,
          async (tx): Promise<Result<Record<string, unknown>, StorageError>> => {
            const row = parseRow((await tx.query<{ o: string }>(ROW_SQL, [bucket, source])).rows);
            if (!row) return err(storageErrors.noSuchKey());
            const metadata: Record<string, unknown> = { ...(row.metadata ?? {}) };
            if (!copyMetadata) {
              const given = (typeof body.metadata === "object" && body.metadata) || {};
              const { cacheControl, mimetype } = given as { cacheControl?: unknown; mimetype?: unknown };
              if (typeof cacheControl === "string") metadata.cacheControl = cacheControl;
              if (typeof mimetype === "string") metadata.mimetype = mimetype;
            }
            // The destination bucket's own limits apply, as to an upload into it.
            const mimetype = typeof metadata.mimetype === "string" ? metadata.mimetype : "application/octet-stream";
            if (!mimeAllowed(target, mimetype)) return err(storageErrors.invalidMimeType(mimetype));
            const size = typeof metadata.size === "number" ? metadata.size : 0;
            if (target.file_size_limit !== null && size > target.file_size_limit) {
              return err(storageErrors.entityTooLarge());
            }
            metadata.lastModified = new Date().toISOString();
            const { rows } = await tx.query<{ o: string }>(
              `${upsert ? UPSERT_SQL : INSERT_SQL} returning json_build_object('id', id, 'name', name,
             'bucket_id', bucket_id, 'owner', owner, 'version', version, 'metadata', metadata,
             'user_metadata', user_metadata, 'created_at', ${iso("created_at")}, 'updated_at', ${iso("updated_at")},
             'last_accessed_at', ${iso("last_accessed_at")})::text as o`,
              [
                destBucket,
                dest,
                owner,
                owner,
                JSON.stringify(metadata),
                version,
                jsonOrNull(copyMetadata ? row.user_metadata : given?.value),
              ],
            );
            staged = await store.stageCopy(bucket, source);
            if (!staged) return err(storageErrors.noSuchKey());
            await store.commit(staged, destBucket, dest);
            staged = null;
            placed = true;
            return ok(JSON.parse(rows[0].o) as Record<string, unknown>);
          },
        ),
    );
    if (!copied.ok) return copied;
    return ok(json({ Id: copied.value.id, Key: `${destBucket}/${dest}`, ...copied.value }));
  } catch (e) {
    // An upsert over an existing object already replaced its bytes; a failed one leaves the copy's.
    if (placed && !upsert) await store.remove(destBucket, dest);
    if (e instanceof KeyCollision) return err(storageErrors.keyCollision(`${destBucket}/${dest}`));
    throw e;
  } finally {
    if (staged) await store.discard(staged);
  }
}
