// Bucket ids and object names as they arrive in URLs and JSON bodies. Both become file paths under
// DATA_DIR, so anything that could step outside a bucket's folder ('..', absolute paths, NUL, control
// characters, backslashes) or exceed file-system limits is refused before it reaches the disk or SQL.
// On top of that, an object name may hold only the characters storage-api allows (its isValidKey): ASCII
// letters, digits, '/' and !-_.*'()&$@=;:+,? and space; anything else is InvalidKey there as here.
import { unstorableText } from "../../functions/_shared/vocabulary/text.ts";
import { err, ok, type Result } from "../result.ts";
import { type StorageError, storageErrors } from "./errors.ts";

export const MAX_KEY_BYTES = 1024;
export const MAX_SEGMENT_BYTES = 255;
export const MAX_BUCKET_ID_CHARS = 100;

const enc = new TextEncoder();
// storage-api's VALID_OBJECT_KEY (src/storage/limits.ts).
const OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]+$/;
// Letters, digits and the punctuation Supabase Storage accepts in bucket names; never '/' or '\'.
const BUCKET_ID = /^[A-Za-z0-9_ .!*'()&$@=;:+,?-]+$/;
// Control characters are exactly what this pattern looks for.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/; // eslint-disable-line no-control-regex

export function checkBucketId(id: string): Result<string, StorageError> {
  if (!id || id.length > MAX_BUCKET_ID_CHARS || !BUCKET_ID.test(id) || id.startsWith(".") || id !== id.trim()) {
    return err(storageErrors.invalidBucketName());
  }
  return ok(id);
}

/**
 * Normalises an object name the way supabase-js does (no leading/trailing '/', no empty folders) and
 * refuses names that are unsafe as a relative path. The result is what goes in storage.objects.name.
 */
export function checkObjectName(raw: string): Result<string, StorageError> {
  const name = raw.replace(/^\/+|\/+$/g, "").replace(/\/{2,}/g, "/");
  // A lone surrogate has no UTF-8 form, so it could never be the stored name (unstorableText).
  if (
    !name ||
    !OBJECT_KEY.test(name) ||
    CONTROL.test(name) ||
    unstorableText(name) ||
    name.includes("\\") ||
    enc.encode(name).byteLength > MAX_KEY_BYTES
  ) {
    return err(storageErrors.invalidKey(printable(raw)));
  }
  for (const segment of name.split("/")) {
    if (segment === "." || segment === ".." || enc.encode(segment).byteLength > MAX_SEGMENT_BYTES) {
      return err(storageErrors.invalidKey(printable(raw)));
    }
  }
  return ok(name);
}

/** Decodes a percent-encoded URL path piece; a malformed escape is an invalid key, not a crash. */
export function decodePathPiece(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function printable(s: string): string {
  // Control characters are exactly what this pattern replaces.
  // deno-lint-ignore no-control-regex
  return s.replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, 200); // eslint-disable-line no-control-regex
}

/** How many object names one request may list (paths to sign, prefixes to remove). */
export const MAX_NAMES_PER_REQUEST = 1000;

/** A body field that must be an array of 1 to MAX_NAMES_PER_REQUEST strings (not yet checked as names). */
export function nameList(body: Record<string, unknown>, field: string): Result<string[], StorageError> {
  const v = body[field];
  if (!Array.isArray(v) || !v.length || v.length > MAX_NAMES_PER_REQUEST || !v.every((p) => typeof p === "string")) {
    return err(listRefusal(field, v));
  }
  return ok(v as string[]);
}

/** The refusal of a name list, in the words of storage-api's body schema (Ajv) or its request limit. */
function listRefusal(field: string, v: unknown): StorageError {
  if (v === undefined) return storageErrors.validation(`body must have required property '${field}'`);
  if (!Array.isArray(v)) return storageErrors.validation(`body/${field} must be array`);
  const notString = v.findIndex((p) => typeof p !== "string");
  if (notString >= 0) return storageErrors.validation(`body/${field}/${notString} must be string`);
  if (!v.length) return storageErrors.validation(`body/${field} must NOT have fewer than 1 items`);
  return field === "paths" ?
    storageErrors.validation(`body/${field} must NOT have more than ${MAX_NAMES_PER_REQUEST} items`) :
    storageErrors.invalidRequest(`Bulk object requests are limited to ${MAX_NAMES_PER_REQUEST} objects per request.`);
}
