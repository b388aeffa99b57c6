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
  // As storage-api's body schema: a name is required (supabase-js sends it with the id).
  if (body.name === undefined) return err(storageErrors.validation("body must have required property 'name'"));
  if (typeof body.name !== "string") return err(storageErrors.validation("body/name must be string"));
  if (body.id !== undefined && typeof body.id !== "string") {
    return err(storageErrors.validation("body/id must be string"));
  }
  const checked = bucketOptions(body);
  if (!checked.ok) return checked;
  const name = body.name;
  const checkedName = checkBucketId(name);
  if (!checkedName.ok) return checkedName;
  const checkedId = checkBucketId((body.id as string | undefined) || name);
  if (!checkedId.ok) return checkedId;
  const id = checkedId.value;
  const opts = checked.value;
  try {
    await asStorageRole(db, claims, OPERATIONS.createBucket, (tx) =>
      tx.query(
        `insert into storage.buckets (id, name, owner, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, coalesce($4, false), $5, $6)`,
        [id, name, ownerOf(claims), opts.public, opts.fileSizeLimit, opts.allowedMimeTypes],
      ));
  } catch (e) {
    if ((e as { code?: unknown })?.code === "23505") return err(storageErrors.bucketAlreadyExists());
    throw e;
  }
  return ok(json({ name }));
}

export async function updateBucket(
  db: Db,
  claims: Claims,
  id: string,
  body: BucketInput,
): Promise<Result<Response, StorageError>> {
  // As storage-api: at least one setting, and only the settings given change.
  if (!Object.keys(body).length) return err(storageErrors.validation("body must NOT have fewer than 1 properties"));
  if (!("public" in body || "file_size_limit" in body || "allowed_mime_types" in body)) {
    return err(
      storageErrors.validation(
        "body must have required property 'public', body must have required property 'file_size_limit', " +
          "body must have required property 'allowed_mime_types', body must match a schema in anyOf",
      ),
    );
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

/** The bucket settings of a create or update body, refused in the words of storage-api's body schema. */
function bucketOptions(body: BucketInput): Result<BucketOptions, StorageError> {
  if (body.public !== undefined && typeof body.public !== "boolean") {
    return err(storageErrors.validation("body/public must be boolean"));
  }
  const limit = body.file_size_limit == null ? null : parseSize(body.file_size_limit);
  if (limit === undefined) return err(storageErrors.validation("body/file_size_limit must match a schema in anyOf"));
  const mimes = body.allowed_mime_types;
  if (mimes != null && !Array.isArray(mimes)) {
    return err(storageErrors.validation("body/allowed_mime_types must be array"));
  }
  const notString = Array.isArray(mimes) ? mimes.findIndex((m) => typeof m !== "string") : -1;
  if (notString >= 0) return err(storageErrors.validation(`body/allowed_mime_types/${notString} must be string`));
  return ok({
    public: typeof body.public === "boolean" ? body.public : null,
    fileSizeLimit: limit,
    allowedMimeTypes: mimes && (mimes as string[]).length ? (mimes as string[]) : null,
  });
}

const UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 };

/**
 * A byte count (a whole number, or digits in a string, as Ajv coerces them) or a size with its unit such
 * as "5MB" (three significant digits, as storage-api reads it); undefined for anything storage-api's
 * schema refuses.
 */
function parseSize(v: unknown): number | null | undefined {
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n === "number") return Number.isSafeInteger(n) && n >= 0 ? n || null : undefined;
  if (typeof n !== "string") return undefined;
  const m = /^(\d+(?:\.\d+)?)(gb|mb|kb|b)$/i.exec(n);
  return m ? Math.floor(Number(Number.parseFloat(m[1]).toPrecision(3)) * UNITS[m[2].toLowerCase()]) || null : undefined;
}

export function ownerOf(claims: Claims): string | null {
  const sub = claims.sub;
  return typeof sub === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sub) ?
    sub :
    null;
}
