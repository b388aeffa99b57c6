// Whether a postgres_changes binding may be subscribed, as Supabase Realtime decides when it writes the
// subscription: the table must be in the supabase_realtime publication, and each filter and selected
// column is checked as realtime.subscription_check_filters does, for the subscriber's role (a column it
// may not select is refused; a value must be one of the column's type; `is` takes null, true, false or
// unknown, the last three on a boolean column only; like/ilike and match/imatch need a text-like column,
// and match/imatch a valid regular expression; `in` at most 100 values). Casts and operators are asked
// of Postgres itself. Refusals carry hosted's sentences.
import { type Db, quoteIdent } from "../db.ts";
import { valueTooComplex } from "../rest/pattern-bounds.ts";
import type { Binding, Filter } from "./bindings.ts";
import type { Catalog, TableInfo } from "./catalog.ts";

const MAX_IN_VALUES = 100;

export async function checkBinding(
  b: Binding,
  role: string,
  deps: { db: Db; catalog: Catalog; published: ReadonlySet<string> },
): Promise<string | null> {
  const params = describe(b);
  const disabled = () =>
    `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${params}]`;
  if (b.table === null || b.schema === "*") return b.filters.length ? disabled() : null;
  if (!deps.published.has(`${b.schema}.${b.table}`)) return disabled();
  if (!b.filters.length && !b.select) return null;
  const info = await deps.catalog.get(b.schema, b.table);
  if (!info) return disabled();
  const problem = await firstProblem(b, role, info, deps.db);
  return problem === null ?
    null :
    `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [${params}]. Exception: ${problem}`;
}

async function firstProblem(b: Binding, role: string, info: TableInfo, db: Db): Promise<string | null> {
  const selectable = new Map((info.selectable[role] ?? []).map((c) => [c.name, c.type]));
  for (const f of b.filters) {
    const type = selectable.get(f.column);
    if (type === undefined) return `invalid column for filter ${f.column}`;
    const problem = await filterProblem(f, type, db);
    if (problem) return problem;
  }
  for (const c of b.select ?? []) if (!selectable.has(c)) return `invalid column for select ${c}`;
  return null;
}

async function filterProblem(f: Filter, type: string, db: Db): Promise<string | null> {
  const sqlType = quoteIdent(type);
  const ask = async (sql: string, params: unknown[]): Promise<string | null> => {
    try {
      await db.query(sql, params);
      return null;
    } catch (e) {
      return (e as Error).message ?? String(e);
    }
  };
  const hasOperator = async (op: string, sameRight: boolean) => {
    const { rows } = await db.query<{ ok: boolean }>(
      `select exists (select 1 from pg_catalog.pg_operator where oprname = $1 and oprleft = $2::regtype
         and ($3 = false or (oprright = $2::regtype and oprresult = 'boolean'::regtype))) as ok`,
      [op, type, sameRight],
    );
    return rows[0]?.ok === true;
  };
  switch (f.op) {
    case "in": {
      if (f.values.length > MAX_IN_VALUES) return "too many values for `in` filter. Maximum 100";
      for (const v of f.values) {
        const problem = await ask(`select $1::text::${sqlType}`, [v]);
        if (problem) return problem;
      }
      return null;
    }
    case "is": {
      const v = f.values[0];
      if (!["null", "true", "false", "unknown"].includes(v)) {
        return "invalid value for is filter: must be null, true, false, or unknown";
      }
      return v !== "null" && type !== "bool" ?
        `is ${v} filter requires a boolean column, got ${await typeName(type, db)}` :
        null;
    }
    case "like":
    case "ilike":
      return (await hasOperator("~~", false)) ?
        null :
        `operator ${f.op} requires a text-compatible column type, got ${await typeName(type, db)}`;
    case "match":
    case "imatch": {
      if (!(await hasOperator(f.op === "imatch" ? "~*" : "~", true))) {
        return `operator ${f.op} requires a text-compatible column type, got ${await typeName(type, db)}`;
      }
      // Checked before Postgres compiles it: a pattern past the bounds breaks PGlite (decision 125).
      const problem = valueTooComplex(f.op, f.values[0]) ?? await ask("select '' ~ $1::text", [f.values[0]]);
      return problem ? `invalid regular expression for ${f.op} filter: ${problem}` : null;
    }
    default:
      return await ask(`select $1::text::${sqlType}`, [f.values[0]]);
  }
}

/** The type as regtype prints it (integer, timestamp with time zone, …), as hosted's messages name it. */
async function typeName(type: string, db: Db): Promise<string> {
  const { rows } = await db.query<{ name: string }>("select $1::regtype::text as name", [type]);
  return rows[0]?.name ?? type;
}

/** The subscription's parameters as hosted logs them in a refusal. */
function describe(b: Binding): string {
  const q = (v: string) => JSON.stringify(v);
  const filters = b.filters.map((f) => {
    const value = f.op === "in" ? `{${f.values.join(",")}}` : f.values[0];
    return `{${q(f.column)}, ${q(f.op)}, ${q(value)}, ${f.negate}}`;
  });
  const select = b.select ? `[${b.select.map(q).join(", ")}]` : "nil";
  return `event: ${q(b.event)}, schema: ${q(b.schema)}, table: ${q(b.table ?? "*")}, filters: [${
    filters.join(", ")
  }], select: ${select}`;
}
