// The REST grammar: PostgREST's query language over the product's tables (select with embeddings, casts,
// JSON paths, spreads and aggregates; filters with every operator, quantifiers and negation; logic trees
// of and/or/not; order, limit, offset, Range and Prefer) and its write bodies (insert, upsert, update,
// delete) of odd shapes. Names are mostly real so requests reach the SQL builder, sometimes not.
import { pctEncode as pct } from "../../tests/support/hostile.ts";
import { jsonBody, jsonValue, queryValue, type Rng, text, word } from "./grammar.ts";
import { regex, tsquery, websearch } from "./text-search.ts";
import type { HttpCase, Who, World } from "./world.ts";

/** The exposed tables with their columns (the REST surface a client sees). */
export const TABLES: Record<string, string[]> = {
  generations: [
    "id",
    "user_id",
    "prompt",
    "negative_prompt",
    "style",
    "quality",
    "aspect_ratio",
    "width",
    "height",
    "seed",
    "provider",
    "model",
    "image_path",
    "is_public",
    "is_saved",
    "created_at",
    "search",
  ],
  user_preferences: [
    "user_id",
    "default_style",
    "default_quality",
    "default_aspect_ratio",
    "notifications_enabled",
    "public_gallery_opt_in",
    "timezone",
    "updated_at",
  ],
  tier_quotas: ["tier", "daily_limit"],
  user_daily_limits: ["user_id", "generations_today", "reset_at", "subscription_tier", "timezone", "updated_at"],
  quota_reservations: ["request_id", "user_id", "created_at"],
  app_events: ["id", "user_id", "name", "metadata", "created_at"],
  web_vitals: ["id", "user_id", "name", "value", "metric_id", "delta", "rating", "created_at"],
  custom_styles: [
    "id",
    "user_id",
    "name",
    "prompt",
    "negative_prompt",
    "base_style",
    "quality",
    "aspect_ratio",
    "preview",
    "created_at",
    "updated_at",
  ],
  subscriptions: ["user_id", "status", "plan", "tier", "current_period_end", "cancel_at_period_end", "ends_at"],
  collections: ["id", "user_id", "name", "filter", "created_at", "updated_at"],
  collection_items: ["collection_id", "generation_id", "user_id", "added_at"],
};
const TABLE_NAMES = Object.keys(TABLES);
const OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike", "match", "imatch", "in", "is"];
const MORE_OPERATORS = [
  "isdistinct",
  "fts",
  "plfts",
  "phfts",
  "wfts",
  "cs",
  "cd",
  "ov",
  "sl",
  "sr",
  "nxr",
  "nxl",
  "adj",
];
const CASTS = ["text", "int", "bigint", "json", "jsonb", "uuid", "numeric", "boolean", "tsvector", "x", "text[]"];

/** The columns of `table`, or a guess for a name that is no table. */
const columnsOf = (table: string) => TABLES[table] ?? ["id", "name", "user_id"];

function column(r: Rng, table: string): string {
  const cols = columnsOf(table);
  return r.weighted([
    [8, () => r.pick(cols)],
    [
      2,
      () =>
        `${r.pick(["metadata", "prompt", r.pick(cols)])}${r.repeat(r.size(20), () => `${r.pick(["->", "->>"])}${r.chance(0.3) ? r.int(-2, 5) : word(r)}`).join("")}`,
    ],
    [1, () => word(r)],
    [1, () => `"${text(r, 20)}"`],
  ]);
}

/** A value for `op`: a regex for match, a text-search query for fts, a list for in, and so on. */
function filterValue(r: Rng, w: World, op: string): string {
  switch (op) {
    case "match":
    case "imatch":
      return regex(r);
    case "fts":
    case "plfts":
    case "phfts":
    case "wfts": {
      const config = r.chance(0.3) ? `(${r.pick(["english", "simple", "german", "nope", "english)"])})` : "";
      const q = op === "wfts" ? websearch(r) : op === "fts" ? tsquery(r) : text(r, 3000);
      return `${config}.${q}`;
    }
    case "like":
    case "ilike":
      return r.weighted([
        [3, () => text(r, 40).replace(/ /g, "*")],
        [1, () => "*%_".repeat(r.size(4000))],
        [1, () => r.repeat(r.size(200), () => r.pick(["*", "%", "a", "\\", "_"])).join("")],
      ]);
    case "in":
      return `(${r.repeat(r.size(2000), () => (r.chance(0.2) ? `"${text(r, 20)}"` : scalar(r, w))).join(",")})`;
    case "is":
      return r.pick(["null", "not_null", "true", "false", "unknown", "nul", "TRUE", word(r)]);
    case "cs":
    case "cd":
    case "ov":
      return r.weighted([
        [2, () => `{${r.repeat(r.size(50), () => word(r)).join(",")}}`],
        [1, () => JSON.stringify(jsonValue(r, 3))],
        [1, () => "{".repeat(r.size(300)) + "}".repeat(r.size(300))],
      ]);
    case "sl":
    case "sr":
    case "nxr":
    case "nxl":
    case "adj":
      return `${r.pick(["[", "("])}${scalar(r, w)},${scalar(r, w)}${r.pick(["]", ")"])}`;
    default:
      return scalar(r, w);
  }
}

