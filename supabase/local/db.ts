// The database behind the local backend: embedded PGlite (default, files under DATA_DIR) or a real
// Postgres (DATABASE_URL). Both are reached through one small interface so that every other module of
// the local backend is written once. Every request runs inside `asRole`, a transaction that takes the
// JWT's role and claims the way PostgREST does, so Postgres row-level security decides what is seen.
// Runtime-neutral (no Deno or Node globals): the server runs it under Deno, the db and backend test
// tiers under Node, so both exercise this one implementation.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export type Row = Record<string, unknown>;

export interface Sql {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements with no parameters. */
  exec(text: string): Promise<void>;
}

export interface Db extends Sql {
  readonly kind: "pglite" | "postgres";
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Claims of a verified JWT (or the implied anon claims when there is none). */
export type Claims = { role: string; sub?: string; [key: string]: unknown };

const ROLES = new Set(["anon", "authenticated", "service_role"]);

// Supabase's per-role statement timeouts, so one expensive anonymous query cannot hold the database.
const STATEMENT_TIMEOUT: Record<string, string> = { anon: "3s", authenticated: "8s", service_role: "0" };

/**
 * Runs `fn` in a transaction acting as the JWT's role with `request.jwt.claims` set, exactly what
 * PostgREST does before each request. Unknown roles are refused before any SQL runs.
 */
export function asRole<T>(db: Db, claims: Claims, fn: (tx: Sql) => Promise<T>): Promise<T> {
  if (!ROLES.has(claims.role)) return Promise.reject(new Error(`unknown role ${claims.role}`));
  return db.transaction(async (tx) => {
    await tx.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
              set_config('statement_timeout', $4, true)`,
      [claims.role, JSON.stringify(claims), claims.sub ?? "", STATEMENT_TIMEOUT[claims.role]],
    );
    return await fn(tx);
  });
}

export interface DbOptions {
  /** PGlite's files (absent: in memory). Ignored when databaseUrl is set. */
  dataDir?: string;
  databaseUrl?: string;
  /** Connections in the Postgres pool. */
  poolSize?: number;
}

export async function openDb(opts: DbOptions): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, { poolSize: opts.poolSize });
  const pgl = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  await pgl.waitReady;
  return wrapPglite(pgl);
}

/** The Db interface over an open PGlite instance (the caller may have loaded it from a snapshot). */
export function wrapPglite(pgl: PGlite): Db {
  const wrap = (q: { query: PGlite["query"]; exec: PGlite["exec"] }): Sql => ({
    async query<T extends Row>(text: string, params: unknown[] = []) {
      const r = await q.query<T>(text, params);
      return { rows: r.rows };
    },
    async exec(text: string) {
      await q.exec(text);
    },
  });
  const base = wrap(pgl);
  return {
    kind: "pglite",
    ...base,
    transaction: <T>(fn: (tx: Sql) => Promise<T>) => pgl.transaction((tx) => fn(wrap(tx))) as Promise<T>,
    async listen(channel, onPayload) {
      const unsub = await pgl.listen(channel, onPayload);
      return async () => await unsub();
    },
    close: () => pgl.close(),
  };
}

/** How a column's text becomes a value: for a type oid, a parser. */
export type TypeParser = (oid: number, format?: string) => (value: string) => unknown;

// The server keeps timestamps and json as Postgres text (the modules ask Postgres for JSON text
// themselves) and parses numbers and booleans only.
const SERVER_TYPES: TypeParser = (oid, format) =>
  [20, 21, 23, 700, 701, 1700, 16].includes(oid) ? pg.types.getTypeParser(oid, format as "text") : (v: string) => v;

export interface PostgresOptions {
  poolSize?: number;
  typeParser?: TypeParser;
}

export function openPostgres(url: string, opts: PostgresOptions = {}): Db {
  const types = { getTypeParser: opts.typeParser ?? SERVER_TYPES };
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types: types as pg.CustomTypesConfig });
  // An idle connection that the server ends (a restart, an administrator's terminate, a database dropped
  // while the pool closes) is an error event of the pool; without a listener Node would end the process.
  // The pool drops that connection and opens another on the next query, so noting it is enough.
  pool.on("error", (e) => console.warn(`[local] idle database connection ended: ${e.message}`));
  const wrap = (c: pg.Pool | pg.PoolClient): Sql => ({
    async query<T extends Row>(text: string, params: unknown[] = []) {
      const r = await c.query(text, params);
      return { rows: r.rows as T[] };
    },
    async exec(text: string) {
      await c.query(text);
    },
  });
  const listeners: { end(): Promise<void> }[] = [];
  return {
    kind: "postgres",
    ...wrap(pool),
    async transaction<T>(fn: (tx: Sql) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const out = await fn(wrap(client));
        await client.query("commit");
        return out;
      } catch (e) {
        await client.query("rollback").catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      // A dedicated connection per channel, re-opened (and re-LISTENed) if it drops, so realtime
      // does not go silent after a database restart.
      let client: pg.Client | null = null;
      let closed = false;
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url });
        let dropped = false;
        const onDrop = () => {
          if (dropped || closed) return;
          dropped = true;
          if (client === c) client = null;
          c.end().catch(() => {});
          setTimeout(() => connect().catch(() => {}), 1000);
        };
        c.on("notification", (n) => n.channel === channel && onPayload(n.payload ?? ""));
        c.on("error", onDrop);
        c.on("end", onDrop);
        client = c;
        try {
          await c.connect();
          await c.query(`listen ${quoteIdent(channel)}`);
        } catch (e) {
          onDrop();
          throw e;
        }
      };
      try {
        await connect();
      } catch (e) {
        closed = true;
        throw e;
      }
      const handle = {
        end: async () => {
          closed = true;
          await client?.end().catch(() => {});
        },
      };
      listeners.push(handle);
      return handle.end;
    },
    async close() {
      await Promise.all(listeners.map((l) => l.end()));
      await pool.end();
    },
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
