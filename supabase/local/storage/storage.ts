// The Storage API at /storage/v1, as supabase-js calls it: objects (upload, update, download, info,
// exists, move, copy, public and signed URLs, signed uploads, remove, list, list-v2), image
// transformation (render/image: public, signed or authenticated) and buckets (emptying one included).
// Errors have storage-api's shapes (errors.ts). Hosted routes not served here answer 404 NotSupported. Bytes live under DATA_DIR/storage; metadata and access
// live in storage.objects, whose RLS policies (from the migrations) decide every user-facing read and
// write. This module only routes; each operation lives in storage/.
import { parseBoundedJson, TOO_DEEP_MESSAGE } from "../../functions/_shared/bounded-json.ts";
import { unstorableInValue } from "../../functions/_shared/vocabulary/text.ts";
import { type Claims, DB_ROLES } from "../db.ts";
import { bearer, BodyTooLarge, type Ctx, readBody, resolveClaims, type Service } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import { createBlobStore } from "./blob-store.ts";
import { createBucket, deleteBucket, getBucket, listBuckets, updateBucket } from "./buckets.ts";
import { errorResponse, fromDbError, type StorageError, storageErrors } from "./errors.ts";
import { listObjects, listObjectsV2 } from "./list.ts";
import { copyObject, moveObject } from "./move-copy.ts";
import { checkBucketId, checkObjectName, decodePathPiece } from "./object-key.ts";
import { downloadAuthenticated, downloadPublic, objectInfo, objectInfoPublic } from "./read.ts";
import { createVariantRenderer, renderAuthenticated, renderPublic, VariantCache } from "./render-image.ts";
import { emptyBucket, removeMany, removeOne } from "./remove.ts";
import { serveSigned, serveSignedRender, signMany, signOne, signUpload, uploadSigned } from "./signed-urls.ts";
import { tokenRefusal } from "./token-refusal.ts";
import { type WriteMode, writeObject } from "./upload.ts";

/** JSON bodies of the object and bucket routes are small; uploads have their own limit. */
const MAX_JSON_BODY_BYTES = 256 * 1024;

type Outcome = Result<Response, StorageError>;

/** Image transformation of an object the caller may read (render-image.ts). */
const RENDER_PREFIX = "/render/image/authenticated/";
/** Image transformation of a public bucket's object, for anyone (render-image.ts). */
const PUBLIC_RENDER_PREFIX = "/render/image/public/";
/** Object info of a public bucket's object, for anyone (read.ts). */
const PUBLIC_INFO_PREFIX = "/object/info/public/";
/** A transformed signed URL: the token fixes the transformation (signed-urls.ts). */
const SIGNED_RENDER_PREFIX = "/render/image/sign/";
const UPLOAD_SIGN_PREFIX = "/object/upload/sign/";
const LIST_V2_PREFIX = "/object/list-v2/";
/** Object info as the caller; /object/info/public/… is the anonymous route above. */
const INFO_PREFIXES = ["/object/info/authenticated/", "/object/info/"];

/**
 * Routes hosted Supabase Storage serves that this backend does not. They answer 404 NotSupported before
 * anything else reads the path, so none is mistaken for a bucket or an object name.
 */
const UNSUPPORTED = [
  /^\/upload\/resumable(\/|$)/,
  /^\/s3(\/|$)/,
  /^\/cdn(\/|$)/,
  /^\/iceberg(\/|$)/,
  /^\/vector(\/|$)/,
  /^\/version\/?$/,
];

/** The URL as storage-api sees it behind the gateway (without /storage/v1), for its route-not-found message. */
function routeUrl(req: Request): string {
  const url = new URL(req.url);
  return url.pathname.replace(/^\/storage\/v1(?=\/|$)/, "") + url.search;
}

const routeNotFound = (req: Request) => storageErrors.routeNotFound(req.method, routeUrl(req));

/** The token a request carries, as resolveClaims picks it (empty when none). */
const tokenOf = (req: Request) =>
  bearer(req) ?? req.headers.get("apikey") ?? new URL(req.url).searchParams.get("apikey") ?? "";

interface Target {
  bucket: string;
  name: string | null;
}