/** A plain value: an id of the run, a number, a date, text. */
function scalar(r: Rng, w: World): string {
  return r.weighted([
    [2, () => r.pick(w.generations).id],
    [1, () => r.pick(w.accounts).id],
    [2, () => String(r.pick([0, 1, -1, 2 ** 31, 2 ** 63, 1e308, 0.5, NaN, Infinity]))],
    [1, () => r.pick(["2026-01-01", "infinity", "-infinity", "epoch", "2026-13-45T99:00", "now"])],
    [3, () => text(r, 60)],
  ]);
}

/** One filter as `column=op.value`, or (inside a logic tree) `column.op.value`. */
function filter(r: Rng, w: World, table: string, inTree: boolean): string {
  const op = r.chance(0.8) ? r.pick(OPERATORS) : r.pick(MORE_OPERATORS);
  const not = r.chance(0.15) ? "not." : "";
  const quant = r.chance(0.1) && !["in", "is"].includes(op) ? r.pick(["(any)", "(all)", "(some)"]) : "";
  let value = filterValue(r, w, op);
  if (quant) value = `{${r.repeat(r.int(1, 5), () => filterValue(r, w, op)).join(",")}}`;
  const col = column(r, table);
  if (!inTree) return `${queryValue(r, col)}=${not}${op}${quant}.${queryValue(r, value)}`;
  const quoted = /[,()."]/.test(value) && r.chance(0.7) ? `"${value.replace(/"/g, '\\"')}"` : value;
  return `${col}.${not}${op}${quant}.${quoted}`;
}

/** A logic tree: and/or/not over filters and subtrees, nested up to `depth`. */
function logicTree(r: Rng, w: World, table: string, depth: number): string {
  const n = r.chance(0.1) ? r.size(300) : r.int(1, 4);
  const items = r.repeat(n, () =>
    depth > 0 && r.chance(0.4) ? logicTree(r, w, table, depth - 1) : filter(r, w, table, true),
  );
  const op = r.pick(["and", "or", "not.and", "not.or"]);
  return `${op}(${items.join(",")})`;
}

/** A select list: columns, aliases, casts, JSON paths, embeddings (nested), spreads, aggregates. */
function select(r: Rng, table: string, depth: number): string {
  const item = (): string =>
    r.weighted([
      [6, () => column(r, table)],
      [1, () => "*"],
      [1, () => `${word(r)}:${column(r, table)}`],
      [2, () => `${column(r, table)}::${r.pick(CASTS)}`],
      [1, () => `${r.pick(["count()", "id.count()", "width.sum()", "height.avg()", "seed.max()", "prompt.min()"])}`],
      [
        depth > 0 ? 2 : 0,
        () => {
          const other = r.pick([...TABLE_NAMES, "users", word(r)]);
          const hint = r.chance(0.3) ? r.pick(["!inner", "!left", `!${word(r)}`, "!user_id"]) : "";
          const spread = r.chance(0.15) ? "..." : "";
          return `${spread}${other}${hint}(${select(r, TABLE_NAMES.includes(other) ? other : table, depth - 1)})`;
        },
      ],
      [1, () => text(r, 12)],
    ]);
  const n = r.chance(0.05) ? r.size(400) : r.int(1, 6);
  return r.repeat(n, item).join(",");
}

function order(r: Rng, table: string): string {
  const term = () =>
    `${column(r, table)}${r.chance(0.5) ? `.${r.pick(["asc", "desc", "x"])}` : ""}${r.chance(0.3) ? `.${r.pick(["nullsfirst", "nullslast", "nulls"])}` : ""}`;
  return r.repeat(r.chance(0.05) ? r.size(100) : r.int(1, 3), term).join(",");
}

/** The query string of a read, update or delete: select, filters, logic trees, order, paging. */
function query(r: Rng, w: World, table: string, reading: boolean): string {
  const parts: string[] = [];
  if (reading || r.chance(0.3)) parts.push(`select=${queryValue(r, select(r, table, 3))}`);
  const filters = r.chance(0.05) ? r.size(200) : r.int(0, 4);
  for (let i = 0; i < filters; i++) parts.push(filter(r, w, table, false));
  if (r.chance(0.35))
    parts.push(
      `${r.pick(["or", "and", "not.or", "not.and"])}=${queryValue(r, logicTree(r, w, table, 6).replace(/^(not\.)?(and|or)/, ""))}`,
    );
  if (r.chance(0.3)) parts.push(`order=${queryValue(r, order(r, table))}`);
  if (r.chance(0.2)) parts.push(`limit=${r.pick(["0", "1", "25", "-1", "1e9", "x", String(2 ** 63)])}`);
  if (r.chance(0.1)) parts.push(`offset=${r.pick(["0", "10", "-5", "99999999999", "y"])}`);
  if (r.chance(0.05)) parts.push(`${text(r, 10)}=${queryValue(r, text(r, 30))}`);
  return parts.join("&");
}

function readHeaders(r: Rng): Record<string, string> {
  const h: Record<string, string> = {};
  if (r.chance(0.2)) h.range = r.pick(["0-9", "5-", "-1", "10-0", "0-99999999999", "items=0-9", "x"]);
  if (r.chance(0.2))
    h.prefer = r.pick(["count=exact", "count=planned", "count=estimated", "count=x", "handling=strict"]);
  if (r.chance(0.15)) {
    h.accept = r.pick([
      "application/vnd.pgrst.object+json",
      "text/csv",
      "application/geo+json",
      "application/vnd.pgrst.plan+json",
      "*/*;q=0",
      "application/json;nulls=stripped",
    ]);
  }
  return h;
}

/** A row body for `table`: mostly its columns with values of their kind, sometimes anything. */
function rowBody(r: Rng, w: World, table: string): unknown {
  const row = () =>
    Object.fromEntries(
      r.repeat(r.int(1, 5), () => [
        r.chance(0.9) ? r.pick(columnsOf(table)) : text(r, 12),
        r.chance(0.6) ? (r.chance(0.5) ? scalar(r, w) : r.int(-10, 10_000)) : jsonValue(r, 4),
      ]),
    );
  return r.weighted<unknown>([
    [5, row],
    [2, () => r.repeat(r.size(2000), row)],
    [1, () => jsonValue(r, 6)],
  ]);
}

export function restCase(r: Rng, w: World, who: Who): HttpCase {
  const table = r.chance(0.95) ? r.pick(TABLE_NAMES) : r.pick(["users", "engine_attempts", word(r), "rpc"]);
  const method = r.weighted([
    [10, () => "GET"],
    [1, () => "HEAD"],
    [2, () => "POST"],
    [2, () => "PATCH"],
    [1, () => "DELETE"],
    [1, () => r.pick(["PUT", "OPTIONS"])],
  ]);
  const reading = method === "GET" || method === "HEAD";
  let q = query(r, w, table, reading);
  const headers: Record<string, string> = reading ? readHeaders(r) : { "content-type": "application/json" };
  if (!reading) {
    if (r.chance(0.4)) {
      headers.prefer = r.pick([
        "return=representation",
        "resolution=merge-duplicates",
        "resolution=ignore-duplicates,return=representation",
        "missing=default",
        "tx=rollback",
        "return=minimal,count=exact",
      ]);
    }
    if (method === "POST" && r.chance(0.2))
      q += `&on_conflict=${queryValue(r, r.repeat(r.int(1, 3), () => column(r, table)).join(","))}`;
    if (r.chance(0.1)) q += `&columns=${queryValue(r, r.repeat(r.int(1, 4), () => column(r, table)).join(","))}`;
  }
  const body = reading || method === "DELETE" ? undefined : jsonBody(r, rowBody(r, w, table));
  if (body !== undefined && r.chance(0.05))
    headers["content-type"] = r.pick(["text/csv", "text/plain", "application/x-www-form-urlencoded"]);
  return {
    kind: "http",
    surface: "rest",
    label: `${method} ${table}`,
    who,
    method,
    path: `/rest/v1/${pct(table)}${q ? `?${q}` : ""}`,
    headers,
    body,
  };
}
