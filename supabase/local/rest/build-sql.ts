// Turns a parsed query into SQL over one source (a table, or the rows of a function) aliased `_t`.
// Every name is checked against the catalog first and then quoted; every value is a bound parameter
// whose type Postgres infers from the column, exactly as PostgREST's unknown-typed literals are. The
// response JSON is built by Postgres itself (json_agg), so PGlite and PostgreSQL answer byte for byte
// the same.
import { quoteIdent } from "../db.ts";
import type { Column, Table } from "./catalog.ts";
import { closest, err, ok, parseError, type RestError, restError, RestFailure, type Result } from "./errors.ts";
import type { Field } from "./parse-field.ts";
import type { Condition, Filter } from "./parse-filter.ts";
import type { OrderTerm, ParsedQuery, SelectItem } from "./parse-query.ts";

export interface Statement {
  text: string;
  params: unknown[];
}

/** What a query reads from: its display name (for errors) and its columns. */
export interface Source {
  name: string;
  columns: Column[];
  byName: Map<string, Column>;
}

export class Params {
  readonly list: unknown[] = [];
  add(value: unknown): string {
    this.list.push(value);
    return `$${this.list.length}`;
  }
}

export function unknownColumn(source: string, column: string, candidates: Iterable<string>): RestError {
  const near = closest(column, candidates);
  return restError(
    400,
    "42703",
    `column ${source}.${column} does not exist`,
    null,
    near ? `Perhaps you meant to reference the column "${source}.${near}".` : null,
  );
}

/** Catches the validation failures thrown while building, as a Result. */
export function building<T>(fn: () => T): Result<T> {
  try {
    return ok(fn());
  } catch (e) {
    if (e instanceof RestFailure) return err(e.error);
    throw e;
  }
}

const fail = (e: RestError): never => {
  throw new RestFailure(e);
};

type Operand = { sql: string; kind: "text" | "json" | "column"; column: Column };

export function column(src: Source, name: string): Column {
  return src.byName.get(name) ?? fail(unknownColumn(src.name, name, src.byName.keys()));
}

export function operand(p: Params, src: Source, field: Field): Operand {
  const col = column(src, field.name);
  let sql = `_t.${quoteIdent(col.name)}`;
  if (!field.path.length) return { sql, kind: "column", column: col };
  if (col.base !== "json" && col.base !== "jsonb") {
    fail(
      parseError(`field (${field.name}->…)`, `-> and ->> need a json or jsonb column; ${field.name} is ${col.type}`),
    );
  }
  for (const step of field.path) {
    const key = typeof step.key === "number" ? `${p.add(String(step.key))}::int` : `${p.add(step.key)}::text`;
    sql = `${sql}${step.arrow}${key}`;
  }
  // Parenthesized so that a cast or operator after it applies to the extracted value, not the key.
  return { sql: `(${sql})`, kind: field.path[field.path.length - 1].arrow === "->>" ? "text" : "json", column: col };
}

const COMPARISON: Record<string, string> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "like",
  ilike: "ilike",
  match: "~",
  imatch: "~*",
  cs: "@>",
  cd: "<@",
  ov: "&&",
  sl: "<<",
  sr: ">>",
  nxr: "&<",
  nxl: "&>",
  adj: "-|-",
};
const TEXT_MATCH = new Set(["like", "ilike", "match", "imatch"]);
const FTS_FUNCTION: Record<string, string> = {
  fts: "to_tsquery",
  plfts: "plainto_tsquery",
  phfts: "phraseto_tsquery",
  wfts: "websearch_to_tsquery",
};
const IS_SQL: Record<string, string> = {
  null: "is null",
  not_null: "is not null",
  true: "is true",
  false: "is false",
  unknown: "is unknown",
};

function isText(o: Operand): boolean {
  return o.kind === "text" || (o.kind === "column" && o.column.category === "S");
}

