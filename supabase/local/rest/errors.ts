// Errors of the REST service in PostgREST's shape ({code, details, hint, message}) with PostgREST's
// HTTP statuses, including the mapping from Postgres SQLSTATE codes, so that supabase-js sees the same
// error objects it would get from a hosted project.
import { json } from "../http.ts";
import type { Result as Outcome } from "../result.ts";

export interface RestError {
  status: number;
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
  headers?: Record<string, string>;
}

/** The local backend's one Result shape, with the REST service's error. */
export type Result<T> = Outcome<T, RestError>;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = <T = never>(error: RestError): Result<T> => ({ ok: false, error });

/** Carries a RestError out of a transaction so that the transaction rolls back. */
export class RestFailure extends Error {
  constructor(readonly error: RestError) {
    super(error.message);
  }
}

export function restError(
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
): RestError {
  return { status, code, message, details, hint };
}

/** A malformed select, filter, order, limit or logic tree (PostgREST's PGRST100). */
export function parseError(what: string, details: string | null = null): RestError {
  return restError(400, "PGRST100", `"failed to parse ${what}"`, details);
}

export function invalidBody(message = "Empty or invalid json", details: string | null = null): RestError {
  return restError(400, "PGRST102", message, details);
}

export function errorResponse(e: RestError): Response {
  return json({ code: e.code, details: e.details, hint: e.hint, message: e.message }, e.status, e.headers ?? {});
}

interface DatabaseErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function isDatabaseError(e: unknown): e is DatabaseErrorLike {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
}

/** PostgREST's table from SQLSTATE to HTTP status; `anonymous` decides 401 versus 403 for 42501. */
export function statusForSqlState(code: string, anonymous: boolean): number {
  switch (code) {
    case "23503":
    case "23505":
      return 409;
    case "25006":
      return 405;
    case "42501":
      return anonymous ? 401 : 403;
    case "42883":
    case "42P01":
      return 404;
    case "42P17":
    case "53400":
      return 500;
    case "57P01":
      return 503;
    case "P0001":
      return 400;
  }
  // PostgREST's own convention: a function raising SQLSTATE 'PTxyz' sets the HTTP status xyz.
  if (/^PT[1-5]\d\d$/.test(code)) return Number(code.slice(2));
  const cls = code.slice(0, 2);
  if (["08", "53"].includes(cls)) return 503;
  if (["09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "P0", "XX"].includes(cls)) {
    return 500;
  }
  if (["0L", "0P", "28"].includes(cls)) return 403;
  return 400;
}

export function fromDatabaseError(e: DatabaseErrorLike, anonymous: boolean): RestError {
  return restError(statusForSqlState(e.code, anonymous), e.code, e.message, e.detail || null, e.hint || null);
}

/** The closest name within a small edit distance, for PostgREST-style "Perhaps you meant" hints. */
export function closest(name: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
