// A fresh database with the platform bootstrap and every migration applied, for one db-tier test file:
// in-memory PGlite (started from a migrated snapshot), or a new database on the machine's PostgreSQL
// (dropped afterwards). Everything below the test conveniences is the local backend's own code
// (supabase/local/db.ts and migrate.ts): the same connection wrappers, the same migration runner and
// the same asRole (role, JWT claims and per-role statement timeout set locally in a transaction, as
// PostgREST does), so Postgres row-level security decides and the db tier tests what the server runs.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import {
  asRole,
  type Db,
  openPostgres,
  type Sql as DbSql,
  type TypeParser,
  wrapPglite,
} from "../../supabase/local/db.ts";
import { bootstrap, migrate, type SqlFile } from "../../supabase/local/migrate.ts";
import { ADMIN_URL, createDatabase, postgresAvailable } from "./postgres.ts";

export type Kind = "pglite" | "postgres";
// Rows of arbitrary SQL: each test asserts the shape it expects, so the values stay untyped here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
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
  /** The local backend's Db underneath, for tests of its own behaviour. */
  readonly db: Db;
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

/** Rows as an array, the shape the db tests read. */
function rowsOf(sql: DbSql): Sql {
  return { query: async <T extends Row>(text: string, params?: unknown[]) => (await sql.query<T>(text, params)).rows };
}

/** The bootstrap and the migrations, read from disk. */
function sqlFiles(): { bootstrap: string; migrations: SqlFile[] } {
  const names = readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return {
    bootstrap: readFileSync(BOOTSTRAP, "utf8"),
    migrations: names.map((name) => ({ name, sql: readFileSync(join(MIGRATIONS, name), "utf8") })),
  };
}

async function migrateAll(db: Db, files = sqlFiles()): Promise<void> {
  await bootstrap(db, files.bootstrap);
  await migrate(db, files.migrations);
}

/**
 * PGlite's initdb costs seconds per instance, so the first test file to need a given set of SQL files
 * migrates a fresh instance and snapshots it; the others start from that snapshot. The snapshot is
 * keyed by the PGlite version and the bootstrap and migration texts, so any change migrates afresh.
 */
async function openPgliteDb(): Promise<Db> {
  const files = sqlFiles();
  const engine = JSON.parse(readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")).version;
  const key = createHash("sha256").update(JSON.stringify({ engine, files })).digest("hex").slice(0, 16);
  const snapshot = join(tmpdir(), `pc-db-pglite-${key}.tar`);
  const saved = existsSync(snapshot) ? readIfPresent(snapshot) : null;
  if (saved) {
    const pgl = new PGlite({ loadDataDir: new Blob([new Uint8Array(saved)]) });
    await pgl.waitReady;
    return wrapPglite(pgl);
  }
  const pgl = new PGlite();
  await pgl.waitReady;
  const db = wrapPglite(pgl);
  await migrateAll(db, files);
  const dump = Buffer.from(await (await pgl.dumpDataDir("none")).arrayBuffer());
  const stale = readdirSync(tmpdir()).filter((f) => f.startsWith("pc-db-pglite-") && !f.includes(key));
  for (const f of stale) rmSync(join(tmpdir(), f), { force: true });
  const partial = `${snapshot}.${process.pid}`;
  writeFileSync(partial, dump);
  renameSync(partial, snapshot);
  return db;
}

// Values parsed as PGlite parses them (bigint as a number, timestamps as Date, json as objects), so
// assertions read the same on both engines.
const TEST_TYPES: TypeParser = (oid, format) =>
  oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text");

function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null; // removed meanwhile by a run with other migrations: migrate from scratch
  }
}

let userCount = 0;

export async function openTestDb(kind: Kind): Promise<TestDb> {
  let db: Db;
  let url: string | null = null;
  let drop = async () => {};
  if (kind === "pglite") {
    db = await openPgliteDb();
  } else {
    const created = await createDatabase("pc_db");
    ({ url, drop } = created);
    db = openPostgres(created.url, { poolSize: 4, typeParser: TEST_TYPES });
    await migrateAll(db);
  }
  const owner = rowsOf(db);
  const as = <T>(actor: Actor, fn: (tx: Sql) => Promise<T>) => asRole(db, claimsOf(actor), (tx) => fn(rowsOf(tx)));
  return {
    kind,
    url,
    db,
    query: owner.query,
    as,
    run: (actor, text, params) => as(actor, (tx) => tx.query(text, params)),
    async createUser(opts = {}) {
      const email = `person-${Date.now().toString(36)}-${userCount++}@example.test`;
      const [row] = await owner.query<{ id: string }>(
        `insert into auth.users (email, raw_user_meta_data, email_confirmed_at) values ($1, $2, now()) returning id`,
        [email, JSON.stringify(opts.metadata ?? {})],
      );
      return { id: row.id, email, claims: { role: "authenticated", sub: row.id, email } };
    },
    async close() {
      await db.close();
      await drop();
    },
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
      const why = `skipped: no PostgreSQL answers at ${new URL(ADMIN_URL).host}`;
      describe.skip(why, () => body({ db: undefined as never, kind }));
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
/**
 * `count` people made on the suite's database before its tests, each filled in place (so a body may
 * declare `const [owner, stranger] = usersOf(ctx, 2)` and use them in its tests and hooks).
 */
export function usersOf(ctx: { readonly db: TestDb }, count: number): TestUser[] {
  const users = Array.from({ length: count }, () => ({}) as TestUser);
  beforeAll(async () => {
    for (const u of users) Object.assign(u, await ctx.db.createUser());
  });
  return users;
}

export async function sqlState(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? `no code: ${(e as Error).message}`;
  }
}
