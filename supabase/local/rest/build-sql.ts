// Turns a parsed query into SQL over one source (a table, or the rows of a function) aliased `_t`.
// Every name is checked against the catalog first and then quoted; every value is a bound parameter
// whose type Postgres infers from the column, exactly as PostgREST's unknown-typed literals are. The
// response JSON is built by Postgres itself (json_agg), so PGlite and PostgreSQL answer byte for byte
// the same.
import { quoteIdent } from "../db.ts";
import type { Catalog, Column, ComputedField, Table } from "./catalog.ts";
import { closest, err, ok, parseError, type RestError, restError, RestFailure, type Result } from "./errors.ts";
import type { Field } from "./parse-field.ts";
import type { Condition, Filter } from "./parse-filter.ts";
import type { Embed, EmbedParams, OrderTerm, ParsedQuery, SelectItem } from "./parse-query.ts";
import { findRelationship, type Relationship, toOne } from "./relationships.ts";

export interface Statement {
  text: string;
  params: unknown[];
  /** EXPLAIN of the rows a count counts, for count=planned and count=estimated. */
  plan?: Statement;
}

/** What a query reads from: its display name (for errors) and its columns. */
export interface Source {
  name: string;
  columns: Column[];
  byName: Map<string, Column>;
  /** The SQL alias its rows are read under; `_t` when absent. */
  alias?: string;
  /** The name errors give its columns, when not `name`: PostgREST's alias of an embedded table. */
  label?: string;
  /** Computed fields, besides the columns (tables only). */
  computed?: Map<string, ComputedField>;
  /**
   * The table type (qualified SQL name) of rows read from a CTE (an rpc's or a write's), whose whole-row
   * alias is an anonymous record: computed fields and relationships then get `row(alias.*)::type`.
   */
  rowType?: string;
}

/** The source's whole row, as the table's type, for functions taking it. */
function rowSql(src: Source): string {
  const me = src.alias ?? "_t";
  return src.rowType ? `row(${me}.*)::${src.rowType}` : me;
}

