// PostgREST's surface at /rest/v1, as supabase-js uses it: reads with filters, order, paging and
// counts; inserts, upserts, updates and deletes; rpc calls. Each request is checked (JWT, schema,
// media type, names against the catalogue) before any SQL exists, then runs as the JWT's role inside
// one transaction so that row-level security decides what it sees and changes.
import { asRole, type Claims, type Sql } from "../db.ts";
import { BodyTooLarge, type Ctx, readBody, resolveClaims, type Service } from "../http.ts";
import { buildDelete, buildInsert, buildRead, buildUpdate, missingColumn, type Statement, tableFrom } from "./build-sql.ts";
import { createCatalogueCache, type Table } from "./catalogue.ts";
import {
  closest, errorResponse, fromDatabaseError, invalidBody, isDatabaseError, type RestError, restError, RestFailure,
  type Result,
} from "./errors.ts";
import { checkProfile, isJsonBody, type MediaType, negotiate, parsePrefer, type Preferences } from "./negotiate.ts";
import { type ParsedQuery, parseQuery } from "./parse-query.ts";
import { buildCall, chooseFunction } from "./rpc.ts";
import { openApi } from "./open-api.ts";

const ROLES = new Set(["anon", "authenticated", "service_role"]);
const METHODS = new Set(["GET", "HEAD", "POST", "PATCH", "DELETE"]);
/** Hosted Supabase answers at most this many rows per request unless configured otherwise. */
const DEFAULT_MAX_ROWS = 1000;

type Row = { body: string | null; first: string | null; n: number | string; total?: number | string };

interface Request_ {
  req: Request;
  url: URL;
  claims: Claims;
  media: MediaType;
  prefer: Preferences;
}

