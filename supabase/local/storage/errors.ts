// Storage errors as Supabase Storage renders them: HTTP 400 (except where noted) with the real status
// in a string `statusCode`, a stable `code`, an `error` label and a `message`. supabase-js turns these
// into StorageApiError {message, status, statusCode, code}; the app matches on `statusCode`/`code`.
import { json } from "../http.ts";

export interface StorageError {
  readonly httpStatus: number;
  readonly statusCode: string;
  readonly code: string;
  readonly error: string;
  readonly message: string;
}

const make = (httpStatus: number, statusCode: string, code: string, error: string, message: string): StorageError => ({
  httpStatus,
  statusCode,
  code,
  error,
  message,
});

export const storageErrors = {
  noSuchKey: () => make(400, "404", "NoSuchKey", "not_found", "Object not found"),
  noSuchBucket: () => make(400, "404", "NoSuchBucket", "Bucket not found", "Bucket not found"),
  duplicate: () => make(400, "409", "ResourceAlreadyExists", "Duplicate", "The resource already exists"),
  accessDenied: () => make(400, "403", "AccessDenied", "Unauthorized", "new row violates row-level security policy"),
  invalidJwt: (message: string) => make(400, "403", "InvalidJWT", "Unauthorized", message),
  invalidKey: (key: string) => make(400, "400", "InvalidKey", "Invalid Input", `Invalid key: ${key}`),
  invalidBucketName: (name: string) =>
    make(400, "400", "InvalidBucketName", "Invalid Input", `Bucket name invalid: ${name}`),
  entityTooLarge: (entity = "object") =>
    make(413, "413", "EntityTooLarge", "Payload too large", `The ${entity} exceeded the maximum allowed size`),
  invalidMimeType: (mime: string) =>
    make(400, "415", "InvalidMimeType", "invalid_mime_type", `mime type ${mime} is not supported`),
  invalidRequest: (message: string) => make(400, "400", "InvalidRequest", "Bad Request", message),
  invalidSignature: () => make(400, "400", "InvalidSignature", "InvalidSignature", "invalid signature"),
  invalidSignatureFor: (message: string) => make(400, "400", "InvalidSignature", "InvalidSignature", message),
  signatureExpired: () => make(400, "400", "InvalidJWT", "InvalidJWT", "jwt expired"),
  bucketNotEmpty: () =>
    make(400, "409", "InvalidRequest", "Bucket not empty", "The bucket you tried to delete is not empty"),
  unableToEmptyBucket: () =>
    make(
      400,
      "409",
      "InvalidRequest",
      "InvalidRequest",
      "Unable to empty the bucket because it contains too many objects",
    ),
  keyCollision: (key: string) =>
    make(400, "409", "KeyAlreadyExists", "Duplicate", `Key collides with an existing object or folder: ${key}`),
  routeNotFound: (method: string, path: string) =>
    make(404, "404", "NotFound", "Not Found", `Route ${method}:/storage/v1${path} not found`),
  /** A route hosted Supabase Storage serves and this backend does not: named, never mistaken for a bucket. */
  notSupported: (method: string, path: string) =>
    make(
      404,
      "404",
      "NotSupported",
      "Not Supported",
      `${method} /storage/v1${path} is not supported by the local backend (hosted Supabase Storage serves it)`,
    ),
  invalidParameter: (name: string) => make(400, "400", "InvalidParameter", "Bad Request", `Invalid Parameter ${name}`),
  internal: () => make(500, "500", "InternalError", "Internal Server Error", "Internal Server Error"),
  /** The embedded database is being re-opened after an internal error (db.ts): the caller may retry. */
  databaseUnavailable: () =>
    make(503, "503", "DatabaseError", "Service Unavailable", "The database is restarting; try again shortly"),
  unknownRole: (role: string) => make(400, "403", "InvalidJWT", "Unauthorized", `role "${role}" does not exist`),
} as const;

/** The HTTP answer for a StorageError; only storage.ts calls it, at the service's edge. */
export function errorResponse(e: StorageError): Response {
  return json({ statusCode: e.statusCode, code: e.code, error: e.error, message: e.message }, e.httpStatus);
}

/**
 * Maps a database error raised while acting as the caller to the Storage error a client expects.
 * Returns null for errors that are not the caller's fault (the boundary logs them and answers 500).
 */
export function fromDbError(e: unknown): StorageError | null {
  const code = (e as { code?: unknown })?.code;
  switch (code) {
    case "42501": // insufficient_privilege: RLS refusal or a missing grant
      return storageErrors.accessDenied();
    case "23505": // unique_violation on (bucket_id, name) or buckets.id
      return storageErrors.duplicate();
    case "23503": // foreign_key_violation: the bucket does not exist
      return storageErrors.noSuchBucket();
    case "22P02": // invalid_text_representation (e.g. a non-uuid owner)
    case "23514": // check_violation
      return storageErrors.invalidRequest(String((e as Error).message ?? "invalid input"));
    case "57P01": // the embedded database is being re-opened (db.ts DatabaseUnavailable)
      return storageErrors.databaseUnavailable();
    default:
      return null;
  }
}
