// Signed URLs: a caller who may read an object (storage.objects RLS) can mint a time-limited URL that
// serves it to anyone. As in Supabase Storage, the token is an HS256 JWT {url: "<bucket>/<name>", exp}
// signed with the project's JWT secret; it carries no role, so it grants nothing beyond that one URL.
import { asRole, type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { signJwt, verifyJwt } from "../jwt.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { checkObjectName, nameList } from "./object-key.ts";
import { downloadGranted } from "./read.ts";

/** A year: long enough for any sharing the app does, short enough to bound a leaked link. */
const MAX_EXPIRES_IN_SEC = 365 * 24 * 3600;

function expiresInOf(body: Record<string, unknown>): Result<number, StorageError> {
  const v = Number(body.expiresIn);
  if (!Number.isFinite(v) || v < 1) {
    return err(storageErrors.invalidRequest("expiresIn must be a positive number of seconds"));
  }
  return ok(Math.min(Math.floor(v), MAX_EXPIRES_IN_SEC));
}

async function mint(secret: string, bucket: string, name: string, expiresIn: number): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  const token = await signJwt({ url: `${bucket}/${name}`, iat, exp: iat + expiresIn }, secret);
  return `/object/sign/${bucket}/${name}?token=${token}`;
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
  const visible = await asRole(
    db,
    claims,
    async (tx) =>
      (await tx.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [bucket, name])).rows.length >
      0,
  );
  if (!visible) return err(storageErrors.noSuchKey());
  return ok(json({ signedURL: await mint(secret, bucket, name, expiresIn.value) }));
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
  const visible = await asRole(db, claims, async (tx) => {
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

/** GET of a signed URL: no Authorization needed, the token is the permission. */
export async function serveSigned(
  db: Db,
  store: BlobStore,
  secret: string,
  req: Request,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const token = new URL(req.url).searchParams.get("token");
  if (!token) return err(storageErrors.invalidRequest("querystring must have required property 'token'"));
  const r = await verifyJwt(token, secret);
  if (!r.ok) return err(r.error === "expired" ? storageErrors.signatureExpired() : storageErrors.invalidSignature());
  if (r.value.url !== `${bucket}/${name}` || typeof r.value.exp !== "number") {
    return err(storageErrors.invalidSignature());
  }
  return await downloadGranted(db, store, req, bucket, name);
}
