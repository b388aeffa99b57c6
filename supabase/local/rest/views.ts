// Relationships through views, found the way PostgREST's schema cache finds them (SchemaCache.hs,
// allViewsKeyDependencies and addViewM2OAndO2ORels): a view column that is a plain copy of a base
// table's column (the view's query names it, through other views too) carries that column's keys. A
// view showing every column of a foreign key, or every column it references, takes part in that
// foreign key's relationship in the table's stead; one showing a whole primary key gets it as its own.
// Where PostgREST reads the stored query tree with one long SQL expression, this reads the same tree's
// text (pg_rewrite.ev_action, the pg_node_tree format) with a small parser.
import type { ForeignKey } from "./catalog.ts";

/** A view of the schemas PostgREST reads views from (exposed ones and the extra search path). */
export interface ViewDefinition {
  oid: string;
  schema: string;
  name: string;
  /** pg_rewrite.ev_action of its `_RETURN` rule, as text. */
  definition: string;
  /** Its columns: [attnum, name]. */
  columns: Array<[number, string]>;
}

/** A foreign key of any schema, with its columns' attribute numbers (to match view columns). */
export interface BaseForeignKey {
  name: string;
  tableOid: string;
  tableSchema: string;
  table: string;
  refOid: string;
  refSchema: string;
  refTable: string;
  /** Pairs of [attnum, name], in the key's order. */
  columns: Array<[number, string]>;
  refColumns: Array<[number, string]>;
  oneToOne: boolean;
}

/** A primary key of any table: its oid and its columns' attribute numbers, in the key's order. */
export interface BasePrimaryKey {
  tableOid: string;
  columns: number[];
}

type Token = { text: string; key: boolean };

/**
 * The tokens of a pg_node_tree text: `{`, `}`, `(`, `)` and atoms (a backslash makes the next character
 * part of an atom, as Postgres's outToken writes them). A field name is an atom starting with an
 * unescaped `:`.
 */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\n" || c === "\t") {
      i++;
      continue;
    }
    if (c === "{" || c === "}" || c === "(" || c === ")") {
      out.push({ text: c, key: false });
      i++;
      continue;
    }
    const key = c === ":";
    let atom = "";
    while (i < text.length) {
      const d = text[i];
      if (d === "\\" && i + 1 < text.length) {
        atom += text[i + 1];
        i += 2;
        continue;
      }
      if (d === " " || d === "\n" || d === "\t" || d === "{" || d === "}" || d === "(" || d === ")") break;
      atom += d;
      i++;
    }
    out.push({ text: atom, key });
  }
  return out;
}

type Value = string | Value[] | TreeNode;
interface TreeNode {
  type: string;
  fields: Map<string, Value[]>;
}

/** Parses the value at `at[0]`, moving it past the value. */
function parseValue(t: Token[], at: { i: number }): Value {
  const tok = t[at.i++];
  if (tok.text === "(" && !tok.key) {
    const list: Value[] = [];
    while (at.i < t.length && t[at.i].text !== ")") list.push(parseValue(t, at));
    at.i++;
    return list;
  }
  if (tok.text === "{" && !tok.key) {
    const node: TreeNode = { type: t[at.i++]?.text ?? "", fields: new Map() };
    let current: Value[] | null = null;
    while (at.i < t.length && t[at.i].text !== "}") {
      if (t[at.i].key) {
        current = [];
        node.fields.set(t[at.i++].text.slice(1), current);
      } else {
        const v = parseValue(t, at);
        current?.push(v);
      }
    }
    at.i++;
    return node;
  }
  return tok.text;
}

const isNode = (v: Value | undefined): v is TreeNode => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Where each column of a view comes from: its attribute number → [table oid, attribute number] when the
 * view's query selects that column of a table (or view) as it is; absent for anything computed.
 */
function columnOrigins(definition: string): Map<number, [string, number]> {
  const out = new Map<number, [string, number]>();
  let tree: Value;
  try {
    tree = parseValue(tokens(definition), { i: 0 });
  } catch {
    return out;
  }
  const query = Array.isArray(tree) ? tree[0] : tree;
  if (!isNode(query)) return out;
  const list = query.fields.get("targetList")?.[0];
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    if (!isNode(entry)) continue;
    const field = (name: string) => entry.fields.get(name)?.[0];
    if (field("resjunk") === "true") continue;
    const resno = Number(field("resno"));
    const table = String(field("resorigtbl") ?? "0");
    const column = Number(field("resorigcol"));
    if (Number.isInteger(resno) && table !== "0" && Number.isInteger(column) && column > 0) {
      out.set(resno, [table, column]);
    }
  }
  return out;
}

