// What realtime needs to know about a published table, read once from the Postgres catalog: its
// columns and their type names (sent with every change, the client converts values by them), its
// primary key (used to re-read a row as the subscriber), which columns each API role may select, its
// replica identity (which old values a change carries) and whether row level security is on (the
// DELETE delivery rule, see change-feed.ts).
import type { Db } from "../db.ts";

export interface Column {
  name: string;
  type: string;
}

export interface TableInfo {
  schema: string;
  table: string;
  columns: Column[];
  primaryKey: string[];
  /**
   * The columns whose old values an UPDATE or DELETE carries in the write-ahead log, which is all
   * Supabase Realtime can know of the old row: the primary key (REPLICA IDENTITY DEFAULT), every
   * column (FULL), the replica identity index's columns (USING INDEX) or none (NOTHING).
   */
  identity: string[];
  /** Row level security is enabled: a DELETE then shows only the primary key, to every subscriber. */
  rls: boolean;
  /** Columns the role may select; a role missing here may select none. */
  selectable: Record<string, Column[]>;
}

export const API_ROLES = ["anon", "authenticated", "service_role"] as const;

type CatalogRow = {
  name: string;
  type: string;
  pk: boolean;
  anon: boolean;
  authenticated: boolean;
  service_role: boolean;
  replident: string;
  ident_index: boolean;
  rls: boolean;
};

export interface Catalog {
  get(schema: string, table: string): Promise<TableInfo | null>;
  published(): Promise<{ schema: string; table: string }[]>;
}

export function createCatalog(db: Db): Catalog {
  const cache = new Map<string, Promise<TableInfo | null>>();

  async function load(schema: string, table: string): Promise<TableInfo | null> {
    const { rows } = await db.query<CatalogRow>(
      `select a.attname::text as name, t.typname::text as type,
              coalesce(a.attnum = any(i.indkey), false) as pk,
              has_column_privilege('anon', c.oid, a.attnum, 'SELECT') as anon,
              has_column_privilege('authenticated', c.oid, a.attnum, 'SELECT') as authenticated,
              has_column_privilege('service_role', c.oid, a.attnum, 'SELECT') as service_role,
              c.relreplident::text as replident,
              coalesce(a.attnum = any(ri.indkey), false) as ident_index,
              c.relrowsecurity as rls
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       join pg_type t on t.oid = a.atttypid
       left join pg_index i on i.indrelid = c.oid and i.indisprimary
       left join pg_index ri on ri.indrelid = c.oid and ri.indisreplident
       where n.nspname = $1 and c.relname = $2
       order by a.attnum`,
      [schema, table],
    );
    if (!rows.length) return null;
    const columns = rows.map((r) => ({ name: r.name, type: r.type }));
    const selectable: Record<string, Column[]> = {};
    for (const role of API_ROLES) {
      selectable[role] = rows.filter((r) => r[role]).map((r) => ({ name: r.name, type: r.type }));
    }
    const primaryKey = rows.filter((r) => r.pk).map((r) => r.name);
    const replident = rows[0].replident;
    const identity = replident === "f" ?
      columns.map((c) => c.name) :
      replident === "n" ?
      [] :
      replident === "i" ?
      rows.filter((r) => r.ident_index).map((r) => r.name) :
      primaryKey;
    return { schema, table, columns, primaryKey, identity, rls: rows[0].rls, selectable };
  }

  return {
    get(schema, table) {
      const key = `${schema}.${table}`;
      let p = cache.get(key);
      if (!p) {
        p = load(schema, table);
        cache.set(key, p);
        p.catch(() => cache.delete(key));
      }
      return p;
    },
    async published() {
      const { rows } = await db.query<{ schema: string; table: string }>(
        `select schemaname::text as schema, tablename::text as "table" from pg_publication_tables
         where pubname = 'supabase_realtime' order by 1, 2`,
      );
      return rows;
    },
  };
}
