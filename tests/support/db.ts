// A fresh database with the platform bootstrap and every migration applied, for one db-tier test file:
// in-memory PGlite (started from a migrated snapshot), or a new database on the machine's PostgreSQL
// (dropped afterwards). Tests act as anon, a signed-in user or service_role the way PostgREST does (and
// supabase/local/db.ts asRole): a transaction with the role and the JWT claims set locally, so that
// Postgres row-level security decides.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { ADMIN_URL, createDatabase, postgresAvailable } from "./postgres.ts";

export type Kind = "pglite" | "postgres";
export type Row = Record<string, any>;

export interface Sql {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<T[]>;
}

export type Claims = {
  role: "anon" | "authenticated" | "service_role";
  sub?: string;
  email?: string;
  [k: string]: unknown;
};

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

function wrapPglite(db: PGlite): Raw {
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

/**
 * PGlite's initdb costs seconds per instance, so the first test file to need a given set of SQL files
 * migrates a fresh instance and snapshots it; the others start from that snapshot. The snapshot is
 * keyed by the PGlite version and the bootstrap and migration texts, so any change migrates afresh.
 */
async function openPglite(): Promise<Raw> {
  const files = sqlFiles();
  const engine = JSON.parse(readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")).version;
  const key = createHash("sha256").update(JSON.stringify({ engine, files })).digest("hex").slice(0, 16);
  const snapshot = join(tmpdir(), `pc-db-pglite-${key}.tar`);
  const saved = existsSync(snapshot) ? readIfPresent(snapshot) : null;
  if (saved) {
    const db = new PGlite({ loadDataDir: new Blob([new Uint8Array(saved)]) });
    await db.waitReady;
    return wrapPglite(db);
  }
  const db = new PGlite();
  await db.waitReady;
  const raw = wrapPglite(db);
  await migrate(raw, files);
  const dump = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer());
  const stale = readdirSync(tmpdir()).filter((f) => f.startsWith("pc-db-pglite-") && !f.includes(key));
  for (const f of stale) rmSync(join(tmpdir(), f), { force: true });
  const partial = `${snapshot}.${process.pid}`;
  writeFileSync(partial, dump);
  renameSync(partial, snapshot);
  return raw;
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

function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null; // removed meanwhile by a run with other migrations: migrate from scratch
  }
}

/** bootstrap.sql, then each migration in name order. */
function sqlFiles(): { name: string; sql: string }[] {
  const migrations = readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return [
    { name: "bootstrap.sql", sql: readFileSync(BOOTSTRAP, "utf8") },
    ...migrations.map((name) => ({ name, sql: readFileSync(join(MIGRATIONS, name), "utf8") })),
  ];
}

/** Applies the bootstrap, then each migration in its own transaction, as supabase/local/migrate.ts does. */
async function migrate(raw: Raw, files = sqlFiles()): Promise<void> {
  const [bootstrap, ...migrations] = files;
  await raw.exec(bootstrap.sql);
  for (const { name, sql } of migrations) {
    try {
      await raw.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query("insert into local.schema_migrations (version, name) values ($1, $2)", [
          name.split("_")[0],
          name,
        ]);
      });
    } catch (e) {
      throw new Error(`migration ${name} failed: ${(e as Error).message}`);
    }
  }
}

let userCount = 0;

export async function openTestDb(kind: Kind): Promise<TestDb> {
  let raw: Raw & { url?: string };
  if (kind === "pglite") {
    raw = await openPglite();
  } else {
    raw = await openPostgres();
    await migrate(raw);
  }
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
    url: raw.url ?? null,
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
      label: postgresReady ? "postgres" : "postgres (skipped)",
      skip: !postgresReady,
    },
  ];
  describe.each(engines)(`${title} on $label`, ({ kind, skip }) => {
    if (skip) {
      describe.skip(`skipped: no PostgreSQL answers at ${new URL(ADMIN_URL).host}`, () =>
        body({ db: undefined as never, kind }));
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
