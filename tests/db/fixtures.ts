// Rows the db-tier tests insert, built the way the generate function builds them.
import { randomUUID } from "node:crypto";
import type { Actor, Row, TestDb, TestUser } from "../support/db.ts";
import { newGeneration, type NewGeneration } from "../support/records.ts";

/** Overrides may be values the database must refuse (tests of its checks), so they are loosely typed. */
export type GenerationOverrides = { [K in keyof NewGeneration]?: NewGeneration[K] | string | number };

export function generationFor(user: TestUser, overrides: GenerationOverrides = {}): NewGeneration {
  const id = String(overrides.id ?? randomUUID());
  const row: NewGeneration = {
    ...newGeneration(id, user.id),
    prompt: "a lighthouse on a cliff at dawn",
    style: "photorealistic",
    seed: 42,
    model: "procedural-v1",
  };
  return { ...row, ...overrides } as NewGeneration;
}

/** Inserts a row as `actor` with exactly the keys given, the way PostgREST turns a JSON body into an insert. */
export async function insertAs(db: TestDb, actor: Actor, table: string, row: Row): Promise<void> {
  const keys = Object.keys(row);
  const cols = keys.map((k) => `"${k}"`).join(", ");
  const params = keys.map((_, i) => `$${i + 1}`).join(", ");
  // JSON values go as JSON text, as PostgREST passes them; pg would turn a JS array into a Postgres array.
  const values = Object.values(row).map((v) =>
    v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v,
  );
  await db.run(actor, `insert into public.${table} (${cols}) values (${params})`, values);
}

/** How many rows of `table` belong to `userId`, counted with no row-level security. */
export async function rowCount(db: TestDb, table: string, userId: string): Promise<number> {
  return (
    await db.query<{ n: number }>(`select count(*)::int as n from public.${table} where user_id = $1`, [userId])
  )[0].n;
}

/** Puts `userId` on subscription `tier` with `today` generations made today, as the service role. */
export async function setTier(db: TestDb, userId: string, tier: string, today: number): Promise<void> {
  await db.run(
    "service",
    "update public.user_daily_limits set subscription_tier = $2, generations_today = $3 where user_id = $1",
    [userId, tier, today],
  );
}

/** What quota_reserve, quota_commit and quota_release answer. */
export type QuotaState = {
  allowed?: boolean;
  committed?: boolean;
  released?: boolean;
  deleted?: boolean;
  remaining: number;
  daily_limit: number;
  generations_today: number;
  reset_at: string;
  tier: string;
};

/** What record_generation answers. */
type Recorded = {
  created: boolean;
  committed?: boolean;
  deleted?: boolean;
  row?: Record<string, unknown>;
  quota?: { remaining: number; generations_today: number; daily_limit: number };
};

/**
 * The quota calls the server makes (as the service role) and the counts they leave, on the database
 * `ctx.db` names when called.
 */
export function quotaLedger(ctx: { readonly db: TestDb }) {
  const call = async (fn: "quota_reserve" | "quota_commit" | "quota_release", user: TestUser, requestId: string) =>
    (await ctx.db.run<{ s: QuotaState }>("service", `select public.${fn}($1, $2) as s`, [user.id, requestId]))[0].s;
  const count = async (sql: string, user: TestUser) => (await ctx.db.query<{ n: number }>(sql, [user.id]))[0].n;
  return {
    reserve: (u: TestUser, id: string) => call("quota_reserve", u, id),
    commit: (u: TestUser, id: string) => call("quota_commit", u, id),
    release: (u: TestUser, id: string) => call("quota_release", u, id),
    /** record_generation of `row`. */
    record: async (row: object) =>
      (
        await ctx.db.run<{ r: Recorded }>("service", "select public.record_generation($1::jsonb) as r", [
          JSON.stringify(row),
        ])
      )[0].r,
    /** The person's generations today, as user_daily_limits counts them. */
    used: (u: TestUser) => count("select generations_today as n from public.user_daily_limits where user_id = $1", u),
    /** How many reservations the person holds. */
    held: (u: TestUser) => count("select count(*)::int as n from public.quota_reservations where user_id = $1", u),
  };
}
