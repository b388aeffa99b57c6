// postgres_changes bindings a channel asks for at join: {event, schema, table?, filter?}. The join
// reply must echo each one exactly as sent (supabase-js compares them field by field), so the raw
// object is kept beside the parsed form used to match changes. Filters follow Supabase Realtime:
// `column=op.value` with op eq, neq, lt, lte, gt, gte, or `in.(a,b,c)`.

export type ChangeType = "INSERT" | "UPDATE" | "DELETE";
type Op = "eq" | "neq" | "lt" | "lte" | "gt" | "gte" | "in";

export interface Filter {
  column: string;
  op: Op;
  values: string[];
}

export interface Binding {
  id: number;
  event: ChangeType | "*";
  schema: string;
  /** null matches every table of the schema. */
  table: string | null;
  filter: Filter | null;
  /** What goes back in the join reply: the client's fields, unchanged, plus the id. */
  echo: Record<string, unknown>;
}

const EVENTS = new Set(["*", "INSERT", "UPDATE", "DELETE"]);
const OPS = new Set<string>(["eq", "neq", "lt", "lte", "gt", "gte", "in"]);

export function parseBinding(raw: unknown, id: number): Binding | string {
  if (typeof raw !== "object" || raw === null) return "postgres_changes binding must be an object";
  const b = raw as Record<string, unknown>;
  const event = typeof b.event === "string" ? b.event.toUpperCase() : "";
  if (!EVENTS.has(event)) return `unknown postgres_changes event ${JSON.stringify(b.event)}`;
  if (typeof b.schema !== "string" || !b.schema) return "postgres_changes binding needs a schema";
  if (b.table !== undefined && b.table !== null && typeof b.table !== "string") return "table must be a string";
  let filter: Filter | null = null;
  if (typeof b.filter === "string" && b.filter !== "") {
    const parsed = parseFilter(b.filter);
    if (typeof parsed === "string") return parsed;
    filter = parsed;
  } else if (b.filter !== undefined && b.filter !== null && b.filter !== "") {
    return "filter must be a string";
  }
  const echo: Record<string, unknown> = { id };
  for (const k of ["event", "schema", "table", "filter"]) if (k in b) echo[k] = b[k];
  return {
    id,
    event: event as Binding["event"],
    schema: b.schema,
    table: typeof b.table === "string" && b.table !== "*" && b.table !== "" ? b.table : null,
    filter,
    echo,
  };
}

export function parseFilter(text: string): Filter | string {
  const eq = text.indexOf("=");
  const dot = text.indexOf(".", eq + 1);
  if (eq <= 0 || dot < 0) return `invalid filter ${JSON.stringify(text)}: expected column=op.value`;
  const column = text.slice(0, eq).trim();
  const op = text.slice(eq + 1, dot).trim();
  const value = text.slice(dot + 1);
  if (!OPS.has(op)) return `invalid filter ${JSON.stringify(text)}: unknown operator ${op}`;
  if (op !== "in") return { column, op: op as Op, values: [unquote(value)] };
  const m = /^\((.*)\)$/s.exec(value.trim());
  if (!m) return `invalid filter ${JSON.stringify(text)}: in expects (a,b,...)`;
  return { column, op: "in", values: m[1].split(",").map((v) => unquote(v.trim())) };
}

function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
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

/**
 * Does `record` satisfy the filter? Values are compared as the column's type: numbers numerically,
 * timestamps by instant, everything else by its text form (what Postgres would print).
 */
export function filterMatches(f: Filter, record: Record<string, unknown>, columnType: string | undefined): boolean {
  if (!(f.column in record)) return false;
  const actual = record[f.column];
  if (actual === null || actual === undefined) return false;
  const cmp = (expected: string): number | null => {
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
    const a = textOf(actual);
    return a === expected ? 0 : a < expected ? -1 : 1;
  };
  const c = (v: string) => cmp(v);
  switch (f.op) {
    case "eq":
      return c(f.values[0]) === 0;
    case "neq": {
      const r = c(f.values[0]);
      return r !== null && r !== 0;
    }
    case "lt":
      return (c(f.values[0]) ?? 0) < 0;
    case "lte": {
      const r = c(f.values[0]);
      return r !== null && r <= 0;
    }
    case "gt":
      return (c(f.values[0]) ?? 0) > 0;
    case "gte": {
      const r = c(f.values[0]);
      return r !== null && r >= 0;
    }
    case "in":
      return f.values.some((v) => c(v) === 0);
  }
}

function textOf(v: unknown): string {
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}
