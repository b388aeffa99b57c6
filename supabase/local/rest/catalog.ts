// The schema cache of the REST service, one per exposed schema: its tables, views and functions, read
// from pg_catalog, the way PostgREST keeps one. Every table, column and function name of a request is looked
// up here before any SQL is built. A miss compares a cheap fingerprint of the catalog and reloads
// only when the schema changed, so objects created after start are found without a restart (and a
// flood of misspelt names costs one small query each). Objects that belong to extensions are left out.
import type { Db, Sql } from "../db.ts";
import { type BaseForeignKey, type BasePrimaryKey, type ViewDefinition, viewRelationships } from "./views.ts";

export interface Column {
  name: string;
  /** format_type() text, usable verbatim as a SQL type name. */
  type: string;
  /** typname of the base type (domains resolved), e.g. "jsonb", "tsvector", "_text". */
  base: string;
  /** pg_type.typcategory of the base type: S string, A array, N numeric, U user (json), … */
  category: string;
  generated: boolean;
  identity: boolean;
  /** The column default as SQL text (or the identity sequence's nextval), null when none. */
  default: string | null;
}

export interface Table {
  /** The table's schema; "public" when absent. */
  schema?: string;
  name: string;
  columns: Column[];
  byName: Map<string, Column>;
  /** A view's is the primary key of the table it shows (rest/views.ts). */
  primaryKey: string[];
  /** Computed fields: functions taking this table's row, read like columns (see ComputedField). */
  computed?: Map<string, ComputedField>;
}

/**
 * A computed field: a function of the table's schema or of the extra search path (as PostgREST finds it
 * through the request's search_path) whose one parameter is a table's row type and which returns one value. It selects, filters and orders
 * like a column, but only when named: `*` leaves it out.
 */
export interface ComputedField {
  schema: string;
  function: string;
  /** The value's type, as a column's: for casts, JSON paths and text operators. */
  column: Column;
}

/**
 * A computed relationship: a function whose one parameter is `table`'s row type and which returns rows
 * of `target` (both of the schema), embedded under the function's name; to-one when it returns one row
 * (not a set, or a set declared `rows 1`).
 */
interface ComputedRelationship {
  schema: string;
  function: string;
  table: string;
  target: string;
  toOne: boolean;
}

/**
 * A foreign key between two relations of the catalog's schema: `table(columns)` references
 * `refTable(refColumns)`. Either side may be a view showing the key's columns (rest/views.ts).
 */
export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
  /** The columns are also the table's primary key or one of its unique constraints (PostgREST's one_to_one). */
  oneToOne: boolean;
  tableIsView?: boolean;
  refIsView?: boolean;
}

export interface FunctionArg {
  name: string;
  type: string;
  base: string;
  mode: "i" | "o" | "b" | "v" | "t";
}

export interface RpcFunction {
  /** The function's schema; "public" when absent. */
  schema?: string;
  name: string;
  /** The function's comment, which orders overloads as PostgREST does. */
  description?: string | null;
  /** Input arguments in declaration order. */
  inputs: FunctionArg[];
  /** How many trailing inputs have defaults. */
  defaults: number;
  returnsSet: boolean;
  volatility: "i" | "s" | "v";
  /** void; a single value (scalar, json, array…); or rows with named columns. */
  returns: "void" | "scalar" | "composite";
  columns: Column[];
  byName: Map<string, Column>;
  /**
   * The table (or view) of the same schema whose row type the function returns, alone or as a set:
   * its rows are read like that table's, embedding included (PostgREST's funcTableName).
   */
  returnTable?: string;
}

export interface Catalog {
  /** The schema this catalog describes; "public" when absent. */
  schema?: string;
  tables: Map<string, Table>;
  functions: Map<string, RpcFunction[]>;
  foreignKeys: ForeignKey[];
  computedRelationships?: ComputedRelationship[];
  /** Changes whenever a table, column or function of the schema is created, altered or dropped. */
  fingerprint: string;
}

const COLUMN_JSON = `json_build_object(
  'name', a.attname,
  'type', format_type(a.atttypid, a.atttypmod),
  'base', bt.typname,
  'category', bt.typcategory,
  'generated', a.attgenerated <> '',
  'identity', a.attidentity <> '',
  'default', case when a.attidentity <> ''
    then format('nextval(%L::regclass)', pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname))
    else pg_get_expr(d.adbin, d.adrelid) end
)`;

