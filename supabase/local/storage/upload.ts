// Upload (POST, optionally x-upsert) and update (PUT) of one object. The caller's right to write is
// decided by storage.objects RLS: the row is inserted or updated as the caller inside a transaction,
// and the bytes are moved into place before that transaction commits, so a refused write stores
// nothing and an accepted one is never visible without its bytes.
import { createHash } from "node:crypto";
import { type Claims, type Db, type Sql } from "../db.ts";
import { BodyTooLarge, json, readBody } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { KeyCollision } from "./blob-store.ts";
import { type Bucket, findBucket, ownerOf } from "./buckets.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { boundaryOf, parseMultipart } from "./multipart.ts";
import { asStorageRole, type Operation, OPERATIONS } from "./operation.ts";
import { unstorableInValue } from "../../functions/_shared/vocabulary/text.ts";

export type WriteMode = "create" | "upsert" | "update";

/** Room for multipart boundaries, part headers and the cacheControl/metadata fields. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const DEFAULT_MIME = "application/octet-stream";

interface Incoming {
  bytes: Uint8Array;
  mimetype: string;
  cacheControl: string;
  /** The uploader's own metadata ({} when none was sent), stored as the row's user_metadata. */
  userMetadata: Record<string, unknown>;
}

/** storage-api's bound on the JSON text of an upload's user metadata. */
const MAX_USER_METADATA_BYTES = 1024 * 1024;

export async function writeObject(
  db: Db,
  store: BlobStore,
  maxUploadBytes: number,
  req: Request,
  claims: Claims,
  bucketId: string,
  name: string,
  mode: WriteMode,
  operation: Operation = mode === "update" ? OPERATIONS.uploadUpdate : OPERATIONS.upload,
): Promise<Result<Response, StorageError>> {
  const bucket = await findBucket(db, bucketId);
  if (!bucket) return err(storageErrors.noSuchBucket());
  const limit = Math.min(maxUploadBytes, bucket.file_size_limit ?? Infinity);
  const read = await readIncoming(req, limit);
  if (!read.ok) return read;
  const incoming = read.value;
  if (!SINGLE_MIME.test(incoming.mimetype) || !mimeAllowed(bucket, incoming.mimetype)) {
    return err(storageErrors.invalidMimeType(incoming.mimetype));
  }

  const metadata = {
    eTag: `"${createHash("md5").update(incoming.bytes).digest("hex")}"`,
    size: incoming.bytes.byteLength,
    mimetype: incoming.mimetype,
    cacheControl: incoming.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: incoming.bytes.byteLength,
    httpStatusCode: 200,
  };
  const owner = ownerOf(claims);
  const ownerId = typeof claims.sub === "string" && claims.sub ? claims.sub : null;
  const version = crypto.randomUUID();
  const params = [
    bucketId,
    name,
    owner,
    ownerId,
    JSON.stringify(metadata),
    version,
    JSON.stringify(incoming.userMetadata),
  ];

  const staged = await store.stage(incoming.bytes);
  let committed = false;
  try {
    const saved = await store.locked([[bucketId, name]], () =>
      asStorageRole(db, claims, operation, async (tx) => {
        const row = await saveRow(tx, mode, params);
        if (!row.ok) return row;
        await store.commit(staged, bucketId, name);
        committed = true;
        return row;
      }));
    if (!saved.ok) return saved;
    return ok(json({ Key: `${bucketId}/${name}`, Id: saved.value }));
  } catch (e) {
    if (e instanceof KeyCollision) return err(storageErrors.keyCollision(`${bucketId}/${name}`));
    throw e;
  } finally {
    if (!committed) await store.discard(staged);
  }
}

/** Parameters: bucket, name, owner, owner_id, metadata (JSON text), version, user_metadata (JSON text or null). */
export const INSERT_SQL = `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version,
  user_metadata) values ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb)`;
export const UPSERT_SQL = `${INSERT_SQL} on conflict (bucket_id, name) do update set owner = excluded.owner,
  owner_id = excluded.owner_id, metadata = excluded.metadata, version = excluded.version,
  user_metadata = excluded.user_metadata, updated_at = now(), last_accessed_at = now()`;
const UPDATE_SQL = `update storage.objects set owner = $3, owner_id = $4, metadata = $5::jsonb, version = $6,
  user_metadata = $7::jsonb, updated_at = now(), last_accessed_at = now() where bucket_id = $1 and name = $2`;

