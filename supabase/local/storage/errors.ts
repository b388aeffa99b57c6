// Storage errors as storage-api (github:supabase/storage) renders them, in its three shapes:
// - its own errors: HTTP 400 (500 for a server fault) with the error's status as a string `statusCode`,
//   its `code`, `error` = the error's legacy label where it sets one and else the code, and `message`;
// - request validation and body parsing (Fastify's): the HTTP status is the error's own (400, or 413 for a
//   JSON body over the limit), `error` is the JavaScript error's name ("Error", "FastifyError");
// - a route it does not have: HTTP 404 with code InvalidRequest.
// supabase-js turns these into StorageApiError {message, status, statusCode}; the app reads only those.
import { json } from "../http.ts";

export interface StorageError {
  readonly httpStatus: number;
  readonly statusCode: string;
  readonly code: string;
  readonly error: string;
  readonly message: string;
}

/** One of storage-api's own errors (its StorageBackendError): 400 on the wire unless it is a 500. */
const backend = (status: number, code: string, message: string, label = code): StorageError => ({
  httpStatus: status === 500 ? 500 : 400,
  statusCode: String(status),
  code,
  error: label,
  message,
});

/** A Fastify error (schema validation, body parsing): its own HTTP status, its name as `error`. */
const fastify = (status: number, name: string, code: string, message: string): StorageError => ({
  httpStatus: status,
  statusCode: String(status),
  code,
  error: name,
  message,
});

const RLS_MESSAGE = "new row violates row-level security policy";

export const storageErrors = {
  noSuchKey: () => backend(404, "NoSuchKey", "Object not found", "not_found"),
  /** The row was found but its bytes were not: storage-api's renderer answers this for a missing blob. */
  blobMissing: (): StorageError => ({
    httpStatus: 400,
    statusCode: "404",
    code: "NoSuchKey",
    error: "Not found",
    message: "The resource was not found",
  }),
  noSuchBucket: () => backend(404, "NoSuchBucket", "Bucket not found", "Bucket not found"),
  duplicate: () => backend(409, "ResourceAlreadyExists", "The resource already exists", "Duplicate"),
  bucketAlreadyExists: () => backend(409, "BucketAlreadyExists", "The resource already exists", "Duplicate"),
  /** A refusal by RLS or a grant; also a request token that does not verify (then with jose's message). */
  accessDenied: (message = RLS_MESSAGE) => backend(403, "AccessDenied", message, "Unauthorized"),
  /** A signed URL's token that does not verify (jose's message). */
  invalidJwt: (message: string) => backend(400, "InvalidJWT", message),
  invalidKey: (key: string) => backend(400, "InvalidKey", `Invalid key: ${key}`),
  invalidBucketName: () => backend(400, "InvalidBucketName", "Bucket name invalid", "Invalid Input"),
  entityTooLarge: (entity = "object") =>
    backend(413, "EntityTooLarge", `The ${entity} exceeded the maximum allowed size`, "Payload too large"),
  invalidMimeType: (mime: string) =>
    backend(415, "InvalidMimeType", `mime type ${mime} is not supported`, "invalid_mime_type"),
  invalidRequest: (message: string) => backend(400, "InvalidRequest", message),
  invalidSignature: (message = "Invalid signature") => backend(400, "InvalidSignature", message),
  bucketNotEmpty: () => backend(409, "ResourceNotEmpty", "The bucket you tried to delete is not empty"),
  unableToEmptyBucket: () =>
    backend(409, "InvalidRequest", "Unable to empty the bucket because it contains too many objects"),
  /**
   * Local only: a name that is a file here and a folder there (a/b and a/b/c) cannot both be kept on a
   * file system; hosted's object store keeps both. Stricter, so named plainly.
   */
  keyCollision: (key: string) =>
    backend(409, "KeyAlreadyExists", `Key collides with an existing object or folder: ${key}`, "Duplicate"),
  invalidParameter: (name: string, message = `Invalid Parameter ${name}`) => backend(400, "InvalidParameter", message),
  /** A request that fails the route's JSON schema: the message is Ajv's, as Fastify joins it. */
  validation: (message: string) => fastify(400, "Error", "InvalidRequest", message),
  invalidJson: () =>
    fastify(
      400,
      "FastifyError",
      "InvalidRequest",
      "Body is not valid JSON but content-type is set to 'application/json'",
    ),
  emptyJson: () =>
    fastify(
      400,
      "FastifyError",
      "InvalidRequest",
      "Body cannot be empty when content-type is set to 'application/json'",
    ),
  /** A JSON body over the limit: Fastify's own 413 (an upload over a limit is entityTooLarge, a 400). */
  bodyTooLarge: () => fastify(413, "FastifyError", "EntityTooLarge", "Request body is too large"),
  routeNotFound: (method: string, url: string): StorageError => ({
    httpStatus: 404,
    statusCode: "404",
    code: "InvalidRequest",
    error: "Not Found",
    message: `Route ${method}:${url} not found`,
  }),
  /** A route hosted Supabase Storage serves and this backend does not: named, never mistaken for a bucket. */
  notSupported: (method: string, path: string): StorageError => ({
    httpStatus: 404,
    statusCode: "404",
    code: "NotSupported",
    error: "Not Supported",
    message: `${method} /storage/v1${path} is not supported by the local backend (hosted Supabase Storage serves it)`,
  }),
  /** An error no handler expected: storage-api's last resort. */
  internal: (): StorageError => ({
    httpStatus: 500,
    statusCode: "500",
    code: "InternalError",
    error: "Internal",
    message: "Internal Server Error",
  }),
  databaseError: (pgCode: string) => backend(500, "DatabaseError", `database error, code: ${pgCode}`),
  /** storage-api answers a statement timeout with its own status, 544. */
  databaseTimeout: (): StorageError => ({
    httpStatus: 544,
    statusCode: "544",
    code: "DatabaseTimeout",
    error: "DatabaseTimeout",
    message: "The connection to the database timed out",
  }),
  /** The embedded database is being re-opened after an internal error (db.ts): the caller may retry. */
  databaseUnavailable: (): StorageError => ({
    httpStatus: 503,
    statusCode: "503",
    code: "DatabaseError",
    error: "DatabaseError",
    message: "The database is restarting; try again shortly",
  }),
} as const;