const TABLES_SQL = `
select c.relname as name,
  coalesce((
    select json_agg(${COLUMN_JSON} order by a.attnum)
    from pg_attribute a
    join pg_type t on t.oid = a.atttypid
    join pg_type bt on bt.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  ), '[]')::text as columns,
  coalesce((
    select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey::int2[])
    where i.indrelid = c.oid and i.indisprimary
  ), '[]')::text as primary_key
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')
  and not exists (select 1 from pg_depend e where e.classid = 'pg_class'::regclass and e.objid = c.oid and e.deptype = 'e')`;

const FUNCTIONS_SQL = `
select p.proname as name, p.proretset as returns_set, p.provolatile::text as volatility,
  p.pronargdefaults as defaults, rt.typname as return_type, rt.typtype::text as return_typtype,
  obj_description(p.oid, 'pg_proc') as description,
  (select rc.relname from pg_class rc
    where rc.oid = rt.typrelid and rc.relnamespace = p.pronamespace and rc.relkind in ('r', 'v', 'm', 'f', 'p')
  ) as return_table,
  coalesce((
    select json_agg(json_build_object(
      'name', coalesce(p.proargnames[u.ord], ''),
      'mode', coalesce(p.proargmodes[u.ord]::text, 'i'),
      'type', format_type(u.oid, null),
      'base', bt.typname,
      'category', bt.typcategory) order by u.ord)
    from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as u(oid, ord)
    join pg_type t on t.oid = u.oid
    join pg_type bt on bt.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
  ), '[]')::text as args,
  coalesce((
    select json_agg(${COLUMN_JSON} order by a.attnum)
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid
    join pg_type t on t.oid = a.atttypid
    join pg_type bt on bt.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where c.oid = rt.typrelid and a.attnum > 0 and not a.attisdropped
  ), '[]')::text as row_columns
from pg_proc p
join pg_namespace pn on pn.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
where pn.nspname = $1 and p.prokind = 'f'
  and rt.typname not in ('trigger', 'event_trigger')
  and not exists (select 1 from pg_depend e where e.classid = 'pg_proc'::regclass and e.objid = p.oid and e.deptype = 'e')`;

// Every foreign key (of a partitioned table, the parent's only), as PostgREST's allM2OandO2ORels reads
// them: views of the schema may show the columns of keys between tables of any schema. One-to-one when
// its columns are, as a set, those of a primary key or unique constraint of its table.
const FOREIGN_KEYS_SQL = `
select con.conname as name,
  con.conrelid::bigint::text as table_oid, n.nspname as table_schema, c.relname as table,
  con.confrelid::bigint::text as ref_oid, rn.nspname as ref_schema, rc.relname as ref_table,
  (select json_agg(json_build_array(a.attnum, a.attname) order by k.ord)
     from unnest(con.conkey) with ordinality as k(num, ord)
     join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num)::text as columns,
  (select json_agg(json_build_array(a.attnum, a.attname) order by k.ord)
     from unnest(con.confkey) with ordinality as k(num, ord)
     join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num)::text as ref_columns,
  exists (
    select 1 from pg_constraint u
    where u.conrelid = con.conrelid and u.contype in ('p', 'u')
      and (select array_agg(x order by x) from unnest(u.conkey) as x) =
        (select array_agg(x order by x) from unnest(con.conkey) as x)
  ) as one_to_one
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_namespace n on n.oid = c.relnamespace
join pg_class rc on rc.oid = con.confrelid
join pg_namespace rn on rn.oid = rc.relnamespace
where con.contype = 'f' and con.conparentid = 0
order by con.conrelid, con.conname`;

// The views (and materialized views) of the schemas PostgREST reads views from, with their query trees.
const VIEWS_SQL = `
select c.oid::bigint::text as oid, n.nspname as schema, c.relname as name, r.ev_action::text as definition,
  coalesce((
    select json_agg(json_build_array(a.attnum, a.attname) order by a.attnum)
    from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  ), '[]')::text as columns
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_rewrite r on r.ev_class = c.oid and r.rulename = '_RETURN'
where c.relkind in ('v', 'm') and n.nspname = any($1::text[])`;

const PRIMARY_KEYS_SQL = `
select con.conrelid::bigint::text as table_oid, array_to_json(con.conkey)::text as columns
from pg_constraint con where con.contype = 'p'`;

