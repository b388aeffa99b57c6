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
  /**
   * Runs `fn` in a transaction. `setup`, a script of statements with no parameters, is sent with the
   * BEGIN as one call (one round trip to Postgres, one call into PGlite) and runs before `fn`.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>, setup?: string): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Claims of a verified JWT (or the implied anon claims when there is none). */
export type Claims = { role: string; sub?: string; [key: string]: unknown };

/** The roles a request may act as; any other role in a verified token is refused before SQL. */
export const DB_ROLES: ReadonlySet<string> = new Set(["anon", "authenticated", "service_role"]);

// Supabase's per-role statement timeouts, so one expensive anonymous query cannot hold the database.
const STATEMENT_TIMEOUT: Record<string, string> = { anon: "3s", authenticated: "8s", service_role: "0" };

/** What a transaction acting as a role also sets: read-only access, and settings local to it. */
interface RoleOptions {
  readOnly?: boolean;
  /** Settings (search_path, ...) set with is_local, as the role's own are. */
  settings?: Record<string, string>;
}

/**
 * Runs `fn` in a transaction acting as the JWT's role with `request.jwt.claims` set, exactly what
 * PostgREST does before each request. Unknown roles are refused before any SQL runs. The role and its
 * settings travel with the BEGIN as one script of literals: on PGlite, whose one thread serves every
 * request in turn, each call is work all the others wait for, and on Postgres each is a round trip.
 */
export function asRole<T>(db: Db, claims: Claims, fn: (tx: Sql) => Promise<T>, opts: RoleOptions = {}): Promise<T> {
  if (!DB_ROLES.has(claims.role)) return Promise.reject(new Error(`unknown role ${claims.role}`));
  const settings: [string, string][] = [
    ["role", claims.role],
    ["request.jwt.claims", JSON.stringify(claims)],
    ["request.jwt.claim.role", claims.role],
    ["statement_timeout", STATEMENT_TIMEOUT[claims.role]],
    ...Object.entries(opts.settings ?? {}),
  ];
  const mode = opts.readOnly ? "set transaction read only; " : "";
  const sub = claims.sub ?? "";
  // A subject that is not plain text (or holds a NUL, which no SQL text may) goes as a parameter, as it
  // always did, so Postgres converts or refuses it with its own error.
  if (typeof sub !== "string" || sub.includes("\0")) {
    return db.transaction(async (tx) => {
      await tx.query("select set_config('request.jwt.claim.sub', $1, true)", [sub]);
      return await fn(tx);
    }, mode + setConfigs(settings));
  }
  return db.transaction(fn, mode + setConfigs([...settings, ["request.jwt.claim.sub", sub]]));
}

/** One statement setting each name to its value for the transaction only. */
function setConfigs(settings: [string, string][]): string {
  const calls = settings.map(([name, value]) => `set_config(${literal(name)}, ${literal(value)}, true)`);
  return `select ${calls.join(", ")}`;
}

/**
 * A string constant of any text without NUL. The escape-string form reads the same whatever the
 * server's standard_conforming_strings, so no value can end the constant early.
 */
