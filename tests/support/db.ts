// A fresh database with the platform bootstrap and every migration applied, for one db-tier test file:
// in-memory PGlite, or a new database on the machine's PostgreSQL (dropped afterwards). Tests act as
// anon, a signed-in user or service_role the way PostgREST does (and supabase/local/db.ts asRole):
// a transaction with the role and the JWT claims set locally, so Postgres row-level security decides.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { ADMIN_URL, createDatabase, postgresAvailable } from "./postgres.ts";

export type Kind = "pglite" | "postgres";
export type Row = Record<string, any>;

export interface Sql {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<T[]>;
}

export type Claims = { role: "anon" | "authenticated" | "service_role"; sub?: string; email?: string; [k: string]: unknown };

export interface TestUser {
  id: string;
  email: string;
  claims: Claims;
}

/** Who runs a statement: the platform's anon or service key, or a signed-in user. */
export type Actor = "anon" | "service" | TestUser;

export interface TestDb extends Sql {
  readonly kind: Kind;
  /** Connection string of the database (postgres only), for tests that need separate connections. */
  readonly url: string | null;
  /** Runs `fn` in one transaction acting as `actor`; `query` on the TestDb itself runs as the owner (postgres). */
  as<T>(actor: Actor, fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** One statement as `actor`. */
  run<T extends Row = Row>(actor: Actor, text: string, params?: unknown[]): Promise<T[]>;
  /** A new row in auth.users, as the auth service makes at sign-up (the new-user trigger runs). */
  createUser(opts?: { metadata?: Record<string, unknown> }): Promise<TestUser>;
  close(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, "../..");
const BOOTSTRAP = join(ROOT, "supabase/local/bootstrap.sql");
const MIGRATIONS = join(ROOT, "supabase/migrations");

export const ANON: Claims = { role: "anon" };
export const SERVICE: Claims = { role: "service_role" };

export function claimsOf(actor: Actor): Claims {
  if (actor === "anon") return ANON;
  if (actor === "service") return SERVICE;
  return actor.claims;
}

interface Tx extends Sql {
  /** A script of several statements with no parameters. */
  exec(sql: string): Promise<void>;
}

interface Raw extends Tx {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openPglite(): Promise<Raw> {
  // bootstrap.sql creates pgcrypto, as the platform has it; PGlite ships it as a loadable extension.
  const db = new PGlite({ extensions: { pgcrypto } });
  await db.waitReady;
  const wrap = (q: { query: PGlite["query"]; exec: PGlite["exec"] }): Tx => ({
    async query<T extends Row>(text: string, params: unknown[] = []) {
      return (await q.query<T>(text, params)).rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}

// bigint as a number, as PGlite returns it, so assertions read the same on both engines.
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text"),
};

async function openPostgres(): Promise<Raw & { url: string }> {
  const { url, drop } = await createDatabase("pc_db");
  const pool = new pg.Pool({ connectionString: url, max: 4, types });
  const wrap = (c: pg.Pool | pg.PoolClient): Tx => ({
    async query<T extends Row>(text: string, params: unknown[] = []) {
      return (await c.query(text, params)).rows as T[];
    },
    async exec(sql: string) {
      await c.query(sql);
    },
  });
  return {
    url,
    ...wrap(pool),
    async transaction<T>(fn: (tx: Tx) => Promise<T>) {
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
    async close() {
      await pool.end();
      await drop();
    },
  };
}

/** The bootstrap, then each migration in name order in its own transaction, as supabase/local/migrate.ts. */
async function migrate(raw: Raw): Promise<void> {
  await raw.exec(readFileSync(BOOTSTRAP, "utf8"));
  const files = readdirSync(MIGRATIONS).filter((f) => f.endsWith(".sql")).sort();
  for (const file of files) {
    const sql = readFileSync(join(MIGRATIONS, file), "utf8");
    try {
      await raw.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query("insert into local.schema_migrations (version, name) values ($1, $2)", [file.split("_")[0], file]);
      });
    } catch (e) {
      throw new Error(`migration ${file} failed: ${(e as Error).message}`);
    }
  }
}

let userCount = 0;

export async function openTestDb(kind: Kind): Promise<TestDb> {
  const raw = kind === "pglite" ? await openPglite() : await openPostgres();
  await migrate(raw);
  const as = <T>(actor: Actor, fn: (tx: Sql) => Promise<T>) => {
    const claims = claimsOf(actor);
    return raw.transaction(async (tx) => {
      await tx.query(
        `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true)`,
        [claims.role, JSON.stringify(claims), claims.sub ?? ""],
      );
      return await fn(tx);
    });
  };
  return {
    kind,
    url: "url" in raw ? raw.url : null,
    query: raw.query,
    as,
    run: (actor, text, params) => as(actor, (tx) => tx.query(text, params)),
    async createUser(opts = {}) {
      const email = `person-${Date.now().toString(36)}-${userCount++}@example.test`;
      const [row] = await raw.query<{ id: string }>(
        `insert into auth.users (email, raw_user_meta_data, email_confirmed_at) values ($1, $2, now()) returning id`,
        [email, JSON.stringify(opts.metadata ?? {})],
      );
      return { id: row.id, email, claims: { role: "authenticated", sub: row.id, email } };
    },
    close: raw.close,
  };
}

const postgresReady = await postgresAvailable();

/**
 * Declares the suite once per engine, each with its own fresh database. On a machine with no
 * PostgreSQL the postgres run is skipped, and its title says why.
 */
export function describeDb(title: string, body: (ctx: { readonly db: TestDb; readonly kind: Kind }) => void): void {
  const engines = [
    { kind: "pglite" as Kind, label: "pglite", skip: false },
    {
      kind: "postgres" as Kind,
      label: postgresReady ? "postgres" : `postgres (skipped: no PostgreSQL at ${ADMIN_URL})`,
      skip: !postgresReady,
    },
  ];
  describe.each(engines)(`${title} on $label`, ({ kind, skip }) => {
    if (skip) {
      describe.skip("needs PostgreSQL", () => body({ db: undefined as never, kind }));
      return;
    }
    let db: TestDb | undefined;
    beforeAll(async () => {
      db = await openTestDb(kind);
    });
    afterAll(async () => {
      await db?.close();
    });
    body({
      get db() {
        if (!db) throw new Error("database not open");
        return db;
      },
      kind,
    });
  });
}

/** The SQLSTATE of a failed statement, or null when it succeeded. */
export async function sqlState(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? `no code: ${(e as Error).message}`;
  }
}
