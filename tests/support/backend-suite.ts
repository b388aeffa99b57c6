// A backend-tier suite written once: one `describe` per database in BACKEND_TARGETS, with a backend
// started before its tests and stopped after them, and the people and clients most suites act as.
// What the suite's body is handed exists before the backend does: it is filled in place when the
// suite's `beforeAll` has started the backend (a client is made on first use), so a body declares
// `const { owner, anon } = castFor(b)` once instead of a `let` and an assignment for each.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe } from "vitest";
import { type Backend, startBackend } from "./backend.ts";
import { BACKEND_TARGETS, startBackendOn } from "./backend-targets.ts";
import { anonClient, newUser, type NewUser, serviceClient } from "./clients.ts";
import { type FixtureMigration, startBackendWithFixture } from "./fixture-migrations.ts";

/** One row of BACKEND_TARGETS: the database a suite runs on. */
type BackendTarget = (typeof BACKEND_TARGETS)[number];

/** How a suite's backend is started. */
interface BackendOptions {
  /** Names the PostgreSQL database made for the suite. */
  prefix: string;
  /** The backend's environment beyond the tests' defaults. */
  env?: Record<string, string>;
  /** The suite's own migration, run after the product's. */
  fixture?: FixtureMigration;
  /** How long starting the backend may take; 120 s unless said. */
  timeout?: number;
}

/** Whether the backend `b` handed to a suite has been started (it is not on a skipped database). */
export const started = (b: Backend): boolean => typeof b.url === "string";

/** The database name prefix of a suite started with `fixture` alone: the fixture's name, timestamp left out. */
const prefixOf = (fixture: FixtureMigration) => fixture.file.replace(/^\d+_/, "").replace(/\.sql$/, "");

/**
 * `describe.each(BACKEND_TARGETS)(title, …)` with the suite's backend: `body` gets it (filled in place
 * before the tests run; on a database with no server the suite is skipped, as its title says). `opts` is
 * how the backend is started, or only the suite's fixture migration.
 */
export function describeOnBackends(
  title: string,
  opts: BackendOptions | FixtureMigration,
  body: (b: Backend, target: BackendTarget) => void,
): void {
  const { prefix, env, fixture, timeout }: BackendOptions =
    "sql" in opts ? { prefix: prefixOf(opts), fixture: opts } : opts;
  describe.each(BACKEND_TARGETS)(title, (target) => {
    const { postgres, skip } = target;
    const b = useBackend(async () => {
      if (skip) return null;
      return fixture
        ? await startBackendWithFixture(postgres, prefix, fixture, env)
        : await startBackendOn(postgres, prefix, env);
    }, timeout);
    body(b, target);
  });
}

/**
 * The backend `start` gives (none when it gives null) before the enclosing suite's tests, stopped after
 * them; the object returned is filled in place once it has started.
 */
export function useBackend(start: () => Promise<Backend | null> = () => startBackend(), timeout = 120_000): Backend {
  const b = {} as Backend;
  beforeAll(async () => {
    const made = await start();
    if (made) Object.assign(b, made);
  }, timeout);
  afterAll(async () => {
    if (started(b)) await b.stop();
  });
  return b;
}

/**
 * A `T` that `make` creates on first use: each property read goes to that one instance (methods bound
 * to it). For a client of a backend that is started after the suite's body has run.
 */
export function lazy<T extends object>(make: () => T): T {
  let made: T | undefined;
  const real = () => (made ??= make());
  return new Proxy({} as T, {
    get(_, key) {
      const value = Reflect.get(real(), key);
      return typeof value === "function" ? value.bind(real()) : value;
    },
    has: (_, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/** A visitor (the anon key alone) and the server (the service role, as the edge functions act) on `b`. */
export function clientsFor(b: Backend): { anon: SupabaseClient; server: SupabaseClient } {
  return { anon: lazy(() => anonClient(b)), server: lazy(() => serviceClient(b)) };
}

/**
 * People signed up on `b` before the suite's tests, one per tag (`people(b, "alice", "bob")`), each
 * filled in place; their realtime channels are closed after the tests.
 */
export function people(b: Backend, ...tags: string[]): NewUser[] {
  const users = tags.map(() => ({}) as NewUser);
  beforeAll(async () => {
    if (!started(b)) return;
    for (const [i, tag] of tags.entries()) Object.assign(users[i], await newUser(b, tag));
  });
  afterAll(async () => {
    for (const u of users) await u.client?.removeAllChannels();
  });
  return users;
}

/** Who a suite about one person's things acts as on `b`: that person, a stranger, a visitor and the server. */
export function castFor(b: Backend): {
  owner: NewUser;
  stranger: NewUser;
  anon: SupabaseClient;
  server: SupabaseClient;
} {
  const [owner, stranger] = people(b, "owner", "stranger");
  const clients = clientsFor(b);
  afterAll(async () => {
    if (started(b)) await clients.anon.removeAllChannels();
  });
  return { owner, stranger, ...clients };
}