// Functions of one parameter, a table's row type: computed fields and computed relationships.
const COMPUTED_SQL = `
select p.proname as name, pn.nspname as schema, c.relname as table, p.proretset as returns_set,
  p.prorows = 1 as single_row, rc.relname as return_table,
  format_type(p.prorettype, null) as type, bt.typname as base, bt.typcategory as category
from pg_proc p
join pg_namespace pn on pn.oid = p.pronamespace
join pg_class c on c.reltype = p.proargtypes[0] and c.relkind in ('r', 'v', 'm', 'f', 'p')
join pg_type rt on rt.oid = p.prorettype
join pg_type bt on bt.oid = case when rt.typtype = 'd' then rt.typbasetype else rt.oid end
left join pg_class rc on rc.oid = rt.typrelid and rc.relkind in ('r', 'v', 'm', 'f', 'p')
  and rc.relnamespace = c.relnamespace
where p.pronargs = 1 and p.prokind = 'f' and c.relnamespace = (select oid from pg_namespace where nspname = $1)
  and not exists (select 1 from pg_depend e where e.classid = 'pg_proc'::regclass and e.objid = p.oid and e.deptype = 'e')
order by p.oid`;

// xmin of a catalog row changes with every DDL statement that touches it.
const FINGERPRINT_SQL = `
with ns as (select oid from pg_namespace where nspname = $1)
select concat_ws('/',
  (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from pg_class where relnamespace in (select oid from ns)),
  (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from pg_proc where pronamespace in (select oid from ns)),
  (select count(*) || ':' || coalesce(sum(a.xmin::text::bigint), 0)
     from pg_attribute a join pg_class c on c.oid = a.attrelid where c.relnamespace in (select oid from ns)),
  (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from pg_constraint where connamespace in (select oid from ns)),
  (select count(*) || ':' || coalesce(sum(r.xmin::text::bigint), 0)
     from pg_rewrite r join pg_class c on c.oid = r.ev_class where c.relnamespace in (select oid from ns)),
  -- Foreign keys of other schemas, which views of this one may show.
  (select count(*) || ':' || coalesce(sum(xmin::text::bigint), 0) from pg_constraint where contype in ('f', 'p'))
) as fingerprint`;

type RawArg = { name: string; mode: FunctionArg["mode"]; type: string; base: string; category: string };

/**
 * The catalog of `schema`. `searchPath` is where computed fields are looked for after the schema itself
 * (PostgREST's db-extra-search-path); views are followed through the schemas of `exposed` and of
 * `searchPath`, as PostgREST follows them.
 */
