// Response shaping of the REST service as PostgREST does it: statuses (200, 201, 204, 206, 406, 416),
// Content-Range on every read, the single-object media type, Preference-Applied, and no body for HEAD.
import type { Claims } from "../db.ts";
import { errorResponse, type RestError, restError, RestFailure } from "./errors.ts";
import type { MediaType, Preferences } from "./negotiate.ts";
import type { Profile } from "./schemas.ts";

/** One request, once its caller, media type and preferences are known. */
export interface RestRequest {
  req: Request;
  url: URL;
  claims: Claims;
  media: MediaType;
  prefer: Preferences;
  /** The schema the request reads or writes. */
  profile: Profile;
}

/** The single row every statement answers: the JSON array, its first element and the row counts. */
export type ResultRow = {
  body: string | null;
  first: string | null;
  n: number | string;
  total?: number | string;
  /** Rows an upsert with resolution=merge-duplicates inserted (rather than updated). */
  inserted?: number | string | null;
};

/** The answer to a read: Content-Range, 206 for a partial page of a counted set, 416 past the end. */
export function rowsResponse(r: RestRequest, row: ResultRow, offset: number): Response {
  const n = Number(row.n);
  const total = r.prefer.count !== null ? Number(row.total ?? n) : null;
  const range = contentRange(offset, n, total);
  let status = 200;
  if (total !== null) {
    if (offset > total) {
      return errorResponse({
        ...restError(
          416,
          "PGRST103",
          "Requested range not satisfiable",
          `An offset of ${offset} was requested, but there are only ${total} rows.`,
        ),
        headers: { "content-range": `*/${total}` },
      });
    }
    if (n < total) status = 206;
  }
  if (r.media.kind === "object") {
    if (n !== 1) return errorResponse(singleObjectError(n));
    return respond(r, status, row.first ?? "null", { "content-range": range });
  }
  return respond(r, status, row.body ?? "[]", { "content-range": range });
}

/** Refuses (and so rolls back) a write the single-object Accept or max-affected forbids. */
export function checkWrite(r: RestRequest, row: ResultRow): void {
  const n = Number(row.n);
  if (r.media.kind === "object" && r.prefer.return === "representation" && n !== 1) {
    throw new RestFailure(singleObjectError(n));
  }
  checkMaxAffected(r, n);
}

/** PGRST124 when handling=strict and more rows were affected than max-affected allows (rolls back). */
export function checkMaxAffected(r: RestRequest, n: number): void {
  if (r.prefer.handling === "strict" && r.prefer.maxAffected !== null && n > r.prefer.maxAffected) {
    throw new RestFailure(
      restError(
        400,
        "PGRST124",
        "Query result exceeds max-affected preference constraint",
        `The query affects ${n} rows`,
      ),
    );
  }
}

export function writeResponse(r: RestRequest, row: ResultRow): Response {
  const n = Number(row.n);
  const counted = r.prefer.count !== null ? String(n) : "*";
  const isInsert = r.req.method === "POST";
  const range = isInsert ? `*/${counted}` : n > 0 ? `0-${n - 1}/${counted}` : `*/${counted}`;
  const headers = { "content-range": range };
  // As PostgREST (Response.hs): an upsert that merged duplicates and inserted nothing is 200, not 201.
  const created = isInsert &&
    !(r.prefer.resolution === "merge-duplicates" && row.inserted !== undefined && Number(row.inserted ?? 0) <= 0);
  if (r.prefer.return !== "representation") return respond(r, created ? 201 : isInsert ? 200 : 204, null, headers);
  const body = r.media.kind === "object" ? (row.first ?? "null") : (row.body ?? "[]");
  return respond(r, created ? 201 : 200, body, headers);
}

export function respond(r: RestRequest, status: number, body: string | null, extra: Record<string, string>): Response {
  const headers = new Headers(extra);
  if (body !== null) headers.set("content-type", r.media.contentType);
  // PostgREST names the schema of an answer when a profile header chose it, or several are exposed.
  if (r.profile.negotiated) headers.set("content-profile", r.profile.schema);
  const applied = appliedPreferences(r);
  if (applied) headers.set("preference-applied", applied);
  const send = r.req.method === "HEAD" || status === 204 ? null : body;
  return new Response(send, { status, headers });
}

export function singleObjectError(n: number): RestError {
  return restError(
    406,
    "PGRST116",
    "Cannot coerce the result to a single JSON object",
    `The result contains ${n} rows`,
  );
}

function contentRange(offset: number, n: number, total: number | null): string {
  const of = total === null ? "*" : String(total);
  if (n > 0 && total !== 0) return `${offset}-${offset + n - 1}/${of}`;
  return `*/${of}`;
}

function appliedPreferences(r: RestRequest): string {
  const p = r.prefer;
  const out: string[] = [];
  if (p.return && r.req.method !== "GET" && r.req.method !== "HEAD") out.push(`return=${p.return}`);
  if (p.count) out.push(`count=${p.count}`);
  if (p.resolution && r.req.method === "POST") out.push(`resolution=${p.resolution}`);
  if (p.missing && r.req.method === "POST") out.push(`missing=${p.missing}`);
  if (p.handling) out.push(`handling=${p.handling}`);
  if (p.handling === "strict" && p.maxAffected !== null) out.push(`max-affected=${p.maxAffected}`);
  return out.join(", ");
}
