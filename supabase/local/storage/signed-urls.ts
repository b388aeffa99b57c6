// Signed URLs: a caller who may read an object (storage.objects RLS) can mint a time-limited URL that
// serves it to anyone. As in Supabase Storage, the token is an HS256 JWT {url: "<bucket>/<name>", exp}
// signed with the project's JWT secret; it carries no role, so it grants nothing beyond that one URL.
// Serving it checks only the token and that the object still exists (as hosted does), so a URL cannot be
// withdrawn: signing runs with `storage.operation` set to hosted's sign operations, and the bucket's
// policy lets nobody but the owner sign (a visitor may view a published image on each request, never
// take away a link that outlives its publishing).
import { type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { signJwt, verifyJwt } from "../jwt.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { findBucket, ownerOf } from "./buckets.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { checkObjectName, nameList } from "./object-key.ts";
import { asStorageRole, OPERATIONS } from "./operation.ts";
import { tokenRefusal } from "./token-refusal.ts";
import { downloadGranted, parseRow, ROW_SQL } from "./read.ts";
import {
  parseTransform,
  renderRow,
  transformationsHeader,
  type VariantCache,
  type VariantRenderer,
} from "./render-image.ts";
import { INSERT_SQL, UPSERT_SQL, writeObject } from "./upload.ts";

/**
 * A year: long enough for any sharing the app does, short enough to bound a leaked link. Hosted storage
 * accepts any whole number of seconds up to Number.MAX_SAFE_INTEGER milliseconds since 1970; a longer
 * request is cut to this bound here, which is stricter, never more lenient.
 */
export const MAX_EXPIRES_IN_SEC = 365 * 24 * 3600;

/** The longest expiresIn hosted accepts at `nowMs`: its token's exp, in ms, must stay a safe integer. */
function hostedMaxExpiresIn(nowMs: number): number {
  return Math.max(0, Math.floor(Number.MAX_SAFE_INTEGER / 1000) - Math.floor(nowMs / 1000));
}

/**
 * `expiresIn` as hosted takes it (an integer from 1 to hostedMaxExpiresIn, a numeric string coerced as its
 * body schema does), refused where hosted refuses it and cut to MAX_EXPIRES_IN_SEC where it would not be.
 */
export function expiresInOf(body: Record<string, unknown>, nowMs = Date.now()): Result<number, StorageError> {
  const raw = body.expiresIn;
  if (raw === undefined) return err(storageErrors.validation("body must have required property 'expiresIn'"));
  // Ajv coerces null to 0 and a numeric string to its number; nothing else is taken.
  const v = typeof raw === "number" ?
    raw :
    raw === null ?
    0 :
    typeof raw === "string" && raw.trim() !== "" ?
    Number(raw) :
    NaN;
  if (!Number.isInteger(v)) return err(storageErrors.validation("body/expiresIn must be integer"));
  if (v < 1) return err(storageErrors.validation("body/expiresIn must be >= 1"));
  if (!Number.isSafeInteger(v) || v > hostedMaxExpiresIn(nowMs)) {
    return err(storageErrors.invalidParameter("expiresIn"));
  }
  return ok(Math.min(v, MAX_EXPIRES_IN_SEC));
}

/** Hosted's scope claims: a download token never uploads and an upload token never downloads. */
const SCOPE_DOWNLOAD = "download";
const SCOPE_UPLOAD = "upload";
/** How long a signed upload URL lives: hosted's default (uploadSignedUrlExpirationTime), two hours. */
export const UPLOAD_URL_EXPIRES_IN_SEC = 2 * 3600;

async function mint(
  secret: string,
  bucket: string,
  name: string,
  expiresIn: number,
  transformations?: string,
): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  const claims = { url: `${bucket}/${name}`, scope: SCOPE_DOWNLOAD, iat, exp: iat + expiresIn };
  // A transformed link is served by the signed render route, its transformation fixed in the token.
  if (transformations) {
    const token = await signJwt({ ...claims, transformations }, secret);
    return `/render/image/sign/${bucket}/${name}?token=${token}`;
  }
  return `/object/sign/${bucket}/${name}?token=${await signJwt(claims, secret)}`;
}

/**
 * `transform` of a sign request as hosted writes it into the token ("height:…,width:…,resize:…,
 * quality:…,format:…"), each value checked against the render route's ranges first.
 */