function literal(value: string): string {
  return `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

export interface DbOptions {
  /** PGlite's files (absent: in memory). Ignored when databaseUrl is set. */
  dataDir?: string;
  databaseUrl?: string;
  /** Connections in the Postgres pool. */
  poolSize?: number;
}

/**
 * PGlite's engine recurses on the JavaScript engine's stack (about 1 MB), which Postgres does not
 * measure: at Postgres's default max_stack_depth (2 MB) a deep text-search query or expression overflows
 * it and breaks the instance. Below it, Postgres raises its own 54001 first, as it does on a server
 * (docs/decisions/125-hostile-queries-are-bounded-before-sql.md).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "max_stack_depth=512kB"];

export async function openDb(opts: DbOptions): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, { poolSize: opts.poolSize });
  const dataDir = opts.dataDir;
  const open = async () => {
    const pgl = new PGlite({ dataDir, startParams: PGLITE_START_PARAMS });
    await pgl.waitReady;
    return pgl;
  };
  // In memory there is nothing to re-open from: a broken instance then fails fast instead.
  return wrapPglite(await open(), dataDir ? open : undefined);
}

/**
 * Thrown instead of running SQL on a PGlite instance found broken. 57P01 is what Postgres says when an
 * administrator ends a session, and PostgREST answers it 503: the caller may retry.
 */
export class DatabaseUnavailable extends Error {
  readonly code = "57P01";
  constructor(message = "The embedded database stopped after an internal error and is being re-opened") {
    super(message);
  }
}

/**
 * Whether PGlite answered a statement in a way that means its WebAssembly instance is no longer sound:
 * a result with no command tag (Postgres neither completed nor reported an error: its stack overflowed
 * into memory it does not own), an internal error, or a WebAssembly trap. See docs/decisions/064-broken-pglite-instance-is-reopened.md.
 */
function brokenResult(r: { command?: string }): boolean {
  return typeof r.command !== "string";
}
function brokenError(e: unknown): boolean {
  if (e instanceof WebAssembly.RuntimeError) return true;
  const x = e as { code?: unknown; name?: unknown; message?: unknown };
  if (x?.name === "RuntimeError") return true;
  // XX000 is Postgres' internal_error ("bad buffer ID", "unexpected ... state"): never caller-caused.
  return x?.code === "XX000";
}

/**
 * Statement parameters reach PGlite as text, as node-postgres sends them, so that Postgres parses
 * them and reports a bad value with its own SQLSTATE (PGlite's own serializers throw plain Errors,
 * e.g. for a boolean column compared to "maybe").
 */
function textSerializers(pgl: PGlite): Record<number, (v: unknown) => string> {
  const own = pgl.serializers as Record<number, (v: unknown) => string>;
  return new Proxy({} as Record<number, (v: unknown) => string>, {
    get: (_t, key) => {
      const base = own[Number(key)];
      return (v: unknown) => (typeof v === "string" ? v : base ? base(v) : String(v));
    },
  });
}

/**
 * The Db interface over an open PGlite instance (the caller may have loaded it from a snapshot).
 * `reopen`, when given, opens the same database again: used when the instance is found broken.
 */
export function wrapPglite(first: PGlite, reopen?: () => Promise<PGlite>): Db {
  let pgl = first;
  let serializers = textSerializers(pgl);
  // Every statement and transaction takes this lock, so a broken instance is never used again once
  // found and nothing runs while it is replaced.
  let lock: Promise<unknown> = Promise.resolve();
  let broken = false;
  let reopening: Promise<void> | null = null;
  const listeners = new Set<{ channel: string; onPayload: (p: string) => void; unsub: () => Promise<void> }>();

  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = lock.then(async () => {
      if (reopening) await reopening.catch(() => {});
      if (broken) throw new DatabaseUnavailable();
      return await fn();
    });
    lock = run.catch(() => {});
    return run;
  };

  /** Marks the instance broken and replaces it (from its data directory) in the background. */
  const fail = (cause: unknown): never => {
    if (!broken) {
      broken = true;
      console.error(`[local] PGlite instance broken (${String((cause as Error)?.message ?? cause)}); re-opening`);
      if (reopen) {
        const old = pgl;
        reopening = (async () => {
          // close() of a broken instance might never settle; it is abandoned after a second.
          await Promise.race([old.close().catch(() => {}), new Promise((r) => setTimeout(r, 1000))]);
          pgl = await reopen();
          serializers = textSerializers(pgl);
          for (const l of listeners) l.unsub = await pgl.listen(l.channel, l.onPayload);
          broken = false;
        })()
          .catch((e) => console.error(`[local] PGlite could not be re-opened: ${String(e)}`))
          .finally(() => (reopening = null));
      }
    }
    throw new DatabaseUnavailable();
  };

  type Runner = { query: PGlite["query"]; exec: PGlite["exec"] };
  const wrap = (q: () => Runner): Sql => ({
    async query<T extends Row>(text: string, params: unknown[] = []) {
      let r;
      try {
        r = await q().query<T>(text, params, { serializers });
      } catch (e) {
        if (brokenError(e)) fail(e);
        throw e;
      }
      if (brokenResult(r as { command?: string })) fail("a statement ended with neither a result nor an error");
      return { rows: r.rows };
    },
    async exec(text: string) {
      let rs;
      try {
        rs = await q().exec(text);
      } catch (e) {
        if (brokenError(e)) fail(e);
        throw e;
      }
      if (rs.some((r) => brokenResult(r as { command?: string }))) fail("a script ended without a result");
    },
  });
  const direct = wrap(() => pgl);
  return {
    kind: "pglite",
    query: (text, params) => exclusive(() => direct.query(text, params)),
    exec: (text) => exclusive(() => direct.exec(text)),
    // Begin, commit and rollback are run here rather than by pgl.transaction so that nothing more runs
    // on an instance found broken in the middle of a transaction (not even its rollback).
    transaction: <T>(fn: (tx: Sql) => Promise<T>, setup?: string) =>
      exclusive(async () => {
        try {
          await direct.exec(setup ? `begin; ${setup}` : "begin");
          const out = await fn(direct);
          await direct.exec("commit");
          return out;
        } catch (e) {
          if (!broken) await direct.exec("rollback").catch(() => {});
          throw e;
        }
      }),
    async listen(channel, onPayload) {
      const l = { channel, onPayload, unsub: await pgl.listen(channel, onPayload) };
      listeners.add(l);
      return async () => {
        listeners.delete(l);
        await l.unsub();
      };
    },
    close: async () => {
      await reopening?.catch(() => {});
      await pgl.close();
    },
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
    async transaction<T>(fn: (tx: Sql) => Promise<T>, setup?: string) {
      const client = await pool.connect();
      try {
        await client.query(setup ? `begin; ${setup}` : "begin");
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