export async function loadCatalog(
  db: Db,
  schema = "public",
  searchPath: string[] = EXTRA_SEARCH_PATH,
  exposed: string[] = [schema],
): Promise<Catalog> {
  // A transaction of its own: on PGlite this waits for, and never interleaves with, a request's.
  return await db.transaction(async (tx) => {
    const fingerprint = (await tx.query<{ fingerprint: string }>(FINGERPRINT_SQL, [schema])).rows[0].fingerprint;
    const tables = new Map<string, Table>();
    const rows = (await tx.query<{ name: string; columns: string; primary_key: string }>(TABLES_SQL, [schema])).rows;
    for (const r of rows) {
      const columns = JSON.parse(r.columns) as Column[];
      tables.set(r.name, {
        schema,
        name: r.name,
        columns,
        byName: byName(columns),
        primaryKey: JSON.parse(r.primary_key),
      });
    }
    const { foreignKeys, viewPrimaryKeys } = await loadRelationships(tx, schema, [
      ...new Set([schema, ...exposed, ...searchPath]),
    ]);
    for (const [view, pk] of viewPrimaryKeys) {
      const t = tables.get(view);
      if (t) t.primaryKey = pk;
    }
    const functions = new Map<string, RpcFunction[]>();
    const fns = (
      await tx.query<{
        name: string;
        returns_set: boolean;
        volatility: string;
        defaults: number;
        return_type: string;
        return_typtype: string;
        return_table: string | null;
        description: string | null;
        args: string;
        row_columns: string;
      }>(FUNCTIONS_SQL, [schema])
    ).rows;
    for (const f of fns) {
      const args = JSON.parse(f.args) as RawArg[];
      const inputs = args.filter((a) => a.mode === "i" || a.mode === "b" || a.mode === "v");
      if (!callable(inputs)) continue;
      const outputs = args.filter((a) => a.mode === "o" || a.mode === "b" || a.mode === "t");
      let columns: Column[] = [];
      let returns: RpcFunction["returns"] = "scalar";
      if (f.return_type === "void") returns = "void";
      else if (f.return_typtype === "c") {
        returns = "composite";
        columns = JSON.parse(f.row_columns);
      } else if (outputs.length) {
        // OUT, INOUT or TABLE parameters: rows with named columns, even a single one (PostgREST's
        // rettype_is_composite).
        returns = "composite";
        columns = outputs.map((a) => ({
          name: a.name,
          type: a.type,
          base: a.base,
          category: a.category,
          generated: false,
          identity: false,
          default: null,
        }));
      }
      const fn: RpcFunction = {
        schema,
        name: f.name,
        description: f.description,
        inputs: inputs.map(({ name, type, base, mode }) => ({ name, type, base, mode })),
        defaults: Number(f.defaults),
        returnsSet: f.returns_set,
        volatility: f.volatility as RpcFunction["volatility"],
        returns,
        columns,
        byName: byName(columns),
        ...(f.return_table !== null && returns === "composite" ? { returnTable: f.return_table } : {}),
      };
      const list = functions.get(f.name) ?? [];
      list.push(fn);
      functions.set(f.name, list);
    }
    for (const list of functions.values()) list.sort(byOverloadOrder);
    const computedRelationships = await loadComputed(tx, schema, [schema, ...searchPath], tables);
    return { schema, tables, functions, foreignKeys, computedRelationships, fingerprint };
  });
}

/** The foreign keys between relations of `schema`, views included, and the views' primary keys. */
async function loadRelationships(tx: Sql, schema: string, viewSchemas: string[]) {
  const fks = (await tx.query<{
    name: string;
    table_oid: string;
    table_schema: string;
    table: string;
    ref_oid: string;
    ref_schema: string;
    ref_table: string;
    columns: string;
    ref_columns: string;
    one_to_one: boolean;
  }>(FOREIGN_KEYS_SQL)).rows.map((f): BaseForeignKey => ({
    name: f.name,
    tableOid: String(f.table_oid),
    tableSchema: f.table_schema,
    table: f.table,
    refOid: String(f.ref_oid),
    refSchema: f.ref_schema,
    refTable: f.ref_table,
    columns: JSON.parse(f.columns),
    refColumns: JSON.parse(f.ref_columns),
    oneToOne: f.one_to_one,
  }));
  const views = (await tx.query<{ oid: string; schema: string; name: string; definition: string; columns: string }>(
    VIEWS_SQL,
    [viewSchemas],
  )).rows.map((v): ViewDefinition => ({ ...v, oid: String(v.oid), columns: JSON.parse(v.columns) }));
  // Without a view in the schema, only its tables' own foreign keys count: no need for primary keys.
  const primaryKeys = views.some((v) => v.schema === schema) ?
    (await tx.query<{ table_oid: string; columns: string }>(PRIMARY_KEYS_SQL)).rows.map((k): BasePrimaryKey => ({
      tableOid: String(k.table_oid),
      columns: JSON.parse(k.columns),
    })) :
    [];
  return viewRelationships(schema, views, fks, primaryKeys);
}

/** Supabase's default extra search path (supabase/config.toml's [api] extra_search_path). */
const EXTRA_SEARCH_PATH = ["public", "extensions"];

