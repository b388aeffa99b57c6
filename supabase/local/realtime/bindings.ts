// postgres_changes bindings a channel asks for at join: {event, schema, table?, filter?, select?}. The
// join reply must echo each one exactly as sent (supabase-js compares them field by field), so the raw
// object is kept beside the parsed form used to match changes. Filters follow Supabase Realtime
// (Extensions.PostgresCdcRls.Subscriptions): `column=[not.]op.value`, several joined by commas (all must
// hold), with op eq, neq, lt, lte, gt, gte, in.(a,b), like, ilike, is, match, imatch, isdistinct;
// `select` names the columns a change carries (its primary key always too).

export type ChangeType = "INSERT" | "UPDATE" | "DELETE";
type Op =
  | "eq"
  | "neq"
  | "lt"
  | "lte"
  | "gt"
  | "gte"
  | "in"
  | "like"
  | "ilike"
  | "is"
  | "match"
  | "imatch"
  | "isdistinct";

export interface Filter {
  column: string;
  op: Op;
  /** One value; several for `in`. */
  values: string[];
  /** The `not.` prefix. */
  negate: boolean;
}

export interface Binding {
  id: number;
  event: ChangeType | "*";
  schema: string;
  /** null matches every table of the schema. */
  table: string | null;
  /** Every one must hold; none is no filter. */
  filters: Filter[];
  /** The columns asked for (`select`), or null for all. */
  select: string[] | null;
  /** What goes back in the join reply: the client's fields, unchanged, plus the id. */
  echo: Record<string, unknown>;
}

const EVENTS = new Set(["*", "INSERT", "UPDATE", "DELETE"]);
const OPS = new Set<string>([
  "eq",
  "neq",
  "lt",
  "lte",
  "gt",
  "gte",
  "in",
  "like",
  "ilike",
  "is",
  "match",
  "imatch",
  "isdistinct",
]);

export function parseBinding(raw: unknown, id: number): Binding | string {
  if (typeof raw !== "object" || raw === null) return "postgres_changes binding must be an object";
  const b = raw as Record<string, unknown>;
  const event = typeof b.event === "string" ? b.event.toUpperCase() : "";
  if (!EVENTS.has(event)) return `unknown postgres_changes event ${JSON.stringify(b.event)}`;
  if (typeof b.schema !== "string" || !b.schema) return "postgres_changes binding needs a schema";
  if (b.table !== undefined && b.table !== null && typeof b.table !== "string") return "table must be a string";
  let filters: Filter[] = [];
  if (typeof b.filter === "string") {
    const parsed = parseFilters(b.filter);
    if (typeof parsed === "string") return `Error parsing \`filter\` params: ${parsed}`;
    filters = parsed;
  } else if (b.filter !== undefined && b.filter !== null) {
    return "filter must be a string";
  }
  let select: string[] | null = null;
  if (Array.isArray(b.select)) {
    const names = b.select.filter((c): c is string => typeof c === "string");
    select = names.length ? names : null;
  } else if (typeof b.select === "string") {
    return 'Error parsing `select` params: expected a list of column name strings, e.g. select: ["col1", "col2"]';
  }
  const table = typeof b.table === "string" && b.table !== "*" && b.table !== "" ? b.table : null;
  if (select && (table === null || b.schema === "*")) {
    return "Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name.";
  }
  const echo: Record<string, unknown> = { id };
  for (const k of ["event", "schema", "table", "filter"]) if (k in b) echo[k] = b[k];
  return { id, event: event as Binding["event"], schema: b.schema, table, filters, select, echo };
}

/** Parses a whole filter string: comma-joined segments, an empty one being no filter at all. */
export function parseFilters(text: string): Filter[] | string {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const out: Filter[] = [];
  for (const segment of splitTopLevel(trimmed)) {
    const f = parseSegment(segment);
    if (typeof f === "string") return f;
    out.push(f);
  }
  return out;
}

/** Splits at commas outside parentheses and outside a double-quoted value (one opened after . ( or ,). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let depth = 0;
  let quoted = false;
  let prev = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === "\\" && i + 1 < text.length) {
        current += ch + text[++i];
        prev = text[i];
        continue;
      }
      if (ch === '"') quoted = false;
      current += ch;
      prev = ch;
      continue;
    }
    if (ch === '"' && (prev === "." || prev === "(" || prev === ",")) quoted = true;
    else if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (ch === "," && depth === 0) {
      parts.push(current);
      current = "";
      prev = "";
      continue;
    }
    current += ch;
    prev = ch;
  }
  parts.push(current);
  return parts;
}

function parseSegment(segment: string): Filter | string {
  const trimmed = segment.trim();
  if (trimmed === "") return "filter must not contain empty segments (check for extra commas)";
  const eq = trimmed.indexOf("=");
  if (eq < 0) return JSON.stringify([trimmed]);
  const column = trimmed.slice(0, eq);
  let rest = trimmed.slice(eq + 1);
  const negate = rest.startsWith("not.");
  if (negate) rest = rest.slice(4);
  const dot = rest.indexOf(".");
  if (dot < 0) return JSON.stringify([rest]);
  const op = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  if (!OPS.has(op)) return JSON.stringify([op, value]);
  if (op !== "in") return { column, op: op as Op, values: [unquote(value)], negate };
  if (value.length < 2 || !value.startsWith("(") || !value.endsWith(")")) {
    return "`in` filter value must be wrapped by parentheses";
  }
  return { column, op: "in", values: arrayLiteralItems(value.slice(1, -1)), negate };
}

/** A value written "like this" (with \\ escapes) is taken without its quotes; anything else as it is. */
function unquote(v: string): string {
  if (!v.startsWith('"')) return v;
  let out = "";
  for (let i = 1; i < v.length; i++) {
    const ch = v[i];
    if (ch === '"') return i === v.length - 1 ? out : v;
    if (ch === "\\" && i + 1 < v.length) out += v[++i];
    else out += ch;
  }
  return v;
}

