// Buckets: the lookup every object route needs (read with the server's own rights, as Supabase Storage
// does, because limits and the public flag apply whoever asks) and the /bucket routes, which act as the
// caller so that only the service role can see or change buckets unless a policy says otherwise.
import { type Claims, type Db } from "../db.ts";
import { asStorageRole, OPERATIONS } from "./operation.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { iso } from "./iso-time.ts";
import { checkBucketId } from "./object-key.ts";

export interface Bucket {
  id: string;
  name: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

const BUCKET_JSON = `json_build_object('id', b.id, 'name', b.name, 'owner', b.owner, 'public', b.public,
  'file_size_limit', b.file_size_limit, 'allowed_mime_types', b.allowed_mime_types,
  'created_at', ${iso("b.created_at")}, 'updated_at', ${iso("b.updated_at")})`;

export async function findBucket(db: Db, id: string): Promise<Bucket | null> {
  const { rows } = await db.query<{ b: string }>(
    `select ${BUCKET_JSON}::text as b from storage.buckets b where b.id = $1`,
    [id],
  );
  return rows[0] ? (JSON.parse(rows[0].b) as Bucket) : null;
}

export async function listBuckets(db: Db, claims: Claims): Promise<Response> {
  const text = await asStorageRole(db, claims, OPERATIONS.listBuckets, async (tx) => {
    const { rows } = await tx.query<{ list: string }>(
      `select coalesce(json_agg(${BUCKET_JSON} order by b.name), '[]')::text as list from storage.buckets b`,
    );
    return rows[0].list;
  });
  return json(JSON.parse(text));
}

export async function getBucket(db: Db, claims: Claims, id: string): Promise<Result<Response, StorageError>> {
  const text = await asStorageRole(db, claims, OPERATIONS.getBucket, async (tx) => {
    const { rows } = await tx.query<{ b: string }>(
      `select ${BUCKET_JSON}::text as b from storage.buckets b where b.id = $1`,
      [id],
    );
    return rows[0]?.b ?? null;
  });
  return text ? ok(json(JSON.parse(text))) : err(storageErrors.noSuchBucket());
}

interface BucketInput {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
}

export async function createBucket(db: Db, claims: Claims, body: BucketInput): Promise<Result<Response, StorageError>> {
  const name = typeof body.name === "string" ? body.name : typeof body.id === "string" ? body.id : "";
  const checkedId = checkBucketId(typeof body.id === "string" ? body.id : name);
  if (!checkedId.ok) return checkedId;
  const id = checkedId.value;
  const checked = bucketOptions(body);
  if (!checked.ok) return checked;
  const opts = checked.value;
  await asStorageRole(db, claims, OPERATIONS.createBucket, (tx) =>
    tx.query(
      `insert into storage.buckets (id, name, owner, public, file_size_limit, allowed_mime_types)
       values ($1, $2, $3, coalesce($4, false), $5, $6)`,
      [id, name || id, ownerOf(claims), opts.public, opts.fileSizeLimit, opts.allowedMimeTypes],
    ));
  return ok(json({ name: name || id }));
}

export async function updateBucket(
  db: Db,
  claims: Claims,
  id: string,
  body: BucketInput,
): Promise<Result<Response, StorageError>> {
  // As storage-api: at least one setting, and only the settings given change.
  if (!("public" in body || "file_size_limit" in body || "allowed_mime_types" in body)) {
    return err(
      storageErrors.invalidRequest(
        "body must have required property 'public', 'file_size_limit' or 'allowed_mime_types'",
      ),
    );
  }
  if (body.public !== undefined && typeof body.public !== "boolean") {
    return err(storageErrors.invalidRequest("body/public must be boolean"));
  }
  const checked = bucketOptions(body);
  if (!checked.ok) return checked;
  const opts = checked.value;
  const updated = await asStorageRole(db, claims, OPERATIONS.updateBucket, async (tx) => {
    const { rows } = await tx.query(
      `update storage.buckets set public = coalesce($2::boolean, public),
         file_size_limit = case when $5::boolean then $3::bigint else file_size_limit end,
         allowed_mime_types = case when $6::boolean then $4::text[] else allowed_mime_types end,
         updated_at = now() where id = $1 returning id`,
      [
        id,
        opts.public,
        opts.fileSizeLimit,
        opts.allowedMimeTypes,
        body.file_size_limit !== undefined,
        body.allowed_mime_types !== undefined,
      ],
    );
    return rows.length;
  });
  return updated ? ok(json({ message: "Successfully updated" })) : err(storageErrors.noSuchBucket());
}

export async function deleteBucket(db: Db, claims: Claims, id: string): Promise<Result<Response, StorageError>> {
  const result = await asStorageRole(db, claims, OPERATIONS.deleteBucket, async (tx) => {
    const { rows: objects } = await tx.query("select 1 from storage.objects where bucket_id = $1 limit 1", [id]);
    if (objects.length) return "not_empty" as const;
    const { rows } = await tx.query("delete from storage.buckets where id = $1 returning id", [id]);
    return rows.length ? ("deleted" as const) : ("missing" as const);
  });
  if (result === "not_empty") return err(storageErrors.bucketNotEmpty());
  if (result === "missing") return err(storageErrors.noSuchBucket());
  return ok(json({ message: "Successfully deleted" }));
}

interface BucketOptions {
  public: boolean | null;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

function bucketOptions(body: BucketInput): Result<BucketOptions, StorageError> {
  const limit = body.file_size_limit == null ? null : parseSize(body.file_size_limit);
  if (limit === undefined) return err(storageErrors.invalidRequest("file_size_limit is not a size"));
  const mimes = body.allowed_mime_types;
  if (mimes != null && !(Array.isArray(mimes) && mimes.every((m) => typeof m === "string"))) {
    return err(storageErrors.invalidRequest("allowed_mime_types must be an array of strings"));
  }
  return ok({
    public: typeof body.public === "boolean" ? body.public : null,
    fileSizeLimit: limit,
    allowedMimeTypes: mimes && (mimes as string[]).length ? (mimes as string[]) : null,
  });
}

const UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 };

/** Accepts a byte count or a string such as "5MB", as supabase-js passes `fileSizeLimit` through. */
function parseSize(v: unknown): number | null | undefined {
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return Math.floor(v) || null;
  if (typeof v !== "string") return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(v);
  return m ? Math.floor(Number(m[1]) * UNITS[(m[2] ?? "b").toLowerCase()]) || null : undefined;
}

export function ownerOf(claims: Claims): string | null {
  const sub = claims.sub;
  return typeof sub === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sub) ?
    sub :
    null;
}