export function transformationsOf(body: Record<string, unknown>): Result<string, StorageError> {
  const t = body.transform;
  if (t === undefined || t === null) return ok("");
  if (typeof t !== "object" || Array.isArray(t)) {
    return err(storageErrors.validation("body/transform must be object"));
  }
  const o = t as Record<string, unknown>;
  const params = new URLSearchParams();
  for (const key of ["height", "width", "resize", "quality", "format"]) {
    const v = o[key];
    if (v === undefined || v === null || v === "") continue;
    if (typeof v !== "number" && typeof v !== "string") {
      const type = key === "resize" || key === "format" ? "string" : "integer";
      return err(storageErrors.validation(`body/transform/${key} must be ${type}`));
    }
    params.set(key, String(v));
  }
  const checked = parseTransform(params, null, "body/transform");
  if (!checked.ok) return checked;
  const format = params.get("format");
  const segments: string[] = [];
  if (params.has("height")) segments.push(`height:${params.get("height")}`);
  if (params.has("width")) segments.push(`width:${params.get("width")}`);
  if (params.has("height") || params.has("width")) segments.push(`resize:${checked.value.resize}`);
  if (params.has("quality")) segments.push(`quality:${params.get("quality")}`);
  if (format) segments.push(`format:${format}`);
  return ok(segments.join(","));
}

/** The render query a token's transformations stand for ("width:64,resize:cover" → width=64&resize=cover). */
export function transformationParams(transformations: string): URLSearchParams {
  const params = new URLSearchParams();
  for (const segment of transformations.split(",")) {
    const colon = segment.indexOf(":");
    if (colon > 0) params.set(segment.slice(0, colon), segment.slice(colon + 1));
  }
  return params;
}

export async function signOne(
  db: Db,
  secret: string,
  claims: Claims,
  bucket: string,
  name: string,
  body: Record<string, unknown>,
): Promise<Result<Response, StorageError>> {
  const expiresIn = expiresInOf(body);
  if (!expiresIn.ok) return expiresIn;
  const transformations = transformationsOf(body);
  if (!transformations.ok) return transformations;
  const visible = await asStorageRole(
    db,
    claims,
    OPERATIONS.sign,
    async (tx) =>
      (await tx.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [bucket, name])).rows.length >
        0,
  );
  if (!visible) return err(storageErrors.noSuchKey());
  return ok(json({ signedURL: await mint(secret, bucket, name, expiresIn.value, transformations.value) }));
}

export async function signMany(
  db: Db,
  secret: string,
  claims: Claims,
  bucket: string,
  body: Record<string, unknown>,
): Promise<Result<Response, StorageError>> {
  const expiresIn = expiresInOf(body);
  if (!expiresIn.ok) return expiresIn;
  const listed = nameList(body, "paths");
  if (!listed.ok) return listed;
  const paths = listed.value;
  const names = paths.map((p) => checkObjectName(p));
  const valid = names.flatMap((n) => (n.ok ? [n.value] : []));
  const visible = await asStorageRole(db, claims, OPERATIONS.signMany, async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      "select name from storage.objects where bucket_id = $1 and name = any($2::text[])",
      [bucket, valid],
    );
    return new Set(rows.map((r) => r.name));
  });
  const out = [];
  for (let i = 0; i < paths.length; i++) {
    const name = names[i];
    const granted = name.ok && visible.has(name.value);
    out.push({
      error: granted ? null : "Either the object does not exist or you do not have access to it",
      path: paths[i],
      signedURL: granted ? await mint(secret, bucket, name.value, expiresIn.value) : null,
    });
  }
  return ok(json(out));
}

/**
 * The claims of a signed URL's token for `<bucket>/<name>` and one scope, checked as hosted checks them
 * (verifyObjectSignature): signature, scope (a token without one is a download token unless it carries
 * `upsert`), the exact object, expiry.
 */
