// The Storage API at /storage/v1, as supabase-js calls it: objects (upload, update, download, public
// and signed URLs, remove, list) and buckets. Bytes live under DATA_DIR/storage; metadata and access
// live in storage.objects, whose RLS policies (from the migrations) decide every user-facing read and
// write. This module only routes; each operation lives in storage/.
import { type Claims } from "./db.ts";
import { type Ctx, readBody, resolveClaims, type Service } from "./http.ts";
import { createBlobStore } from "./storage/blob-store.ts";
import { createBucket, deleteBucket, getBucket, listBuckets, updateBucket } from "./storage/buckets.ts";
import { errorResponse, fromDbError, isStorageError, type StorageError, storageErrors } from "./storage/errors.ts";
import { listObjects } from "./storage/list.ts";
import { checkBucketId, checkObjectName, decodePathPiece } from "./storage/object-key.ts";
import { downloadAuthenticated, downloadPublic } from "./storage/read.ts";
import { removeMany, removeOne } from "./storage/remove.ts";
import { serveSigned, signMany, signOne } from "./storage/signed-urls.ts";
import { writeObject } from "./storage/upload.ts";

/** JSON bodies of the object and bucket routes are small; uploads have their own limit. */
const MAX_JSON_BODY_BYTES = 256 * 1024;

type Outcome = Response | StorageError;

interface Target {
  bucket: string;
  name: string | null;
}

export function createStorage(ctx: Ctx): Service {
  const { db, config } = ctx;
  const store = createBlobStore(config.dataDir);

  /** Splits "<bucket>/<name...>" (still percent-encoded) into a checked bucket id and object name. */
  function target(rest: string, needName: boolean): Target | StorageError {
    const slash = rest.indexOf("/");
    const rawBucket = slash < 0 ? rest : rest.slice(0, slash);
    const rawName = slash < 0 ? "" : rest.slice(slash + 1);
    const bucket = decodePathPiece(rawBucket);
    if (bucket === null) return storageErrors.invalidBucketName(rawBucket);
    const checkedBucket = checkBucketId(bucket);
    if (typeof checkedBucket !== "string") return checkedBucket;
    if (!needName) {
      return rawName.replace(/\/+$/, "")
        ? storageErrors.invalidRequest("unexpected object name")
        : { bucket, name: null };
    }
    const decoded = decodePathPiece(rawName);
    if (decoded === null) return storageErrors.invalidKey(rawName);
    const name = checkObjectName(decoded);
    return typeof name === "string" ? { bucket, name } : name;
  }

  async function jsonBody(req: Request): Promise<Record<string, unknown> | StorageError> {
    try {
      const text = new TextDecoder().decode(await readBody(req, MAX_JSON_BODY_BYTES));
      const v = text ? JSON.parse(text) : {};
      return typeof v === "object" && v !== null && !Array.isArray(v)
        ? v as Record<string, unknown>
        : storageErrors.invalidRequest("body must be a JSON object");
    } catch {
      return storageErrors.invalidRequest("body must be a JSON object");
    }
  }

  async function route(req: Request, path: string): Promise<Outcome> {
    const method = req.method === "HEAD" ? "GET" : req.method;
    const notFound = () => storageErrors.routeNotFound(req.method, path);

    // Routes that need no caller identity: the URL itself is the permission.
    for (
      const [prefix, serve] of [
        ["/object/public/", (t: Target) => downloadPublic(db, store, req, t.bucket, t.name!)],
        ["/object/sign/", (t: Target) => serveSigned(db, store, config.jwtSecret, req, t.bucket, t.name!)],
      ] as const
    ) {
      if (method === "GET" && path.startsWith(prefix)) {
        const t = target(path.slice(prefix.length), true);
        return isStorageError(t) ? t : await serve(t);
      }
    }

    const who = await resolveClaims(req, config);
    if (!who.ok) return storageErrors.invalidJwt(who.message);
    const claims: Claims = who.claims;

    if (path === "/bucket" || path === "/bucket/") {
      if (method === "GET") return await listBuckets(db, claims);
      if (method === "POST") {
        const body = await jsonBody(req);
        return isStorageError(body) ? body : await createBucket(db, claims, body);
      }
      return notFound();
    }
    if (path.startsWith("/bucket/")) {
      const t = target(path.slice("/bucket/".length), false);
      if (isStorageError(t)) return t;
      if (method === "GET") return await getBucket(db, claims, t.bucket);
      if (method === "DELETE") return await deleteBucket(db, claims, t.bucket);
      if (method === "PUT") {
        const body = await jsonBody(req);
        return isStorageError(body) ? body : await updateBucket(db, claims, t.bucket, body);
      }
      return notFound();
    }

    if (path.startsWith("/object/sign/") && method === "POST") {
      const rest = path.slice("/object/sign/".length);
      const many = !rest.replace(/\/+$/, "").includes("/");
      const t = target(rest, !many);
      if (isStorageError(t)) return t;
      const body = await jsonBody(req);
      if (isStorageError(body)) return body;
      return many
        ? await signMany(db, config.jwtSecret, claims, t.bucket, body)
        : await signOne(db, config.jwtSecret, claims, t.bucket, t.name!, body);
    }
    if (path.startsWith("/object/list/") && method === "POST") {
      const t = target(path.slice("/object/list/".length), false);
      if (isStorageError(t)) return t;
      const body = await jsonBody(req);
      return isStorageError(body) ? body : await listObjects(db, claims, t.bucket, body);
    }
    if (path.startsWith("/object/authenticated/") && method === "GET") {
      const t = target(path.slice("/object/authenticated/".length), true);
      return isStorageError(t) ? t : await downloadAuthenticated(db, store, req, claims, t.bucket, t.name!);
    }
    if (path.startsWith("/object/")) {
      const rest = path.slice("/object/".length);
      if (method === "DELETE" && !rest.replace(/\/+$/, "").includes("/")) {
        const t = target(rest, false);
        if (isStorageError(t)) return t;
        const body = await jsonBody(req);
        return isStorageError(body) ? body : await removeMany(db, store, claims, t.bucket, body);
      }
      const t = target(rest, true);
      if (isStorageError(t)) return t;
      const name = t.name!;
      switch (method) {
        case "GET":
          return await downloadAuthenticated(db, store, req, claims, t.bucket, name);
        case "POST": {
          const upsert = (req.headers.get("x-upsert") ?? "").toLowerCase() === "true";
          return await writeObject(
            db,
            store,
            config.maxUploadBytes,
            req,
            claims,
            t.bucket,
            name,
            upsert ? "upsert" : "create",
          );
        }
        case "PUT":
          return await writeObject(db, store, config.maxUploadBytes, req, claims, t.bucket, name, "update");
        case "DELETE":
          return await removeOne(db, store, claims, t.bucket, name);
      }
    }
    return notFound();
  }

  return async (req, path) => {
    try {
      const out = await route(req, path);
      return isStorageError(out) ? errorResponse(out) : out;
    } catch (e) {
      const mapped = fromDbError(e);
      if (mapped) return errorResponse(mapped);
      ctx.log("storage request failed", { path, error: String(e), stack: (e as Error)?.stack });
      return errorResponse(storageErrors.internal());
    }
  };
}