function filterSql(p: Params, src: Source, f: Filter): string {
  const lhs = operand(p, src, f.field);
  let sql: string;
  if (f.op === "is") sql = `${lhs.sql} ${IS_SQL[f.value]}`;
  else if (f.op === "isdistinct") sql = `${lhs.sql} is distinct from ${p.add(f.value)}`;
  else if (f.op === "in") {
    // One array parameter, as PostgREST binds it: a list of any length stays one placeholder.
    sql = `${lhs.sql} = any(${p.add(arrayLiteral(f.values ?? []))})`;
  } else if (f.op in FTS_FUNCTION) {
    const config = f.config === undefined ? "" : `${p.add(f.config)}::regconfig, `;
    const vector =
      lhs.kind === "column" && lhs.column.base === "tsvector" ? lhs.sql : `to_tsvector(${config}${lhs.sql})`;
    sql = `${vector} @@ ${FTS_FUNCTION[f.op]}(${config}${p.add(f.value)})`;
  } else {
    const op = COMPARISON[f.op];
    const left = TEXT_MATCH.has(f.op) && !isText(lhs) ? `(${lhs.sql})::text` : lhs.sql;
    // PostgREST's like patterns use * as the wildcard, because % is awkward in URLs.
    const value = f.op === "like" || f.op === "ilike" ? f.value.replaceAll("*", "%") : f.value;
    sql = f.quantifier ? `${left} ${op} ${f.quantifier}(${p.add(value)})` : `${left} ${op} ${p.add(value)}`;
  }
  return f.negate ? `not (${sql})` : sql;
}

/** A Postgres array literal with every element quoted, so commas, quotes and braces stay data. */
function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
}

export function conditionSql(p: Params, src: Source, c: Condition): string {
  if (c.kind === "filter") return filterSql(p, src, c);
  const inner = c.children.map((child) => conditionSql(p, src, child)).join(c.op === "and" ? " and " : " or ");
  return c.negate ? `not (${inner})` : `(${inner})`;
}

export function whereSql(p: Params, src: Source, conditions: Condition[]): string {
  if (!conditions.length) return "";
  return ` where ${conditions.map((c) => conditionSql(p, src, c)).join(" and ")}`;
}

/** The select list; null (no select parameter) means every column. */
export function selectListSql(p: Params, src: Source, items: SelectItem[] | null): string {
  if (items === null) return "_t.*";
  return items
    .map((item) => {
      if (item.kind === "star") return "_t.*";
      const o = operand(p, src, item.field);
      const last = item.field.path[item.field.path.length - 1];
      const name = item.alias ?? (last ? String(last.key) : item.field.name);
      return `${o.sql}${item.cast ? `::${item.cast}` : ""} as ${quoteIdent(name)}`;
    })
    .join(", ");
}

export function orderSql(p: Params, src: Source, terms: OrderTerm[]): string {
  if (!terms.length) return "";
  return ` order by ${terms
    .map((t) => {
      const o = operand(p, src, t.field);
      return `${o.sql}${t.dir ? ` ${t.dir}` : ""}${t.nulls ? ` nulls ${t.nulls}` : ""}`;
    })
    .join(", ")}`;
}

export interface Shape {
  stripNulls: boolean;
  /** The single-object media type was asked for: also answer the first row on its own. */
  single: boolean;
}

/**
 * Wraps `inner` (a query whose rows are the response rows) so that Postgres returns the JSON array, the
 * first element on its own (for the single-object media type) and the row count.
 */
export function shapeSql(inner: string, shape: Shape, extraColumns = "", rowOf = "_s"): string {
  const row = shape.stripNulls ? `json_strip_nulls(to_json(${rowOf}))` : rowOf;
  const first = shape.single ? `(json_agg(${row}) -> 0)::text` : "null::text";
  return (
    `select coalesce(json_agg(${row}), '[]')::text as body, ${first} as first, ` +
    `count(*) as n${extraColumns} from (${inner}) as _s`
  );
}

export interface ReadOptions extends Shape {
  count: boolean;
  maxRows: number | null;
}

/** GET on a source. `from` is the FROM item, aliased `_t`; `prefix` an optional WITH clause. */
export function buildRead(
  src: Source,
  from: string,
  q: ParsedQuery,
  opts: ReadOptions,
  prefix = "",
  p = new Params(),
): Result<Statement> {
  return building(() => {
    const list = selectListSql(p, src, q.select);
    const where = whereSql(p, src, q.where);
    const order = orderSql(p, src, q.order);
    const limit = q.limit === undefined ? opts.maxRows : Math.min(q.limit, opts.maxRows ?? Infinity);
    const page = `${limit === null ? "" : ` limit ${p.add(String(limit))}`}${
      q.offset ? ` offset ${p.add(String(q.offset))}` : ""
    }`;
    const total = opts.count ? `, (select count(*) from ${from}${where}) as total` : "";
    const inner = `select ${list} from ${from}${where}${order}${page}`;
    return { text: `${prefix}${shapeSql(inner, opts, total)}`, params: p.list };
  });
}

export function tableFrom(table: Table): string {
  return `public.${quoteIdent(table.name)} as _t`;
}

// ------------------------------------------------------------------------------------------- writes

