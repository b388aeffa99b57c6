// PostgREST's surface at /rest/v1, as supabase-js uses it: reads with filters, order, paging and
// counts; inserts, upserts, updates and deletes; rpc calls. Each request is checked (JWT, schema,
// media type, names against the catalog) before any SQL exists, then runs as the JWT's role inside
// one transaction so that row-level security decides what it sees and changes.
import { asRole, DB_ROLES, type Sql } from "../db.ts";
import { BodyTooLarge, BodyUnreadable, type Ctx, resolveClaims, type Service } from "../http.ts";
import {
  buildDelete,
  buildInsert,
  buildRead,
  buildUpdate,
  type Shape,
  type Statement,
  tableFrom,
} from "./build-sql.ts";
import { type Catalog, type CatalogCache, createCatalogCache, type Table } from "./catalog.ts";
import {
  errorResponse,
  fromDatabaseError,
  invalidBody,
  isDatabaseError,
  restError,
  RestFailure,
  type Result,
} from "./errors.ts";
import { closestMatch, NAME_HINT_SCORE } from "./fuzzy.ts";
import { negotiate, parsePrefer } from "./negotiate.ts";
import { openApi } from "./open-api.ts";
import { isFilterValue } from "./parse-filter.ts";
import { type ParsedQuery, parseQuery } from "./parse-query.ts";
import { jsonBody, rowsOf } from "./request-body.ts";
import {
  checkMaxAffected,
  checkWrite,
  respond,
  type RestRequest,
  type ResultRow,
  rowsResponse,
  writeResponse,
} from "./responses.ts";
import { buildCall, chooseFunction } from "./rpc.ts";
import { requestProfile, searchPathOf } from "./schemas.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PATCH", "DELETE"]);
export function createRest(ctx: Ctx): Service {
  // Exposed schemas from supabase/config.toml's [api] section, as hosted Supabase configures PostgREST.
  const schemas = ctx.config.rest;
  const catalogs = new Map<string, CatalogCache>();
  const catalogOf = (schema: string) => {
    let c = catalogs.get(schema);
    if (!c) {
      c = createCatalogCache(ctx.db, schema, schemas.extraSearchPath, schemas.exposed);
      catalogs.set(schema, c);
    }
    return c;
  };
  // Hosted Supabase answers at most 1000 rows per request unless configured otherwise (REST_MAX_ROWS).
  const maxRows = ctx.config.restMaxRows;

  // GET and stable functions run read-only, as in PostgREST: a GET never changes data. As PostgREST,
  // the request's schema comes first on the search path, then the extra search path.
  const run = <T>(r: RestRequest, readOnly: boolean, fn: (tx: Sql) => Promise<T>) =>
    asRole(ctx.db, r.claims, fn, {
      readOnly,
      settings: { search_path: searchPathOf(r.profile.schema, schemas.extraSearchPath) },
    });

  const query1 = async (tx: Sql, s: Statement) => (await tx.query<ResultRow>(s.text, s.params)).rows[0];

  async function serve(req: Request, path: string): Promise<Response> {
    if (!METHODS.has(req.method)) {
      return errorResponse(restError(405, "PGRST117", `Unsupported HTTP method: ${req.method}`));
    }
    const route = parsePath(path);
    if (!route.ok) return errorResponse(route.error);
    const profile = requestProfile(req, schemas.exposed);
    if (!profile.ok) return errorResponse(profile.error);
    const auth = await resolveClaims(req, ctx.config);
    if (!auth.ok) {
      return errorResponse({
        ...restError(401, "PGRST301", auth.error),
        headers: { "WWW-Authenticate": `Bearer error="invalid_token", error_description="${auth.error}"` },
      });
    }
    if (!DB_ROLES.has(auth.value.claims.role)) {
      return errorResponse(restError(400, "22023", `role "${auth.value.claims.role}" does not exist`));
    }
    const media = negotiate(req.headers.get("accept"));
    if (!media.ok) return errorResponse(media.error);
    const prefer = parsePrefer(req.headers.get("prefer"));
    if (!prefer.ok) return errorResponse(prefer.error);
    const r: RestRequest = {
      req,
      url: new URL(req.url),
      claims: auth.value.claims,
      media: media.value,
      prefer: prefer.value,
      profile: profile.value,
    };
    try {
      if (route.value.kind === "root") return await root(r);
      if (route.value.kind === "rpc") return await rpc(r, route.value.name);
      return await table(r, route.value.name);
    } catch (e) {
      if (e instanceof RestFailure) return errorResponse(e.error);
      if (e instanceof BodyTooLarge) {
        return errorResponse(
          restError(413, "PGRST102", `Request body is larger than the ${ctx.config.maxBodyBytes}-byte limit`),
        );
      }
      if (isDatabaseError(e)) return errorResponse(fromDatabaseError(e, r.claims.role === "anon"));
      throw e;
    }
  }

  async function root(r: RestRequest): Promise<Response> {
    if (r.req.method !== "GET" && r.req.method !== "HEAD") {
      return errorResponse(restError(405, "PGRST117", `Unsupported HTTP method: ${r.req.method}`));
    }
    const c = await catalogOf(r.profile.schema).current();
    const headers: Record<string, string> = { "content-type": "application/openapi+json; charset=utf-8" };
    if (r.profile.negotiated) headers["content-profile"] = r.profile.schema;
    return new Response(r.req.method === "HEAD" ? null : JSON.stringify(openApi(c, ctx.config.publicUrl)), { headers });
  }

  async function findTable(schema: string, name: string): Promise<Table> {
    const { table, catalog: c } = await catalogOf(schema).table(name);
    if (table) return table;
    const near = closestMatch(name, c.tables.keys(), NAME_HINT_SCORE);
    throw new RestFailure(
      restError(
        404,
        "PGRST205",
        `Could not find the table '${schema}.${name}' in the schema cache`,
        null,
        near ? `Perhaps you meant the table '${schema}.${near}'` : null,
      ),
    );
  }

  /**
   * Builds a statement for table `name`. An unknown column may be one added since the catalog was
   * read, so on that error the catalog is checked for changes and the build tried once more.
   */
  async function prepare(
    schema: string,
    name: string,
    build: (t: Table, c: Catalog) => Statement,
  ): Promise<Statement> {
    const catalog = catalogOf(schema);
    const t = await findTable(schema, name);
    const known = await catalog.current();
    try {
      return build(t, known);
    } catch (e) {
      if (!(e instanceof RestFailure) || !["42703", "PGRST204", "PGRST200"].includes(e.error.code)) throw e;
      const c = await catalog.refreshIfChanged();
      const again = c.tables.get(name);
      if (!again || c === known) throw e;
      return build(again, c);
    }
  }

  async function table(r: RestRequest, name: string): Promise<Response> {
    const schema = r.profile.schema;
    await findTable(schema, name);
    const q = unwrap(parseQuery(r.url.searchParams));
    const method = r.req.method;
    const shape = shapeOf(r);
    if (method === "GET" || method === "HEAD") {
      // count=planned answers the planner's estimate; count=estimated the exact count, or the estimate
      // when that is larger and the exact count is over max rows (PostgREST's MainTx.hs).
      const mode = r.prefer.count;
      const exact = mode === "exact" || mode === "estimated";
      const planned = mode === "planned" || mode === "estimated";
      const s = await prepare(
        schema,
        name,
        (t, c) => unwrap(buildRead(t, tableFrom(t), q, { ...shape, count: exact, planned, maxRows, catalog: c })),
      );
      const row = await run(r, true, async (tx) => {
        const result = await query1(tx, s);
        if (s.plan && (mode === "planned" || (maxRows !== null && Number(result.total) > maxRows))) {
          const estimate = await plannedRows(tx, s.plan);
          if (estimate !== null) {
            result.total = mode === "planned" ? estimate : Math.max(Number(result.total), estimate);
          }
        }
        return result;
      });
      return rowsResponse(r, row, q.offset ?? 0);
    }
    if ((method === "PATCH" || method === "DELETE") && (q.limit !== undefined || q.offset !== undefined)) {
      throw new RestFailure(restError(400, "PGRST100", "limit and offset are not supported on updates and deletes"));
    }
    const opts = { ...shape, representation: r.prefer.return === "representation" };
    let s: Statement;
    if (method === "POST") {
      const raw = await jsonBody(r.req, ctx.config.maxBodyBytes);
      const conflict = r.prefer.resolution ?
        {
          mode: r.prefer.resolution === "merge-duplicates" ? ("merge" as const) : ("ignore" as const),
          columns: q.onConflict ?? null,
        } :
        undefined;
      const missingDefault = r.prefer.missing === "default";
      s = await prepare(
        schema,
        name,
        (t, c) => unwrap(buildInsert(t, q, rowsOf(t, raw, q), { ...opts, catalog: c, missingDefault, conflict })),
      );
    } else if (method === "PATCH") {
      const raw = await jsonBody(r.req, ctx.config.maxBodyBytes);
      const value = raw.value;
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        throw new RestFailure(invalidBody("Expected a JSON object of the columns to update"));
      }
      const keys = q.columns ?? Object.keys(value);
      if (!keys.length) return writeResponse(r, { body: "[]", first: null, n: 0 });
      s = await prepare(schema, name, (t, c) => unwrap(buildUpdate(t, q, raw.text, keys, { ...opts, catalog: c })));
    } else {
      s = await prepare(schema, name, (t, c) => unwrap(buildDelete(t, q, { ...opts, catalog: c })));
    }
    const row = await run(r, false, async (tx) => {
      const result = await query1(tx, s);
      checkWrite(r, result);
      return result;
    });
    return writeResponse(r, row);
  }

  async function rpc(r: RestRequest, name: string): Promise<Response> {
    const method = r.req.method;
    if (method !== "GET" && method !== "HEAD" && method !== "POST") {
      return errorResponse(restError(405, "PGRST101", "Only GET, HEAD or POST requests are allowed for RPC"));
    }
    const schema = r.profile.schema;
    const { functions, catalog: known } = await catalogOf(schema).functions(name);
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
      // As PostgREST: a parameter is a filter when its value starts with an operator, else an argument.
      q = unwrap(parseQuery(r.url.searchParams, (k, v) => !k.includes(".") && !isFilterValue(v)));
      argNames = Object.keys(q.args);
      argsJson = JSON.stringify(q.args);
    }
    const choice = unwrap(
      chooseFunction(name, functions, argNames, { schema, post: method === "POST", names: known.functions.keys() }),
    );
    if (r.media.kind === "csv" && choice.fn.returns !== "composite") {
      // Stricter than PostgREST: CSV is offered for rows with named columns only.
      throw new RestFailure(restError(406, "PGRST107", "None of these media types are available: text/csv"));
    }
    const count = r.prefer.count !== null;
    const s = unwrap(buildCall(choice, argsJson, argNames, q, { ...shapeOf(r), count, maxRows: null, catalog: known }));
    const readOnly = method !== "POST" || choice.fn.volatility !== "v";
    const row = await run(r, readOnly, async (tx) => {
      const result = await query1(tx, s);
      // As PostgREST's CallReadPlan: the rows the call answered, checked before the commit.
      checkMaxAffected(r, s.kind === "rows" ? Number(result.n) : 1);
      return result;
    });
    if (s.kind === "void") return new Response(null, { status: 204 });
    if (s.kind === "rows") return rowsResponse(r, row, q.offset ?? 0);
    const body = s.kind === "value" || r.media.kind === "csv" ? row.body : row.first;
    // One value or one row: counted, that is one (PostgREST counts the call's single row), never "*".
    return respond(r, 200, body ?? "null", { "content-range": `0-0/${r.prefer.count !== null ? 1 : "*"}` });
  }

  return async (req, path) => {
    try {
      return await serve(req, path);
    } catch (e) {
      if (e instanceof BodyUnreadable) {
        return errorResponse(restError(400, "PGRST102", "Could not read the request body"));
      }
      ctx.log("rest: unexpected error", { error: String(e), stack: (e as Error)?.stack });
      return errorResponse(restError(500, "XX000", "Internal error while serving the request"));
    }
  };
}

/** The planner's row estimate of an EXPLAIN (format json), or null when it has none. */
async function plannedRows(tx: Sql, plan: Statement): Promise<number | null> {
  const row = (await tx.query<Record<string, unknown>>(plan.text, plan.params)).rows[0];
  let value = row ? Object.values(row)[0] : null;
  if (typeof value === "string") value = JSON.parse(value);
  const rows = (value as Array<{ Plan?: { "Plan Rows"?: unknown } }> | null)?.[0]?.Plan?.["Plan Rows"];
  return typeof rows === "number" && Number.isFinite(rows) ? Math.round(rows) : null;
}

function shapeOf(r: RestRequest): Shape {
  return { stripNulls: r.media.stripNulls, single: r.media.kind === "object", csv: r.media.kind === "csv" };
}

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new RestFailure(r.error);
  return r.value;
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