export function createStorage(ctx: Ctx): Service {
  const { db, config } = ctx;
  const store = createBlobStore(config.dataDir);
  const variants = new VariantCache();
  const renderer = createVariantRenderer();

  /** Splits "<bucket>/<name...>" (still percent-encoded) into a checked bucket id and object name. */
  function target(req: Request, rest: string, needName: boolean): Result<Target, StorageError> {
    const slash = rest.indexOf("/");
    // Its object routes are "<bucket>/*": without the slash after the bucket there is no such route.
    if (needName && slash < 0) return err(routeNotFound(req));
    const rawBucket = slash < 0 ? rest : rest.slice(0, slash);
    const rawName = slash < 0 ? "" : rest.slice(slash + 1);
    const bucket = decodePathPiece(rawBucket);
    if (bucket === null) return err(storageErrors.invalidBucketName());
    const checkedBucket = checkBucketId(bucket);
    if (!checkedBucket.ok) return checkedBucket;
    if (!needName) {
      // A bucket route with more path after the bucket is no route of storage-api's.
      return rawName.replace(/\/+$/, "") ? err(routeNotFound(req)) : ok({ bucket, name: null });
    }
    const decoded = decodePathPiece(rawName);
    if (decoded === null) return err(storageErrors.invalidKey(rawName));
    const name = checkObjectName(decoded);
    return name.ok ? ok({ bucket, name: name.value }) : name;
  }

  /**
   * The JSON object of a request body, its depth bounded before it is parsed (bounded-json.ts), and no
   * string in it (keys included) holding what Postgres cannot store: a NUL or a lone surrogate would
   * otherwise reach SQL as an object name, prefix or type and fail there.
   */
  async function jsonBody(req: Request): Promise<Result<Record<string, unknown>, StorageError>> {
    let text: string;
    try {
      text = new TextDecoder().decode(await readBody(req, MAX_JSON_BODY_BYTES));
    } catch (e) {
      if (e instanceof BodyTooLarge) return err(storageErrors.bodyTooLarge());
      return err(storageErrors.invalidRequest("body could not be read"));
    }
    const isJson = /^application\/json\s*(;|$)/i.test(req.headers.get("content-type") ?? "");
    // As Fastify: a JSON body is parsed only when it says it is JSON; anything else is no body at all.
    if (!isJson) return err(storageErrors.validation("body must be object"));
    if (!text) return err(storageErrors.emptyJson());
    const parsed = parseBoundedJson(text);
    if (!parsed.ok) {
      // Stricter than hosted: JSON nested past the bound is refused before it is parsed.
      return err(
        parsed.reason === "too_deep" ? storageErrors.validation(TOO_DEEP_MESSAGE) : storageErrors.invalidJson(),
      );
    }
    const v = parsed.value;
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      return err(storageErrors.validation("body must be object"));
    }
    if (unstorableInValue(v)) {
      return err(storageErrors.invalidRequest("body contains a NUL or a broken Unicode character"));
    }
    return ok(v as Record<string, unknown>);
  }

  /** Routes that need no caller identity: the URL itself is the permission. */
  async function anonymousRoute(req: Request, path: string): Promise<Outcome | null> {
    if (req.method === "PUT" && path.startsWith(UPLOAD_SIGN_PREFIX)) {
      const t = target(req, path.slice(UPLOAD_SIGN_PREFIX.length), true);
      return t.ok ?
        await uploadSigned(db, store, config.jwtSecret, config.maxUploadBytes, req, t.value.bucket, t.value.name!) :
        t;
    }
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    if (path.startsWith(PUBLIC_INFO_PREFIX)) {
      // As storage-api: GET only (its public info route has no HEAD twin).
      if (req.method !== "GET") return err(routeNotFound(req));
      const t = target(req, path.slice(PUBLIC_INFO_PREFIX.length), true);
      return t.ok ? await objectInfoPublic(db, t.value.bucket, t.value.name!) : t;
    }
    if (path.startsWith(PUBLIC_RENDER_PREFIX)) {
      const t = target(req, path.slice(PUBLIC_RENDER_PREFIX.length), true);
      return t.ok ? await renderPublic(db, store, renderer, variants, req, t.value.bucket, t.value.name!) : t;
    }
    if (path.startsWith(SIGNED_RENDER_PREFIX)) {
      const t = target(req, path.slice(SIGNED_RENDER_PREFIX.length), true);
      return t.ok ?
        await serveSignedRender(db, store, renderer, variants, config.jwtSecret, req, t.value.bucket, t.value.name!) :
        t;
    }
    if (path.startsWith("/object/public/")) {
      const t = target(req, path.slice("/object/public/".length), true);
      return t.ok ? await downloadPublic(db, store, req, t.value.bucket, t.value.name!) : t;
    }
    if (path.startsWith("/object/sign/")) {
      const t = target(req, path.slice("/object/sign/".length), true);
      return t.ok ? await serveSigned(db, store, config.jwtSecret, req, t.value.bucket, t.value.name!) : t;
    }
    return null;
  }

  async function bucketRoute(req: Request, path: string, claims: Claims): Promise<Outcome | null> {
    const rest = path.slice("/bucket".length).replace(/^\/+/, "");
    if (!rest) {
      if (req.method === "GET") return ok(await listBuckets(db, claims));
      if (req.method !== "POST") return null;
      const body = await jsonBody(req);
      return body.ok ? await createBucket(db, claims, body.value) : body;
    }
    const empty = /^([^/]+)\/empty\/?$/.exec(rest);
    if (empty) {
      if (req.method !== "POST") return null;
      const e = target(req, empty[1], false);
      return e.ok ? await emptyBucket(db, store, claims, e.value.bucket) : e;
    }
    const t = target(req, rest, false);
    if (!t.ok) return t;
    const { bucket } = t.value;
    if (req.method === "GET") return await getBucket(db, claims, bucket);
    if (req.method === "DELETE") return await deleteBucket(db, claims, bucket);
    if (req.method !== "PUT") return null;
    const body = await jsonBody(req);
    return body.ok ? await updateBucket(db, claims, bucket, body.value) : body;
  }

  /** Routes under /object/ whose first segment is a command, not a bucket: move, copy, info, list-v2, upload/sign. */
  async function reservedObjectRoute(req: Request, path: string, claims: Claims): Promise<Outcome | null> {
    if (path === "/object/move" || path === "/object/copy") {
      if (req.method !== "POST") return err(routeNotFound(req));
      const body = await jsonBody(req);
      if (!body.ok) return body;
      return path === "/object/move" ? await moveObject(db, store, claims, body.value) : await copyObject(
        db,
        store,
        claims,
        body.value,
        (req.headers.get("x-upsert") ?? "") === "true",
        req.headers.get("x-metadata"),
      );
    }
    const info = INFO_PREFIXES.find((p) => path.startsWith(p));
    if (info) {
      if (req.method !== "GET") return err(routeNotFound(req));
      const t = target(req, path.slice(info.length), true);
      return t.ok ? await objectInfo(db, claims, t.value.bucket, t.value.name!) : t;
    }
    if (path.startsWith(LIST_V2_PREFIX)) {
      if (req.method !== "POST") return err(routeNotFound(req));
      const t = target(req, path.slice(LIST_V2_PREFIX.length), false);
      if (!t.ok) return t;
      const body = await jsonBody(req);
      return body.ok ? await listObjectsV2(db, claims, t.value.bucket, body.value) : body;
    }
    if (path.startsWith(UPLOAD_SIGN_PREFIX)) {
      if (req.method !== "POST") return err(routeNotFound(req));
      const t = target(req, path.slice(UPLOAD_SIGN_PREFIX.length), true);
      return t.ok ? await signUpload(db, config.jwtSecret, req, claims, t.value.bucket, t.value.name!) : t;
    }
    return null;
  }

  /** POST routes whose JSON body names what to do: sign, sign many, list. */
  async function objectCommandRoute(req: Request, path: string, claims: Claims): Promise<Outcome | null> {
    if (req.method !== "POST") return null;
    const sign = path.startsWith("/object/sign/");
    if (!sign && !path.startsWith("/object/list/")) return null;
    const rest = path.slice(sign ? "/object/sign/".length : "/object/list/".length);
    const many = !rest.replace(/\/+$/, "").includes("/");
    const t = target(req, rest, sign && !many);
    if (!t.ok) return t;
    const body = await jsonBody(req);
    if (!body.ok) return body;
    const { bucket, name } = t.value;
    if (!sign) return await listObjects(db, claims, bucket, body.value);
    return many ?
      await signMany(db, config.jwtSecret, claims, bucket, body.value) :
      await signOne(db, config.jwtSecret, claims, bucket, name!, body.value);
  }

  /** /object/<bucket>/<name> (and /object/authenticated/…): read, write, remove one object. */
  async function objectRoute(req: Request, path: string, claims: Claims): Promise<Outcome | null> {
    const authenticated = path.startsWith("/object/authenticated/");
    const rest = path.slice(authenticated ? "/object/authenticated/".length : "/object/".length);
    if (!authenticated && req.method === "DELETE" && !rest.replace(/\/+$/, "").includes("/")) {
      const t = target(req, rest, false);
      if (!t.ok) return t;
      const body = await jsonBody(req);
      return body.ok ? await removeMany(db, store, claims, t.value.bucket, body.value) : body;
    }
    const t = target(req, rest, true);
    if (!t.ok) return t;
    const { bucket } = t.value;
    const name = t.value.name!;
    if (req.method === "GET" || req.method === "HEAD") {
      return await downloadAuthenticated(db, store, req, claims, bucket, name);
    }
    if (authenticated) return null;
    const write = (mode: WriteMode) => writeObject(db, store, config.maxUploadBytes, req, claims, bucket, name, mode);
    switch (req.method) {
      case "POST":
        return await write((req.headers.get("x-upsert") ?? "").toLowerCase() === "true" ? "upsert" : "create");
      case "PUT":
        return await write("update");
      case "DELETE":
        return await removeOne(db, store, claims, bucket, name);
      default:
        return null;
    }
  }

  /**
   * The two routes storage-api lets through with a token that does not verify (as unauthenticated): a
   * download or info of /object/<bucket>/<name>, then answered only for a public bucket.
   */
  async function unverifiedRoute(req: Request, path: string): Promise<Outcome | null> {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    if (path.startsWith("/object/info/") && !path.startsWith("/object/info/authenticated/")) {
      if (req.method !== "GET") return null;
      const t = target(req, path.slice("/object/info/".length), true);
      return t.ok ? await objectInfoPublic(db, t.value.bucket, t.value.name!) : t;
    }
    const reserved = ["/object/authenticated/", "/object/info/", LIST_V2_PREFIX, UPLOAD_SIGN_PREFIX];
    if (!path.startsWith("/object/") || reserved.some((p) => path.startsWith(p))) return null;
    if (path === "/object/move" || path === "/object/copy") return null;
    const t = target(req, path.slice("/object/".length), true);
    return t.ok ? await downloadPublic(db, store, req, t.value.bucket, t.value.name!) : t;
  }

  async function route(req: Request, path: string): Promise<Outcome | null> {
    if (UNSUPPORTED.some((r) => r.test(path))) return err(storageErrors.notSupported(req.method, path));
    const open = await anonymousRoute(req, path);
    if (open) return open;
    const who = await resolveClaims(req, config);
    if (!who.ok) {
      const unverified = await unverifiedRoute(req, path);
      if (unverified) return unverified;
      // storage-api verifies with jose and refuses with jose's words, as AccessDenied.
      const token = tokenOf(req);
      return err(storageErrors.accessDenied((await tokenRefusal(token, config.jwtSecret)) ?? "Invalid JWT"));
    }
    // A correctly signed token naming a role the database does not have: hosted fails in the database
    // (storage-api's set_config('role', …) raises 22023, answered as a 500 DatabaseError); here it is
    // refused before any SQL as AccessDenied, so no signed token can provoke a server error.
    const role = who.value.claims.role;
    if (!DB_ROLES.has(role)) return err(storageErrors.accessDenied(`role "${role}" does not exist`));
    if (path === "/bucket" || path.startsWith("/bucket/")) return await bucketRoute(req, path, who.value.claims);
    if (path.startsWith(RENDER_PREFIX) && (req.method === "GET" || req.method === "HEAD")) {
      const t = target(req, path.slice(RENDER_PREFIX.length), true);
      return t.ok ?
        await renderAuthenticated(db, store, renderer, variants, req, who.value.claims, t.value.bucket, t.value.name!) :
        t;
    }
    if (!path.startsWith("/object/")) return null;
    const claims = who.value.claims;
    return (
      (await reservedObjectRoute(req, path, claims)) ??
        (await objectCommandRoute(req, path, claims)) ??
        (await objectRoute(req, path, claims))
    );
  }

  const service: Service = async (req, path) => {
    try {
      const out = (await route(req, path)) ?? err(routeNotFound(req));
      return out.ok ? out.value : errorResponse(out.error);
    } catch (e) {
      const mapped = fromDbError(e);
      if (mapped && mapped.httpStatus < 500) return errorResponse(mapped);
      ctx.log("storage request failed", { path, error: String(e), stack: (e as Error)?.stack });
      if (mapped) return errorResponse(mapped);
      return errorResponse(storageErrors.internal());
    }
  };
  service.close = () => {
    renderer.close();
    return Promise.resolve();
  };
  return service;
}