export interface WriteOptions extends Shape {
  /** return=representation: build the response rows (needs SELECT rights); else only count them. */
  representation: boolean;
}

/** Wraps a data-modifying statement that can end in `returning …` into the response query. */
function mutationSql(p: Params, src: Source, mutation: string, q: ParsedQuery, opts: WriteOptions): string {
  if (!opts.representation) {
    // RETURNING 1 reads no column, so a role that may insert but not select (write-only tables) can.
    return `with _mut as (${mutation} returning 1) select null::text as body, null::text as first, count(*) as n from _mut`;
  }
  const list = selectListSql(p, src, q.select);
  const order = orderSql(p, src, q.order);
  return `with _mut as (${mutation} returning _t.*) ${shapeSql(`select ${list} from _mut as _t${order}`, opts)}`;
}

export interface InsertBody {
  /** The request body as a JSON array of objects (text, so numbers keep their precision). */
  rowsJson: string;
  columns: string[];
}

export interface InsertOptions extends WriteOptions {
  missingDefault: boolean;
  conflict?: { mode: "merge" | "ignore"; columns: string[] | null };
}

export function buildInsert(table: Table, q: ParsedQuery, body: InsertBody, opts: InsertOptions): Result<Statement> {
  return building(() => {
    const p = new Params();
    const cols = body.columns.map((name) => insertableColumn(table, name));
    const rows = p.add(body.rowsJson);
    const values = cols.map((c) => {
      const value = `_r.${quoteIdent(c.name)}`;
      if (!opts.missingDefault || c.default === null) return value;
      return `case when _e.obj ? ${p.add(c.name)}::text then ${value} else ${c.default} end`;
    });
    const target = cols.length ? ` (${cols.map((c) => quoteIdent(c.name)).join(", ")})` : "";
    let mutation =
      `insert into public.${quoteIdent(table.name)} as _t${target} select ${values.join(", ")} ` +
      `from jsonb_array_elements(${rows}::jsonb) with ordinality as _e(obj, ord) ` +
      `cross join lateral jsonb_populate_record(null::public.${quoteIdent(table.name)}, _e.obj) as _r order by _e.ord`;
    if (opts.conflict) mutation += conflictSql(table, cols, opts.conflict);
    return { text: mutationSql(p, table, mutation, q, opts), params: p.list };
  });
}

function insertableColumn(table: Table, name: string): Column {
  return table.byName.get(name) ?? fail(missingColumn(table, name));
}

export function missingColumn(table: Table, name: string): RestError {
  return restError(400, "PGRST204", `Could not find the '${name}' column of '${table.name}' in the schema cache`);
}

function conflictSql(table: Table, cols: Column[], conflict: NonNullable<InsertOptions["conflict"]>): string {
  const keys = conflict.columns ?? (table.primaryKey.length ? table.primaryKey : null);
  for (const k of keys ?? []) column(table, k);
  const target = keys ? ` (${keys.map(quoteIdent).join(", ")})` : "";
  if (conflict.mode === "ignore" || !cols.length) return ` on conflict${target} do nothing`;
  if (!keys) {
    fail(restError(400, "PGRST100", "on_conflict is required: the table has no primary key to merge duplicates on"));
  }
  const set = cols.map((c) => `${quoteIdent(c.name)} = excluded.${quoteIdent(c.name)}`).join(", ");
  return ` on conflict${target} do update set ${set}`;
}

export function buildUpdate(
  table: Table,
  q: ParsedQuery,
  objectJson: string,
  keys: string[],
  opts: WriteOptions,
): Result<Statement> {
  return building(() => {
    const p = new Params();
    const cols = keys.map((k) => insertableColumn(table, k));
    const payload = p.add(objectJson);
    const where = whereSql(p, table, q.where);
    const set = cols.map((c) => `${quoteIdent(c.name)} = _r.${quoteIdent(c.name)}`).join(", ");
    const mutation =
      `update public.${quoteIdent(table.name)} as _t set ${set} ` +
      `from jsonb_populate_record(null::public.${quoteIdent(table.name)}, ${payload}::jsonb) as _r${where}`;
    return { text: mutationSql(p, table, mutation, q, opts), params: p.list };
  });
}

export function buildDelete(table: Table, q: ParsedQuery, opts: WriteOptions): Result<Statement> {
  return building(() => {
    const p = new Params();
    const where = whereSql(p, table, q.where);
    const mutation = `delete from public.${quoteIdent(table.name)} as _t${where}`;
    return { text: mutationSql(p, table, mutation, q, opts), params: p.list };
  });
}