export function createRest(ctx: Ctx): Service {
  const catalogue = createCatalogueCache(ctx.db);
  const envMax = Number(Deno.env.get("REST_MAX_ROWS") ?? "");
  const maxRows = Number.isInteger(envMax) && envMax > 0 ? envMax : DEFAULT_MAX_ROWS;

  const run = <T>(claims: Claims, readOnly: boolean, fn: (tx: Sql) => Promise<T>) =>
    asRole(ctx.db, claims, async (tx) => {
      // GET and stable functions run read-only, as in PostgREST: a GET never changes data.
      if (readOnly) await tx.query("set transaction read only");
      return await fn(tx);
    });

  const query1 = async (tx: Sql, s: Statement) => (await tx.query<Row>(s.text, s.params)).rows[0];

  async function serve(req: Request, path: string): Promise<Response> {
    if (!METHODS.has(req.method)) return errorResponse(restError(405, "PGRST117", `Unsupported HTTP method: ${req.method}`));
    const route = parsePath(path);
    if (!route.ok) return errorResponse(route.error);
    const profile = checkProfile(req);
    if (!profile.ok) return errorResponse(profile.error);
    const auth = await resolveClaims(req, ctx.config);
    if (!auth.ok) {
      return errorResponse({
        ...restError(401, "PGRST301", auth.message),
        headers: { "WWW-Authenticate": `Bearer error="invalid_token", error_description="${auth.message}"` },
      });
    }
    if (!ROLES.has(auth.claims.role)) {
      return errorResponse(restError(400, "22023", `role "${auth.claims.role}" does not exist`));
    }
    const media = negotiate(req.headers.get("accept"));
    if (!media.ok) return errorResponse(media.error);
    const prefer = parsePrefer(req.headers.get("prefer"));
    if (!prefer.ok) return errorResponse(prefer.error);
    const r: Request_ = { req, url: new URL(req.url), claims: auth.claims, media: media.value, prefer: prefer.value };
    try {
      if (route.value.kind === "root") return await root(r);
      if (route.value.kind === "rpc") return await rpc(r, route.value.name);
      return await table(r, route.value.name);
    } catch (e) {
      if (e instanceof RestFailure) return errorResponse(e.error);
      if (e instanceof BodyTooLarge) {
        return errorResponse(restError(413, "PGRST102", `Request body is larger than the ${ctx.config.maxBodyBytes}-byte limit`));
      }
      if (isDatabaseError(e)) return errorResponse(fromDatabaseError(e, r.claims.role === "anon"));
      throw e;
    }
  }

  async function root(r: Request_): Promise<Response> {
    if (r.req.method !== "GET" && r.req.method !== "HEAD") {
      return errorResponse(restError(405, "PGRST117", `Unsupported HTTP method: ${r.req.method}`));
    }
    const c = await catalogue.current();
    const headers = { "content-type": "application/openapi+json; charset=utf-8" };
    return new Response(r.req.method === "HEAD" ? null : JSON.stringify(openApi(c, ctx.config.publicUrl)), { headers });
  }

  async function findTable(name: string): Promise<Table> {
    const { table, catalogue: c } = await catalogue.table(name);
    if (table) return table;
    const near = closest(name, c.tables.keys());
    throw new RestFailure(restError(
      404,
      "PGRST205",
      `Could not find the table 'public.${name}' in the schema cache`,
      null,
      near ? `Perhaps you meant the table 'public.${near}'` : null,
    ));
  }

  async function table(r: Request_, name: string): Promise<Response> {
    const t = await findTable(name);
    const q = unwrap(parseQuery(r.url.searchParams));
    const method = r.req.method;
    const count = r.prefer.count !== null;
    if (method === "GET" || method === "HEAD") {
      const s = unwrap(buildRead(t, tableFrom(t), q, { count, stripNulls: r.media.stripNulls, maxRows }));
      const row = await run(r.claims, true, (tx) => query1(tx, s));
      return rowsResponse(r, row, q.offset ?? 0);
    }
    if ((method === "PATCH" || method === "DELETE") && (q.limit !== undefined || q.offset !== undefined)) {
      throw new RestFailure(restError(400, "PGRST100", "limit and offset are not supported on updates and deletes"));
    }
    const opts = { representation: r.prefer.return === "representation", stripNulls: r.media.stripNulls };
    let s: Statement;
    if (method === "POST") {
      const raw = await jsonBody(r.req, ctx.config.maxBodyBytes);
      const body = rowsOf(t, raw, q);
      const conflict = r.prefer.resolution
        ? { mode: r.prefer.resolution === "merge-duplicates" ? "merge" as const : "ignore" as const, columns: q.onConflict ?? null }
        : undefined;
      s = unwrap(buildInsert(t, q, body, { ...opts, missingDefault: r.prefer.missing === "default", conflict }));
    } else if (method === "PATCH") {
      const raw = await jsonBody(r.req, ctx.config.maxBodyBytes);
      const value = raw.value;
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        throw new RestFailure(invalidBody("Expected a JSON object of the columns to update"));
      }
      const keys = q.columns ?? Object.keys(value);
      if (!keys.length) return writeResponse(r, { body: "[]", first: null, n: 0 });
      s = unwrap(buildUpdate(t, q, raw.text, keys, opts));
    } else {
      s = unwrap(buildDelete(t, q, opts));
    }
    const row = await run(r.claims, false, async (tx) => {
      const result = await query1(tx, s);
      checkWrite(r, result);
      return result;
    });
    return writeResponse(r, row);
  }

  async function rpc(r: Request_, name: string): Promise<Response> {
    const method = r.req.method;
    if (method !== "GET" && method !== "HEAD" && method !== "POST") {
      return errorResponse(restError(405, "PGRST101", "Only GET, HEAD or POST requests are allowed for RPC"));
    }
    const { functions } = await catalogue.functions(name);
    let q: ParsedQuery;
    let argsJson: string;
    let argNames: string[];
    if (method === "POST") {
      q = unwrap(parseQuery(r.url.searchParams));
      const raw = await jsonBody(r.req, ctx.config.maxBodyBytes, "{}");
      const v = raw.value;
      const isObject = v !== null && typeof v === "object" && !Array.isArray(v);
      argNames = isObject ? Object.keys(v as object) : [];
      argsJson = raw.text;
      if (!isObject && !functions.some((f) => f.inputs.length === 1 && f.inputs[0].name === "")) {
        throw new RestFailure(invalidBody("Expected a JSON object of named arguments"));
      }
    } else {
      const names = new Set(functions.flatMap((f) => f.inputs.map((a) => a.name)));
      q = unwrap(parseQuery(r.url.searchParams, (k) => names.has(k)));
      argNames = Object.keys(q.args);
      argsJson = JSON.stringify(q.args);
    }
    const choice = unwrap(chooseFunction(name, functions, argNames));
    const count = r.prefer.count !== null;
    const s = unwrap(buildCall(choice, argsJson, argNames, q, { count, stripNulls: r.media.stripNulls, maxRows: null }));
    const readOnly = method !== "POST" || choice.fn.volatility !== "v";
    const row = await run(r.claims, readOnly, (tx) => query1(tx, s));
    if (s.kind === "void") return new Response(null, { status: 204 });
    if (s.kind === "rows") return rowsResponse(r, row, q.offset ?? 0);
    const body = s.kind === "value" ? row.body : row.first;
    return respond(r, 200, body ?? "null", { "content-range": "0-0/*" });
  }

  /** The answer to a read: Content-Range, 206 for a partial page of a counted set, 416 past the end. */
  function rowsResponse(r: Request_, row: Row, offset: number): Response {
    const n = Number(row.n);
    const total = r.prefer.count !== null ? Number(row.total ?? n) : null;
    const range = contentRange(offset, n, total);
    let status = 200;
    if (total !== null) {
      if (offset > total) {
        return errorResponse({
          ...restError(416, "PGRST103", "Requested range not satisfiable", `An offset of ${offset} was requested, but there are only ${total} rows.`),
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
  function checkWrite(r: Request_, row: Row): void {
    const n = Number(row.n);
    if (r.media.kind === "object" && r.prefer.return === "representation" && n !== 1) {
      throw new RestFailure(singleObjectError(n));
    }
    if (r.prefer.handling === "strict" && r.prefer.maxAffected !== null && n > r.prefer.maxAffected) {
      throw new RestFailure(restError(400, "PGRST124", "Query result exceeds max-affected preference constraint", `The query affects ${n} rows`));
    }
  }

  function writeResponse(r: Request_, row: Row): Response {
    const n = Number(row.n);
    const counted = r.prefer.count !== null ? String(n) : "*";
    const isInsert = r.req.method === "POST";
    const range = isInsert ? `*/${counted}` : n > 0 ? `0-${n - 1}/${counted}` : `*/${counted}`;
    const headers = { "content-range": range };
    if (r.prefer.return !== "representation") return respond(r, isInsert ? 201 : 204, null, headers);
    const body = r.media.kind === "object" ? row.first ?? "null" : row.body ?? "[]";
    return respond(r, isInsert ? 201 : 200, body, headers);
  }

  function respond(r: Request_, status: number, body: string | null, extra: Record<string, string>): Response {
    const headers = new Headers(extra);
    if (body !== null) headers.set("content-type", r.media.contentType);
    const applied = appliedPreferences(r);
    if (applied) headers.set("preference-applied", applied);
    const send = r.req.method === "HEAD" || status === 204 ? null : body;
    return new Response(send, { status, headers });
  }

  return async (req, path) => {
    try {
      return await serve(req, path);
    } catch (e) {
      ctx.log("rest: unexpected error", { error: String(e), stack: (e as Error)?.stack });
      return errorResponse(restError(500, "XX000", "Internal error while serving the request"));
    }
  };
}

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new RestFailure(r.error);
  return r.value;
}

function singleObjectError(n: number): RestError {
  return restError(406, "PGRST116", "Cannot coerce the result to a single JSON object", `The result contains ${n} rows`);
}

function contentRange(offset: number, n: number, total: number | null): string {
  const of = total === null ? "*" : String(total);
  if (n > 0 && total !== 0) return `${offset}-${offset + n - 1}/${of}`;
  return `*/${of}`;
}

function appliedPreferences(r: Request_): string {
  const p = r.prefer;
  const out: string[] = [];
  if (p.return && r.req.method !== "GET" && r.req.method !== "HEAD") out.push(`return=${p.return}`);
  if (p.count) out.push(`count=${p.count}`);
  if (p.resolution && r.req.method === "POST") out.push(`resolution=${p.resolution}`);
  if (p.missing && r.req.method === "POST") out.push(`missing=${p.missing}`);
  if (p.handling) out.push(`handling=${p.handling}`);
  return out.join(", ");
}

type Route = { kind: "root" } | { kind: "table"; name: string } | { kind: "rpc"; name: string };

function parsePath(path: string): Result<Route> {
  const notFound = { ok: false as const, error: restError(404, "PGRST125", "Invalid path specified in request URL") };
  const segments = path.split("/").slice(1);
  if (!segments.length || (segments.length === 1 && segments[0] === "")) return { ok: true, value: { kind: "root" } };
  let names: string[];
  try {
    names = segments.map(decodeURIComponent);
  } catch {
    return notFound;
  }
  if (names.length === 1 && names[0]) return { ok: true, value: { kind: "table", name: names[0] } };
  if (names.length === 2 && names[0] === "rpc" && names[1]) return { ok: true, value: { kind: "rpc", name: names[1] } };
  return notFound;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Reads and parses a JSON body within the size limit; `empty` stands in for a missing body. */
async function jsonBody(req: Request, limit: number, empty?: string): Promise<{ text: string; value: unknown }> {
  if (!isJsonBody(req.headers.get("content-type"))) {
    throw new RestFailure(restError(415, "PGRST107", `The request's Content-Type is not supported: ${req.headers.get("content-type")}`));
  }
  const bytes = await readBody(req, limit);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new RestFailure(invalidBody("Empty or invalid json", "The body is not valid UTF-8"));
  }
  if (!text.trim() && empty !== undefined) text = empty;
  try {
    return { text, value: JSON.parse(text) };
  } catch (e) {
    throw new RestFailure(invalidBody("Empty or invalid json", (e as Error).message));
  }
}

/** The rows of an insert body and the columns they fill, checked against the table. */
function rowsOf(t: Table, raw: { text: string; value: unknown }, q: ParsedQuery): { rowsJson: string; columns: string[] } {
  const v = raw.value;
  const rows = Array.isArray(v) ? v : [v];
  if (!rows.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))) {
    throw new RestFailure(invalidBody("Expected a JSON object or an array of JSON objects"));
  }
  let columns = q.columns;
  if (!columns) {
    const keys = rows.length ? Object.keys(rows[0] as object) : [];
    const signature = [...keys].sort().join("\u0000");
    if (rows.some((x) => Object.keys(x as object).sort().join("\u0000") !== signature)) {
      throw new RestFailure(invalidBody("All object keys must match"));
    }
    columns = keys;
  }
  for (const c of columns) if (!t.byName.has(c)) throw new RestFailure(missingColumn(t, c));
  return { rowsJson: Array.isArray(v) ? raw.text : `[${raw.text}]`, columns };
}