/** Adds each table's computed fields to `tables`; answers the computed relationships. */
async function loadComputed(
  tx: Sql,
  schema: string,
  fieldSearchPath: string[],
  tables: Map<string, Table>,
): Promise<ComputedRelationship[]> {
  const rows = (await tx.query<{
    name: string;
    schema: string;
    table: string;
    returns_set: boolean;
    single_row: boolean;
    return_table: string | null;
    type: string;
    base: string;
    category: string;
  }>(COMPUTED_SQL, [schema])).rows;
  const relationships: ComputedRelationship[] = [];
  // Computed fields are found the way Postgres resolves `row.name`: along the request's search path.
  const rank = (s: string) => fieldSearchPath.indexOf(s);
  for (const r of rows) {
    const table = tables.get(r.table);
    if (!table) continue;
    if (r.return_table !== null) {
      relationships.push({
        schema: r.schema,
        function: r.name,
        table: r.table,
        target: r.return_table,
        toOne: !r.returns_set || r.single_row,
      });
      continue;
    }
    // Stricter than PostgREST, which reads any function through attribute notation: a set-returning
    // function is no field here.
    if (r.returns_set || rank(r.schema) < 0 || table.byName.has(r.name)) continue;
    table.computed ??= new Map();
    const known = table.computed.get(r.name);
    if (known && rank(known.schema) <= rank(r.schema)) continue;
    table.computed.set(r.name, {
      schema: r.schema,
      function: r.name,
      column: {
        name: r.name,
        type: r.type,
        base: r.base,
        category: r.category,
        generated: false,
        identity: false,
        default: null,
      },
    });
  }
  return relationships;
}

// Types a single unnamed parameter may have: the request body is passed whole as that value.
const UNNAMED_TYPES = new Set(["bytea", "json", "jsonb", "text", "xml"]);

/**
 * Whether rpc can call a function at all, as PostgREST's schema cache decides: every input named, or a
 * single unnamed one whose first input is one of UNNAMED_TYPES. The others are left out of the cache
 * (PGRST202, and no hint names them).
 */
function callable(inputs: RawArg[]): boolean {
  const unnamed = inputs.filter((a) => a.name === "").length;
  return unnamed === 0 || (unnamed === 1 && UNNAMED_TYPES.has(inputs[0].type));
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Overloads in PostgREST's order (its Ord instance of Routine), which PGRST203 lists them in: fewer
 * inputs first, then no description before a description, then the inputs by name and type.
 */
function byOverloadOrder(a: RpcFunction, b: RpcFunction): number {
  if (a.inputs.length !== b.inputs.length) return a.inputs.length - b.inputs.length;
  if ((a.description ?? null) !== (b.description ?? null)) {
    if (a.description == null) return -1;
    if (b.description == null) return 1;
    return compareText(a.description, b.description);
  }
  for (let i = 0; i < a.inputs.length; i++) {
    const d = compareText(a.inputs[i].name, b.inputs[i].name) || compareText(a.inputs[i].type, b.inputs[i].type);
    if (d) return d;
  }
  return 0;
}

function byName(columns: Column[]): Map<string, Column> {
  return new Map(columns.map((c) => [c.name, c]));
}

export interface CatalogCache {
  current(): Promise<Catalog>;
  /** Reloads when the schema changed since the last load; answers the (possibly new) catalog. */
  refreshIfChanged(): Promise<Catalog>;
  /** The table, looking again if it is not known yet. */
  table(name: string): Promise<{ table: Table | undefined; catalog: Catalog }>;
  functions(name: string): Promise<{ functions: RpcFunction[]; catalog: Catalog }>;
}

export function createCatalogCache(
  db: Db,
  schema = "public",
  searchPath: string[] = EXTRA_SEARCH_PATH,
  exposed: string[] = [schema],
): CatalogCache {
  let cached: Promise<Catalog> | null = null;
  let checking: Promise<Catalog> | null = null;
  const load = () => {
    const p = loadCatalog(db, schema, searchPath, exposed);
    cached = p;
    p.catch(() => {
      if (cached === p) cached = null;
    });
    return p;
  };
  const current = () => cached ?? load();
  const refreshIfChanged = () => {
    // Concurrent misses share one check.
    checking ??= (async () => {
      try {
        const known = await current();
        const now = (await db.query<{ fingerprint: string }>(FINGERPRINT_SQL, [schema])).rows[0].fingerprint;
        return now === known.fingerprint ? known : await load();
      } finally {
        checking = null;
      }
    })();
    return checking;
  };
  const lookup = async <T>(pick: (c: Catalog) => T | undefined) => {
    let catalog = await current();
    let found = pick(catalog);
    if (found === undefined) {
      catalog = await refreshIfChanged();
      found = pick(catalog);
    }
    return { found, catalog };
  };
  return {
    current,
    refreshIfChanged,
    async table(name) {
      const r = await lookup((c) => c.tables.get(name));
      return { table: r.found, catalog: r.catalog };
    },
    async functions(name) {
      const r = await lookup((c) => c.functions.get(name));
      return { functions: r.found ?? [], catalog: r.catalog };
    },
  };
}