/** `schema.name` quoted (`public`, which needs no quotes, as the statements always wrote it). */
function qualified(schema: string, name: string): string {
  return `${schema === "public" ? "public" : quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** A table's (or function's) qualified name; the schema is `public` when the catalog gave none. */
export function tableSql(t: { schema?: string; name: string }): string {
  return qualified(t.schema ?? "public", t.name);
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
  return src.byName.get(name) ?? fail(unknownColumn(src.label ?? src.name, name, src.byName.keys()));
}

export function operand(p: Params, src: Source, field: Field): Operand {
  const computed = src.byName.has(field.name) ? undefined : src.computed?.get(field.name);
  const col = computed?.column ?? column(src, field.name);
  let sql = computed ?
    `${qualified(computed.schema, computed.function)}(${rowSql(src)})` :
    `${src.alias ?? "_t"}.${quoteIdent(col.name)}`;
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
    const vector = lhs.kind === "column" && lhs.column.base === "tsvector" ?
      lhs.sql :
      `to_tsvector(${config}${lhs.sql})`;
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

/**
 * Resource embedding: what a request's select list needs besides its own columns. Each embedded table
 * is read in a correlated subquery (json_agg for to-many, row_to_json for to-one, a lateral join for
 * spreads), so it is read as the caller's role and row-level security applies to it too. Embedded
 * resources are jsonb, as PostgREST makes them, so their keys and spacing come out as hosted's do.
 */
export interface EmbedScope {
  catalog: Catalog;
  embedded: Map<string, EmbedParams>;
  /** Paths of embedded resources present in the select list, to refuse parameters of absent ones. */
  seen: Set<string>;
  /** To-one embeds of the top level by name or alias, for `order=relation(col)`. */
  toOneAtTop: Map<string, { rel: Relationship; embed: Embed }>;
  counter: { n: number };
}

const NO_CATALOG: Catalog = { tables: new Map(), functions: new Map(), foreignKeys: [], fingerprint: "" };

export function embedScope(catalog: Catalog, q: ParsedQuery): EmbedScope {
  return { catalog, embedded: q.embedded, seen: new Set(), toOneAtTop: new Map(), counter: { n: 0 } };
}

interface SelectParts {
  list: string;
  /** The names of the list's columns, in order (what a spread of a to-many resource aggregates). */
  names: string[];
  /** Lateral joins of spreads, appended to the FROM item. */
  joins: string;
  /** Conditions of `!inner` embeds on this level's rows. */
  conds: string[];
}

/** A plain `count` field where the resource has no column or computed field of that name. */
function countsRows(src: Source, field: Field): boolean {
  return field.name === "count" && !field.path.length && !src.byName.has("count") && !src.computed?.has("count");
}

function selectSql(
  p: Params,
  src: Source,
  items: SelectItem[] | null,
  scope: EmbedScope | null,
  path: string[] = [],
): SelectParts {
  const me = src.alias ?? "_t";
  if (items === null) return { list: `${me}.*`, names: src.columns.map((c) => c.name), joins: "", conds: [] };
  const list: string[] = [];
  const names: string[] = [];
  let joins = "";
  const conds: string[] = [];
  const embedNames: string[] = [];
  for (const item of items) {
    if (item.kind === "star") {
      list.push(`${me}.*`);
      names.push(...src.columns.map((c) => c.name));
      continue;
    }
    if (item.kind === "field") {
      if (countsRows(src, item.field)) {
        // PostgREST writes the field as `alias.count`, and PostgreSQL reads attribute notation on a row as a
        // call: count(alias), an aggregate, so the resource answers one row with its row count
        // (`comments(count)` gives [{"count": n}]). Not one of the aggregates `db-aggregates-enabled` governs.
        const name = item.alias ?? "count";
        list.push(`pg_catalog.count(${rowSql(src)})${item.cast ? `::${item.cast}` : ""} as ${quoteIdent(name)}`);
        names.push(name);
        continue;
      }
      const o = operand(p, src, item.field);
      const last = item.field.path[item.field.path.length - 1];
      const name = item.alias ?? (last ? String(last.key) : item.field.name);
      list.push(`${o.sql}${item.cast ? `::${item.cast}` : ""} as ${quoteIdent(name)}`);
      names.push(name);
      continue;
    }
    const e = embedSql(p, src, item, scope, path);
    embedNames.push(item.alias ?? item.target);
    if (e.column) list.push(e.column);
    names.push(...e.names);
    joins += e.join;
    if (e.cond) conds.push(e.cond);
  }
  // PostgREST names each embed's join `<origin>_<name>_<depth>`, so two embeds of one name at one level
  // (`users!a(*), users!b(*)` without aliases) are Postgres's 42712, not an object missing one of them.
  const twice = embedNames.find((n, i) => embedNames.indexOf(n) !== i);
  if (twice !== undefined) {
    fail(restError(400, "42712", `table name "${src.name}_${twice}_${path.length + 1}" specified more than once`));
  }
  return { list: list.join(", "), names, joins, conds };
}

function embedSql(
  p: Params,
  src: Source,
  item: Embed,
  scope: EmbedScope | null,
  path: string[],
): { column: string; names: string[]; join: string; cond: string } {
  // Only tables have relationships: a function's rows (rpc) have none.
  const isTable = (src as Source & Partial<Table>).primaryKey !== undefined;
  const found = findRelationship(scope && isTable ? scope.catalog : NO_CATALOG, src.name, item.target, item.hint);
  if (!("cardinality" in found)) fail(found);
  const rel = found as Relationship;
  const s = scope!;
  const table = s.catalog.tables.get(rel.target)!;
  const alias = `_e${++s.counter.n}`;
  const key = item.alias ?? item.target;
  const childPath = [...path, key];
  const pathKey = childPath.join(".");
  s.seen.add(pathKey);
  if (!path.length && toOne(rel)) s.toOneAtTop.set(key, { rel, embed: item });
  const params = s.embedded.get(pathKey) ?? { where: [], order: [] };
  // Errors name an embedded table's columns by PostgREST's alias for it (`messages_1.x`); a many-to-many
  // target is not aliased there.
  const child: Source = { ...table, alias, label: rel.junction ? table.name : `${table.name}_${path.length + 1}` };
  const inner = selectSql(p, child, item.select, s, childPath);
  const me = src.alias ?? "_t";
  let from = rel.computed ?
    // A computed relationship: the function's rows for the parent's row, no join condition.
    `${qualified(rel.computed.schema, rel.computed.function)}(${rowSql(src)}) as ${alias}` :
    `${tableSql(table)} as ${alias}`;
  let joinOn = rel.columns.map(([o, t]) => `${alias}.${quoteIdent(t)} = ${me}.${quoteIdent(o)}`);
  if (rel.junction) {
    // Many-to-many: the target joined to the junction, the junction's rows matched to the parent's.
    // A pair linked by more than one junction row appears once per row, as in PostgREST.
    const j = rel.junction;
    const via = `_j${s.counter.n}`;
    const on = j.targetColumns.map(([t, jc]) => `${via}.${quoteIdent(jc)} = ${alias}.${quoteIdent(t)}`);
    const junction = s.catalog.tables.get(j.table) ?? { name: j.table };
    from += ` join ${tableSql(junction)} as ${via} on ${on.join(" and ")}`;
    joinOn = j.originColumns.map(([o, jc]) => `${via}.${quoteIdent(jc)} = ${me}.${quoteIdent(o)}`);
  }
  const conditions = [...joinOn, ...params.where.map((c) => conditionSql(p, child, c)), ...inner.conds];
  const where = conditions.length ? ` where ${conditions.join(" and ")}` : "";
  const cond = item.join === "inner" ? `exists (select 1 from ${from}${where})` : "";
  const none = { column: "", names: [], join: "", cond };
  // Built only where used: an unused parameter would leave Postgres unable to type it.
  const page = () =>
    `${params.limit === undefined ? "" : ` limit ${p.add(String(params.limit))}`}${
      params.offset ? ` offset ${p.add(String(params.offset))}` : ""
    }`;
  if (item.spread) {
    if (!inner.list) return none;
    const lateral = `_l${s.counter.n}`;
    if (toOne(rel)) {
      return {
        column: `${lateral}.*`,
        names: inner.names,
        join:
          ` left join lateral (select ${inner.list} from ${from}${inner.joins}${where} limit 1) as ${lateral} on true`,
        cond,
      };
    }
    return {
      column: `${lateral}.*`,
      names: inner.names,
      join: toManySpread(p, child, inner, `${from}${inner.joins}${where}`, params.order, page(), lateral),
      cond,
    };
  }
  if (!inner.list) return none;
  const rows = `select ${inner.list} from ${from}${inner.joins}${where}${orderSql(p, child, params.order)}`;
  if (toOne(rel)) {
    return {
      column: `(select row_to_json(_r)::jsonb from (${rows} limit 1) as _r) as ${quoteIdent(key)}`,
      names: [key],
      join: "",
      cond,
    };
  }
  return {
    column: `coalesce((select json_agg(_r)::jsonb from (${rows}${page()}) as _r), '[]') as ${quoteIdent(key)}`,
    names: [key],
    join: "",
    cond,
  };
}

/**
 * The lateral join of a spread to-many resource (PostgREST v13 and later): each of its columns becomes one
 * JSON array of that column's values over the related rows, `[]` when there are none. Its order sorts
 * every array alike; as in PostgREST (Plan.hs addToManyOrderSelects), the order terms are read as extra
 * columns of the rows and applied inside the aggregates, so a limit or offset takes the rows before they
 * are ordered.
 */
function toManySpread(
  p: Params,
  child: Source,
  inner: SelectParts,
  fromWhere: string,
  order: OrderTerm[],
  page: string,
  lateral: string,
): string {
  const terms = order.map((t, i) => ({ sql: operand(p, child, t.field).sql, alias: `_o${i + 1}`, t }));
  const extra = terms.map((o) => `, ${o.sql} as ${o.alias}`).join("");
  const by = terms.length ?
    ` order by ${
      terms.map(({ alias, t }) => `_x.${alias}${t.dir ? ` ${t.dir}` : ""}${t.nulls ? ` nulls ${t.nulls}` : ""}`).join(
        ", ",
      )
    }` :
    "";
  const arrays = inner.names.map((n) =>
    `coalesce(json_agg(_x.${quoteIdent(n)}${by}), '[]')::jsonb as ${quoteIdent(n)}`
  );
  return ` left join lateral (select ${
    arrays.join(", ")
  } from (select ${inner.list}${extra} from ${fromWhere}${page}) as _x) as ${lateral} on true`;
}

/** Refuses parameters (`x.col=eq.1`) of embedded resources the select list does not have. */
function checkEmbeddedParams(scope: EmbedScope): void {
  for (const key of scope.embedded.keys()) {
    if (scope.seen.has(key)) continue;
    const name = key.split(".").pop()!;
    fail(
      restError(
        400,
        "PGRST108",
        `'${name}' is not an embedded resource in this request`,
        null,
        `Verify that '${name}' is included in the 'select' query parameter.`,
      ),
    );
  }
}

/** ORDER BY of the top level; `relation(col)` terms read a to-one embedded resource's column. */
function topOrderSql(p: Params, src: Source, terms: OrderTerm[], scope: EmbedScope | null): string {
  if (!terms.length) return "";
  const me = src.alias ?? "_t";
  return ` order by ${
    terms
      .map((t) => {
        let sql: string;
        if (t.relation) {
          const found = scope?.toOneAtTop.get(t.relation);
          if (!found) {
            fail(
              restError(
                400,
                "PGRST108",
                `'${t.relation}' is not an embedded resource in this request`,
                null,
                `Verify that '${t.relation}' is included in the 'select' query parameter.`,
              ),
            );
          }
          const { rel } = found!;
          const table = scope!.catalog.tables.get(rel.target)!;
          const o = operand(p, { ...table, alias: "_o" }, t.field);
          if (rel.computed) {
            const call = `${qualified(rel.computed.schema, rel.computed.function)}(${rowSql(src)})`;
            sql = `(select ${o.sql} from ${call} as _o limit 1)`;
          } else {
            const on = rel.columns.map(([a, b]) => `_o.${quoteIdent(b)} = ${me}.${quoteIdent(a)}`).join(" and ");
            sql = `(select ${o.sql} from ${tableSql(table)} as _o where ${on} limit 1)`;
          }
        } else sql = operand(p, src, t.field).sql;
        return `${sql}${t.dir ? ` ${t.dir}` : ""}${t.nulls ? ` nulls ${t.nulls}` : ""}`;
      })
      .join(", ")
  }`;
}

/** WHERE of a level: its filters and the conditions of its `!inner` embeds. */
function whereWith(p: Params, src: Source, conditions: Condition[], extra: string[]): string {
  const parts = [...conditions.map((c) => conditionSql(p, src, c)), ...extra];
  return parts.length ? ` where ${parts.join(" and ")}` : "";
}

export function orderSql(p: Params, src: Source, terms: OrderTerm[]): string {
  if (!terms.length) return "";
  return ` order by ${
    terms
      .map((t) => {
        const o = operand(p, src, t.field);
        return `${o.sql}${t.dir ? ` ${t.dir}` : ""}${t.nulls ? ` nulls ${t.nulls}` : ""}`;
      })
      .join(", ")
  }`;
}

export interface Shape {
  stripNulls: boolean;
  /** The single-object media type was asked for: also answer the first row on its own. */
  single: boolean;
  /** Accept: text/csv: the body is CSV, built as PostgREST builds it (Query/SqlFragment.hs, asCsvF). */
  csv?: boolean;
}

/**
 * Wraps `inner` (a query whose rows are the response rows) so that Postgres returns the JSON array, the
 * first element on its own (for the single-object media type) and the row count.
 */
export function shapeSql(inner: string, shape: Shape, extraColumns = "", rowOf = "_s"): string {
  const row = shape.stripNulls ? `json_strip_nulls(to_json(${rowOf}))` : rowOf;
  const first = shape.single ? `(json_agg(${row}) -> 0)::text` : "null::text";
  // CSV: a header of the first row's column names, then each row's record text without its parentheses.
  const body = shape.csv ?
    `(select coalesce(string_agg(_k.k, ','), '') from (select json_object_keys(row_to_json(_h)) as k ` +
    `from (select * from (${inner}) as _h0 limit 1) as _h) as _k) || chr(10) || ` +
    `coalesce(string_agg(substring(_s::text, 2, length(_s::text) - 2), chr(10)), '')` :
    `coalesce(json_agg(${row}), '[]')::text`;
  return `select ${body} as body, ${first} as first, count(*) as n${extraColumns} from (${inner}) as _s`;
}

export interface ReadOptions extends Shape {
  count: boolean;
  maxRows: number | null;
  /** The schema cache, for resource embedding; without it an embedded resource is PGRST200. */
  catalog?: Catalog;
  /** Also build the EXPLAIN whose row estimate answers count=planned (and large count=estimated). */
  planned?: boolean;
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
    const scope = opts.catalog ? embedScope(opts.catalog, q) : null;
    const sel = selectSql(p, src, q.select, scope);
    if (scope) checkEmbeddedParams(scope);
    else checkEmbeddedParams(embedScope(NO_CATALOG, q));
    const where = whereWith(p, src, q.where, sel.conds);
    const order = topOrderSql(p, src, q.order, scope);
    const limit = q.limit === undefined ? opts.maxRows : Math.min(q.limit, opts.maxRows ?? Infinity);
    const page = `${limit === null ? "" : ` limit ${p.add(String(limit))}`}${
      q.offset ? ` offset ${p.add(String(q.offset))}` : ""
    }`;
    const total = opts.count ? `, (select count(*) from ${from}${where}) as total` : "";
    const inner = `select ${sel.list} from ${from}${sel.joins}${where}${order}${page}`;
    const plan = opts.planned ? explainOf(`${prefix}select 1 from ${from}${where}`, p.list) : undefined;
    return { text: `${prefix}${shapeSql(inner, opts, total)}`, params: p.list, plan };
  });
}

/**
 * `explain (format json)` of `text`, keeping only the parameters it refers to (renumbered), since
 * Postgres cannot type a parameter a statement never uses. EXPLAIN plans and does not run the query.
 */
function explainOf(text: string, params: unknown[]): Statement {
  const used = new Map<number, number>();
  const out: unknown[] = [];
  const renumbered = text.replace(/(?<![\w"$])\$(\d+)/g, (_, n: string) => {
    const i = Number(n);
    if (!used.has(i)) {
      out.push(params[i - 1]);
      used.set(i, out.length);
    }
    return `$${used.get(i)}`;
  });
  return { text: `explain (format json) ${renumbered}`, params: out };
}

export function tableFrom(table: Table): string {
  return `${tableSql(table)} as _t`;
}

// ------------------------------------------------------------------------------------------- writes

export interface WriteOptions extends Shape {
  /** return=representation: build the response rows (needs SELECT rights); else only count them. */
  representation: boolean;
  catalog?: Catalog;
}

/** Wraps a data-modifying statement that can end in `returning …` into the response query. */
function mutationSql(
  p: Params,
  src: Source,
  mutation: string,
  q: ParsedQuery,
  opts: WriteOptions,
  extraColumns = "",
): string {
  if (!opts.representation) {
    // RETURNING 1 reads no column, so a role that may insert but not select (write-only tables) can.
    return `with _mut as (${mutation} returning 1) select null::text as body, null::text as first, count(*) as n${extraColumns} from _mut`;
  }
  const scope = opts.catalog ? embedScope(opts.catalog, q) : null;
  // The written rows come back from a CTE: functions of the row see them as the table's type.
  const read: Source = { ...src, alias: "_t", rowType: tableSql(src as Table) };
  const sel = selectSql(p, read, q.select, scope);
  if (scope) checkEmbeddedParams(scope);
  const where = sel.conds.length ? ` where ${sel.conds.join(" and ")}` : "";
  const order = topOrderSql(p, read, q.order, scope);
  return `with _mut as (${mutation} returning _t.*) ${
    shapeSql(
      `select ${sel.list} from _mut as _t${sel.joins}${where}${order}`,
      opts,
      extraColumns,
    )
  }`;
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
    const merging = opts.conflict?.mode === "merge" && cols.length > 0;
    const values = cols.map((c) => {
      const value = `_r.${quoteIdent(c.name)}`;
      if (!opts.missingDefault || c.default === null) return value;
      return `case when _e.obj ? ${p.add(c.name)}::text then ${value} else ${c.default} end`;
    });
    const target = cols.length ? ` (${cols.map((c) => quoteIdent(c.name)).join(", ")})` : "";
    let mutation = `insert into ${tableSql(table)} as _t${target} select ${values.join(", ")} ` +
      `from jsonb_array_elements(${rows}::jsonb) with ordinality as _e(obj, ord) ` +
      `cross join lateral jsonb_populate_record(null::${tableSql(table)}, _e.obj) as _r` +
      `${merging ? ` where ${countInserted("+")} <> '0'` : ""} order by _e.ord`;
    if (opts.conflict) mutation += conflictSql(table, cols, opts.conflict);
    const inserted = merging ? `, nullif(current_setting('pgrst.inserted', true), '')::int as inserted` : "";
    return { text: mutationSql(p, table, mutation, q, opts, inserted), params: p.list };
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
  return ` on conflict${target} do update set ${set} where ${countInserted("-")} <> '-1'`;
}

/**
 * PostgREST's count of the rows an upsert inserted (Query/SqlFragment.hs, addConfigPgrstInserted):
 * every candidate row adds one to a transaction-local setting, every conflict that updates instead
 * takes one away, so the response knows whether anything was inserted (201) or only updated (200).
 * A setting rather than RETURNING xmax, so that a role without SELECT rights can still upsert.
 */
function countInserted(sign: "+" | "-"): string {
  return `set_config('pgrst.inserted', (coalesce(nullif(current_setting('pgrst.inserted', true), '')::int, 0) ${sign} 1)::text, true)`;
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
    const mutation = `update ${tableSql(table)} as _t set ${set} ` +
      `from jsonb_populate_record(null::${tableSql(table)}, ${payload}::jsonb) as _r${where}`;
    return { text: mutationSql(p, table, mutation, q, opts), params: p.list };
  });
}

export function buildDelete(table: Table, q: ParsedQuery, opts: WriteOptions): Result<Statement> {
  return building(() => {
    const p = new Params();
    const where = whereSql(p, table, q.where);
    const mutation = `delete from ${tableSql(table)} as _t${where}`;
    return { text: mutationSql(p, table, mutation, q, opts), params: p.list };
  });
}