/** The HTTP answer for a StorageError; only storage.ts calls it, at the service's edge. */
export function errorResponse(e: StorageError): Response {
  return json({ statusCode: e.statusCode, code: e.code, error: e.error, message: e.message }, e.httpStatus);
}

/**
 * Maps a database error raised while acting as the caller as storage-api's DBError.fromDBError does.
 * Returns null for errors that are not the database's answer (the boundary logs them and answers 500).
 */
export function fromDbError(e: unknown): StorageError | null {
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) return null;
  const message = String((e as Error).message ?? "");
  const detail = String((e as { detail?: unknown }).detail ?? "");
  switch (code) {
    case "42501": // insufficient_privilege: RLS refusal or a missing grant
      return storageErrors.accessDenied(message.includes("row-level security") ? RLS_MESSAGE : message);
    case "23505": // unique_violation on (bucket_id, name) or buckets.id
      return storageErrors.duplicate();
    case "23503": // foreign_key_violation
      return detail.includes("is still referenced from table") ?
        backend(
          409,
          "ResourceReferenced",
          "The resource could not be updated or removed due to a foreign key constraint",
        ) :
        backend(404, "InvalidRequest", "The related resource does not exist");
    case "55P03": // lock_not_available
      return backend(423, "ResourceLocked", "The resource is locked");
    case "57014": // query_canceled: the role's statement timeout
      return storageErrors.databaseTimeout();
    case "25006": // read_only_sql_transaction
      return backend(503, "DatabaseReadOnly", "The database is currently in read-only mode. Please try again later.");
    case "25P02": // in_failed_sql_transaction
      return backend(
        500,
        "DatabaseTransactionAborted",
        "The database transaction has been aborted. Roll back the transaction before retrying.",
      );
    case "42P17": // invalid_object_definition
      return backend(503, "DatabaseInvalidObjectDefinition", "The database schema is invalid or incompatible.");
    case "42703": // undefined_column
    case "42P01": // undefined_table
      return backend(
        503,
        "DatabaseSchemaMismatch",
        "The database schema is out of sync. Please run migrations or contact support.",
      );
    case "22P02": // invalid_text_representation (e.g. a non-uuid owner)
      return storageErrors.invalidParameter("value", message || "Invalid value format or type conversion failed");
    case "57P01": // the embedded database is being re-opened (db.ts DatabaseUnavailable)
      return storageErrors.databaseUnavailable();
    default:
      return storageErrors.databaseError(code);
  }
}
