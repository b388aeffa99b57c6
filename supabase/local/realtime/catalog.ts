// What realtime needs to know about a published table, read once from the Postgres catalog: its
// columns and their type names (sent with every change, the client converts values by them), its
// primary key (used to re-read a row as the subscriber), which columns each API role may select, and
// whether it has a user_id column (the DELETE delivery rule, see change-feed.ts).
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
  hasUserId: boolean;
  /** REPLICA IDENTITY FULL: updates carry the whole old row, as Supabase Realtime sends then. */
  replicaFull: boolean;
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
              c.relreplident::text as replident
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       join pg_type t on t.oid = a.atttypid
       left join pg_index i on i.indrelid = c.oid and i.indisprimary
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
    return {
      schema,
      table,
      columns,
      primaryKey: rows.filter((r) => r.pk).map((r) => r.name),
      hasUserId: rows.some((r) => r.name === "user_id"),
      replicaFull: rows[0].replident === "f",
      selectable,
    };
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