/** Writes the object's row as the caller; returns its id, or why the caller may not write it. */
async function saveRow(tx: Sql, mode: WriteMode, params: unknown[]): Promise<Result<string, StorageError>> {
  const sql = mode === "update" ? UPDATE_SQL : mode === "upsert" ? UPSERT_SQL : INSERT_SQL;
  const { rows } = await tx.query<{ id: string }>(`${sql} returning id::text`, params);
  if (rows[0]) return ok(rows[0].id);
  // An update touched nothing: there is no such object, or the caller may see it but not change it.
  const { rows: seen } = await tx.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [
    params[0],
    params[1],
  ]);
  return err(seen.length ? storageErrors.accessDenied() : storageErrors.noSuchKey());
}

async function readIncoming(req: Request, limit: number): Promise<Result<Incoming, StorageError>> {
  const contentType = req.headers.get("content-type") ?? "";
  try {
    if (/^multipart\/form-data/i.test(contentType)) {
      const boundary = boundaryOf(contentType);
      // storage-api passes the multipart parser's words on (NoContentProvided, an InvalidRequest).
      if (!boundary) return err(storageErrors.invalidRequest("Multipart: Boundary not found"));
      const body = await readBody(req, limit + MULTIPART_OVERHEAD_BYTES);
      const parts = parseMultipart(body, boundary);
      if (!parts) return err(storageErrors.invalidRequest("Unexpected end of form"));
      // supabase-js names the file part ""; other clients name it "file".
      const file = parts.find((p) => p.name === "") ?? parts.find((p) => p.filename !== null);
      if (!file) return err(storageErrors.invalidRequest("No content provided"));
      if (file.body.byteLength > limit) return err(storageErrors.entityTooLarge());
      const cacheField = parts.find((p) => p.name === "cacheControl");
      const seconds = cacheField ? new TextDecoder().decode(cacheField.body).trim() : "";
      // supabase-js sends the user metadata as a "metadata" field; storage-api also reads "userMetadata".
      const metaField = parts.find((p) => p.name === "metadata") ?? parts.find((p) => p.name === "userMetadata");
      if (metaField && metaField.body.byteLength > MAX_USER_METADATA_BYTES) {
        return err(storageErrors.entityTooLarge("user_metadata"));
      }
      const userMetadata = userMetadataOf(metaField ? new TextDecoder().decode(metaField.body) : null);
      if (!userMetadata.ok) return userMetadata;
      return ok({
        bytes: file.body,
        mimetype: file.contentType || DEFAULT_MIME,
        cacheControl: /^\d+$/.test(seconds) ? `max-age=${seconds}` : "no-cache",
        userMetadata: userMetadata.value,
      });
    }
    // A raw body carries the user metadata as base64 JSON in x-metadata.
    const header = req.headers.get("x-metadata");
    const userMetadata = userMetadataOf(header === null ? null : decodeBase64Text(header));
    if (!userMetadata.ok) return userMetadata;
    return ok({
      bytes: await readBody(req, limit),
      mimetype: contentType || DEFAULT_MIME,
      cacheControl: req.headers.get("cache-control") ?? "no-cache",
      userMetadata: userMetadata.value,
    });
  } catch (e) {
    if (e instanceof BodyTooLarge) return err(storageErrors.entityTooLarge());
    throw e;
  }
}

/**
 * The user metadata of an upload from its JSON text. As storage-api: none, or text that is not JSON,
 * is stored as {}. Stricter: JSON that is not an object (storage-api spreads it into one, a string
 * becoming one key per character) and strings Postgres cannot store are refused.
 */
export function userMetadataOf(text: string | null): Result<Record<string, unknown>, StorageError> {
  if (text === null) return ok({});
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return ok({});
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return err(storageErrors.invalidRequest("metadata must be a JSON object"));
  }
  if (unstorableInValue(value)) {
    return err(storageErrors.invalidRequest("metadata contains a NUL or a broken Unicode character"));
  }
  return ok(value as Record<string, unknown>);
}

/** UTF-8 text of a base64 value; null when it is not base64 of UTF-8 (then no metadata is read). */
export function decodeBase64Text(b64: string): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(b64.trim()), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

// One media type with optional parameters. A list ("image/png, text/html") is refused: it is served
// back as Content-Type, and browsers use its last entry, which the bucket's allowed types never saw.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const SINGLE_MIME = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \t]*;[ \t]*${TOKEN}=(?:${TOKEN}|"[^"\\,]*"))*[ \t]*;?[ \t]*$`);

/** A bucket's allowed_mime_types holds exact types or wildcards such as "image/*". */
export function mimeAllowed(bucket: Bucket, mimetype: string): boolean {
  const allowed = bucket.allowed_mime_types;
  if (!allowed || allowed.length === 0) return true;
  const type = mimetype.split(";")[0].trim().toLowerCase();
  return allowed.some((a) => {
    const rule = a.trim().toLowerCase();
    return rule === type || (rule.endsWith("/*") && type.startsWith(rule.slice(0, -1)));
  });
}