/** The items of `in.(…)`, read as Postgres reads the array literal {…} hosted makes of them. */
function arrayLiteralItems(inner: string): string[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === "\\" && i + 1 < inner.length) {
      current += inner[++i];
    } else if (ch === '"') {
      quoted = !quoted;
      wasQuoted = true;
    } else if (ch === "," && !quoted) {
      items.push(wasQuoted ? current : current.trim());
      current = "";
      wasQuoted = false;
    } else current += ch;
  }
  items.push(wasQuoted ? current : current.trim());
  return items;
}

export function bindingWants(b: Binding, schema: string, table: string, type: ChangeType): boolean {
  return (
    (b.event === "*" || b.event === type) &&
    (b.schema === "*" || b.schema === schema) &&
    (b.table === null || b.table === table)
  );
}

const NUMERIC = new Set(["int2", "int4", "int8", "float4", "float8", "numeric", "oid"]);
const TEMPORAL = new Set(["timestamp", "timestamptz", "date"]);

/** Tests a POSIX regular expression as Postgres does (`~`, or `~*` when insensitive). */
export type RegexTest = (value: string, pattern: string, insensitive: boolean) => Promise<boolean>;

/**
 * Does `record` satisfy the filter, as Postgres would evaluate `value op operand` with the column's
 * type (realtime.check_equality_op)? Numbers compare numerically, timestamps by instant, everything
 * else by its text form. A comparison with NULL is NULL, which no filter passes, negated or not; only
 * `is` and `isdistinct` say something of NULL.
 */
export async function filterMatches(
  f: Filter,
  record: Record<string, unknown>,
  columnType: string | undefined,
  regex: RegexTest,
): Promise<boolean> {
  if (!(f.column in record)) return false;
  const actual = record[f.column] ?? null;
  if (f.op === "is") {
    const v = f.values[0];
    const holds = v === "null" || v === "unknown" ? actual === null : actual === (v === "true");
    return f.negate ? !holds : holds;
  }
  if (f.op === "isdistinct") {
    const expected = f.values[0];
    const distinct = actual === null ? true : compare(actual, expected, columnType) !== 0;
    return f.negate ? !distinct : distinct;
  }
  if (actual === null) return false;
  let result: boolean | null;
  const c = (v: string) => compare(actual, v, columnType);
  switch (f.op) {
    case "eq":
      result = orNull(c(f.values[0]), (r) => r === 0);
      break;
    case "neq":
      result = orNull(c(f.values[0]), (r) => r !== 0);
      break;
    case "lt":
      result = orNull(c(f.values[0]), (r) => r < 0);
      break;
    case "lte":
      result = orNull(c(f.values[0]), (r) => r <= 0);
      break;
    case "gt":
      result = orNull(c(f.values[0]), (r) => r > 0);
      break;
    case "gte":
      result = orNull(c(f.values[0]), (r) => r >= 0);
      break;
    case "in":
      result = f.values.some((v) => c(v) === 0);
      break;
    case "like":
    case "ilike":
      result = likePattern(f.values[0], f.op === "ilike").test(textOf(actual));
      break;
    case "match":
    case "imatch":
      result = await regex(textOf(actual), f.values[0], f.op === "imatch");
      break;
  }
  if (result === null) return false;
  return f.negate ? !result : result;
}

const orNull = (r: number | null, test: (r: number) => boolean): boolean | null => (r === null ? null : test(r));

/** How `actual` compares with the filter's text `expected` in the column's type; null if it cannot. */
function compare(actual: unknown, expected: string, columnType: string | undefined): number | null {
  if (columnType && NUMERIC.has(columnType)) {
    const a = Number(actual),
      e = Number(expected);
    return Number.isNaN(a) || Number.isNaN(e) ? null : a - e;
  }
  if (columnType && TEMPORAL.has(columnType)) {
    const a = Date.parse(String(actual)),
      e = Date.parse(expected);
    return Number.isNaN(a) || Number.isNaN(e) ? null : a - e;
  }
  if (columnType === "bool") {
    const e = ["t", "true", "y", "yes", "on", "1"].includes(expected.trim().toLowerCase());
    return actual === e ? 0 : 1;
  }
  const a = textOf(actual);
  return a === expected ? 0 : a < expected ? -1 : 1;
}

/** A LIKE pattern (% any run, _ one character, \\ escaping the next) as a whole-string RegExp. */
function likePattern(pattern: string, insensitive: boolean): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\" && i + 1 < pattern.length) re += escapeRegExp(pattern[++i]);
    else if (ch === "%") re += ".*";
    else if (ch === "_") re += ".";
    else re += escapeRegExp(ch);
  }
  return new RegExp(`^${re}$`, insensitive ? "isu" : "su");
}

const escapeRegExp = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

function textOf(v: unknown): string {
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}