/** What a view shows of base tables: `table oid:attnum` → the view's columns copying it, in column order. */
type Exposed = Map<string, string[]>;

function exposedColumns(views: ViewDefinition[]): Map<string, Exposed> {
  const origins = new Map(views.map((v) => [v.oid, columnOrigins(v.definition)]));
  const out = new Map<string, Exposed>();
  for (const v of views) {
    const exposed: Exposed = new Map();
    for (const [attnum, name] of v.columns) {
      let origin = origins.get(v.oid)?.get(attnum);
      // Through views on views, to the base table (a cycle or a long chain gives up).
      for (let hops = 0; origin && origins.has(origin[0]) && hops < 32; hops++) {
        origin = origins.get(origin[0])!.get(origin[1]);
      }
      if (!origin) continue;
      const k = `${origin[0]}:${origin[1]}`;
      exposed.set(k, [...(exposed.get(k) ?? []), name]);
    }
    out.set(v.oid, exposed);
  }
  return out;
}

/**
 * Every way a view shows all of `columns` of table `oid`: one list of view column names per way (a
 * column the view shows twice gives two ways); none when it misses a column.
 */
function showings(exposed: Exposed | undefined, oid: string, columns: number[]): string[][] {
  if (!exposed) return [];
  let ways: string[][] = [[]];
  for (const c of columns) {
    const names = exposed.get(`${oid}:${c}`);
    if (!names) return [];
    ways = ways.flatMap((w) => names.map((n) => [...w, n]));
  }
  return ways;
}

/**
 * The foreign keys between relations of `schema`: its tables' own, then, for each foreign key of any
 * schema, the ones its views take part in (view to table, table to view, view to view), as PostgREST
 * adds them. Also answers the primary keys the views of `schema` get from the tables they show.
 */
export function viewRelationships(
  schema: string,
  views: ViewDefinition[],
  foreignKeys: BaseForeignKey[],
  primaryKeys: BasePrimaryKey[],
): { foreignKeys: ForeignKey[]; viewPrimaryKeys: Map<string, string[]> } {
  const exposed = exposedColumns(views);
  const mine = views.filter((v) => v.schema === schema);
  const names = (cols: Array<[number, string]>) => cols.map((c) => c[1]);
  const nums = (cols: Array<[number, string]>) => cols.map((c) => c[0]);
  const out: ForeignKey[] = [];
  for (const fk of foreignKeys) {
    const base = { name: fk.name, oneToOne: fk.oneToOne };
    if (fk.tableSchema === schema && fk.refSchema === schema) {
      out.push({
        ...base,
        table: fk.table,
        columns: names(fk.columns),
        refTable: fk.refTable,
        refColumns: names(fk.refColumns),
      });
    }
    const fromViews = mine.flatMap((v) =>
      showings(exposed.get(v.oid), fk.tableOid, nums(fk.columns)).map((cols) => ({ view: v.name, cols }))
    );
    const toViews = mine.flatMap((v) =>
      showings(exposed.get(v.oid), fk.refOid, nums(fk.refColumns)).map((cols) => ({ view: v.name, cols }))
    );
    if (fk.refSchema === schema) {
      for (const f of fromViews) {
        out.push({
          ...base,
          table: f.view,
          columns: f.cols,
          refTable: fk.refTable,
          refColumns: names(fk.refColumns),
          tableIsView: true,
        });
      }
    }
    if (fk.tableSchema === schema) {
      for (const t of toViews) {
        out.push({
          ...base,
          table: fk.table,
          columns: names(fk.columns),
          refTable: t.view,
          refColumns: t.cols,
          refIsView: true,
        });
      }
    }
    for (const f of fromViews) {
      for (const t of toViews) {
        out.push({
          ...base,
          table: f.view,
          columns: f.cols,
          refTable: t.view,
          refColumns: t.cols,
          tableIsView: true,
          refIsView: true,
        });
      }
    }
  }
  // A view's primary key: the columns of every primary key it shows whole, the first showing of each.
  const viewPrimaryKeys = new Map<string, string[]>();
  for (const v of mine) {
    const pk = primaryKeys.flatMap((k) => {
      const cols = k.columns.map((c) => exposed.get(v.oid)?.get(`${k.tableOid}:${c}`)?.[0]);
      return cols.every((c) => c !== undefined) ? (cols as string[]) : [];
    });
    if (pk.length) viewPrimaryKeys.set(v.name, pk);
  }
  return { foreignKeys: out, viewPrimaryKeys };
}