export async function verifySigned(
  secret: string,
  req: Request,
  bucket: string,
  name: string,
  scope: typeof SCOPE_DOWNLOAD | typeof SCOPE_UPLOAD,
): Promise<Result<Record<string, unknown>, StorageError>> {
  const token = new URL(req.url).searchParams.get("token");
  if (token === null) return err(storageErrors.validation("querystring must have required property 'token'"));
  const r = await verifyJwt(token, secret);
  if (!r.ok) return err(storageErrors.invalidJwt((await tokenRefusal(token, secret)) ?? "Invalid JWT"));
  const claims = r.value as Record<string, unknown>;
  const upload = claims.scope === SCOPE_UPLOAD || (claims.scope === undefined && "upsert" in claims);
  const download = claims.scope === SCOPE_DOWNLOAD || (claims.scope === undefined && !("upsert" in claims));
  if (scope === SCOPE_UPLOAD ? !upload : !download) {
    return err(storageErrors.invalidSignature(`Token is not scoped for ${scope}`));
  }
  // A token that carries a role is an API key or a session, never a signed URL.
  if (claims.url !== `${bucket}/${name}` || typeof claims.exp !== "number" || "role" in claims) {
    return err(storageErrors.invalidSignature());
  }
  return ok(claims);
}

/** GET of a signed URL: no Authorization needed, the token is the permission. */
export async function serveSigned(
  db: Db,
  store: BlobStore,
  secret: string,
  req: Request,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const claims = await verifySigned(secret, req, bucket, name, SCOPE_DOWNLOAD);
  if (!claims.ok) return claims;
  return await downloadGranted(db, store, req, bucket, name);
}

/** GET of a transformed signed URL (/render/image/sign/…): the token's transformation of the object. */
export async function serveSignedRender(
  db: Db,
  store: BlobStore,
  renderer: Pick<VariantRenderer, "render">,
  cache: VariantCache,
  secret: string,
  req: Request,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const claims = await verifySigned(secret, req, bucket, name, SCOPE_DOWNLOAD);
  if (!claims.ok) return claims;
  const transformations = typeof claims.value.transformations === "string" ? claims.value.transformations : "";
  const params = transformationParams(transformations);
  const t = parseTransform(params, req.headers.get("accept"));
  if (!t.ok) return t;
  const row = parseRow((await db.query<{ o: string }>(ROW_SQL, [bucket, name])).rows);
  if (!row) return err(storageErrors.noSuchKey());
  return await renderRow(store, renderer, cache, req, bucket, row, t.value, transformationsHeader(params, t.value));
}

/**
 * POST /object/upload/sign/<bucket>/<name> (supabase-js `createSignedUploadUrl`): the caller must be
 * allowed to insert the object (or upsert it, with x-upsert: true), which is tried as the caller with
 * hosted's sign_upload_url operation and rolled back; the token names the caller as the owner.
 */
export async function signUpload(
  db: Db,
  secret: string,
  req: Request,
  claims: Claims,
  bucketId: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  if (!(await findBucket(db, bucketId))) return err(storageErrors.noSuchBucket());
  const upsert = (req.headers.get("x-upsert") ?? "").toLowerCase() === "true";
  const owner = ownerOf(claims);
  try {
    await asStorageRole(db, claims, OPERATIONS.signUploadUrl, async (tx) => {
      await tx.query(upsert ? UPSERT_SQL : INSERT_SQL, [bucketId, name, owner, owner, "{}", crypto.randomUUID(), null]);
      throw new TrialDone();
    });
  } catch (e) {
    if (!(e instanceof TrialDone)) throw e;
  }
  const iat = Math.floor(Date.now() / 1000);
  const url = `${bucketId}/${name}`;
  const token = await signJwt(
    { owner: owner ?? undefined, url, upsert, scope: SCOPE_UPLOAD, iat, exp: iat + UPLOAD_URL_EXPIRES_IN_SEC },
    secret,
  );
  return ok(json({ url: `/object/upload/sign/${url}?token=${token}`, token }));
}

/** Rolls back the trial insert of signUpload once it has passed. */
class TrialDone extends Error {}

/**
 * PUT /object/upload/sign/<bucket>/<name>?token= (supabase-js `uploadToSignedUrl`): the token is the
 * permission, as on hosted, which writes with its own rights; the row's owner is the token's.
 */
export async function uploadSigned(
  db: Db,
  store: BlobStore,
  secret: string,
  maxUploadBytes: number,
  req: Request,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const claims = await verifySigned(secret, req, bucket, name, SCOPE_UPLOAD);
  if (!claims.ok) return claims;
  const owner = typeof claims.value.owner === "string" ? claims.value.owner : undefined;
  const server: Claims = { role: "service_role", ...(owner ? { sub: owner } : {}) };
  const mode = claims.value.upsert === true ? "upsert" : "create";
  return await writeObject(db, store, maxUploadBytes, req, server, bucket, name, mode, OPERATIONS.uploadSigned);
}
