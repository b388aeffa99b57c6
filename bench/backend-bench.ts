// Local backend latency under load, on PGlite and on PostgreSQL (when reachable): p50/p99 of an
// authenticated REST select (50 rows), the same select embedding a to-many resource (3 tags per row)
// and a select of 50 tags embedding their to-one generation, and an update (is_saved of one row), with
// 8 and 32 clients, each idle and while a batch of 8 built-in engine renders is in flight through
// /functions/v1/generate-image (kept at 8: a finished render is replaced at once); then rpc throughput,
// realtime delivery latency to one subscriber, and realtime fan-out: from a commit's insert request to
// the first and to the 50th of 50 supabase-js clients (each its own socket) receiving the change.
// Rows are the server's to make (only generate-image writes generations), so the fixture is inserted
// with the service role; the tags table is the benchmark's own (a migration written next to copies of
// the product's). Prints a table; asserts nothing. Goals (printed, not gates): the plain select's p99 at
// 8 clients at most 100 ms on PGlite (idle and during a batch) and at most 50 ms on PostgreSQL during a
// batch; every operation's p99 at 8 clients during a batch on PostgreSQL at most 50 ms, with no errors.
// Run: `npx tsx bench/backend-bench.ts` (or `npm run bench backend`). BENCH_MS sets each window's length,
// BENCH_DATABASES=postgres (or pglite) runs one database; BENCH_CLIENTS, BENCH_OPS, BENCH_PHASES and
// BENCH_REST_ONLY narrow the REST windows (docs/benchmarks.md).
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { startBackend, type Backend, BUILTIN_ONLY } from "../tests/support/backend.ts";
import { newUser, serviceClient } from "../tests/support/clients.ts";
import { createDatabase, postgresAvailable } from "../tests/support/postgres.ts";

const DURATION_MS = Number(process.env.BENCH_MS ?? 4000);
/** A comma-separated variable's items, or all of `all` when it is unset. */
function listOf<T extends string>(name: string, all: readonly T[]): T[] {
  const v = process.env[name];
  return v ? (v.split(",").map((x) => x.trim()) as T[]).filter((x) => all.includes(x)) : [...all];
}
const CLIENTS = listOf("BENCH_CLIENTS", ["8", "32"]).map(Number);
/** Which REST operations and which phases (no renders, a batch in flight) are measured. */
const OPS = listOf("BENCH_OPS", ["select", "to-many", "to-one", "update"] as const);
const PHASES = listOf("BENCH_PHASES", ["idle", "renders"] as const);
/** BENCH_REST_ONLY=1: the REST windows alone, without rpc, realtime and fan-out. */
const REST_ONLY = process.env.BENCH_REST_ONLY === "1";
const BATCH = 8;
const GOAL_P99_MS = 50;
/** The plain select's p99 at 8 clients: on PGlite idle and during a batch, on PostgreSQL during a batch. */
const GOAL_SELECT_P99_MS = { pglite: 100, postgres: 50 };
/** Realtime fan-out: subscribers (each a supabase-js client with its own socket) and measured commits. */
const FANOUT_CLIENTS = 50;
const FANOUT_COMMITS = Number(process.env.BENCH_FANOUT_COMMITS ?? 20);

// Tags of generations: a to-many resource of theirs to embed (and a to-one from each tag).
const FIXTURE = `
create table public.bench_tags (
  id bigint generated always as identity primary key,
  generation_id uuid not null references public.generations (id) on delete cascade,
  tag text not null
);
create index bench_tags_generation_id on public.bench_tags (generation_id);
alter table public.bench_tags enable row level security;
create policy "everyone reads" on public.bench_tags for select using (true);
grant select on public.bench_tags to authenticated;
grant all on public.bench_tags to service_role;
`;

/** A migrations folder: the product's migrations and, last, the benchmark's fixture. */
function migrationsWithFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "pc-backend-bench-"));
  for (const f of readdirSync("supabase/migrations")) {
    if (f.endsWith(".sql")) copyFileSync(join("supabase/migrations", f), join(dir, f));
  }
  writeFileSync(join(dir, "99999999999999_backend_bench_fixture.sql"), FIXTURE);
  return dir;
}
/** BENCH_DATABASES=postgres (or pglite) runs one database only. */
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",").map((d) => d.trim());

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Row {
  database: string;
  op: string;
  clients: number;
  batch: boolean;
  ok: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  renders: number;
}

/** Runs `once` from `clients` loops for DURATION_MS; latencies of successes, errors counted. */
async function load(clients: number, once: (client: number) => Promise<void>) {
  const lat: number[] = [];
  const end = performance.now() + DURATION_MS;
  let errors = 0;
  const loop = async (c: number) => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await once(c);
        lat.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { ok: lat.length, errors, rps: lat.length / secs, p50: pct(lat, 50), p99: pct(lat, 99) };
}

/** Keeps BATCH generate-image requests in flight until stopped; counts finished renders and failures. */
function renderBatch(b: Backend, token: string) {
  let running = true;
  let done = 0;
  let failed = 0;
  const lastFailure: string[] = [];
  const one = async () => {
    while (running) {
      try {
        const res = await fetch(`${b.url}/functions/v1/generate-image`, {
          method: "POST",
          headers: { apikey: b.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({
            request_id: randomUUID(),
            prompt: "a lighthouse on a cliff at dusk, waves below",
            style: "watercolor",
            quality: "standard",
            aspect_ratio: "1:1",
          }),
        });
        const text = await res.text();
        if (res.ok) done++;
        else {
          failed++;
          lastFailure[0] = `${res.status} ${text.slice(0, 160)}`;
        }
      } catch (e) {
        failed++;
        lastFailure[0] = String(e);
      }
    }
  };
  const loops = Array.from({ length: BATCH }, one);
  return {
    /** Waits until `n` renders have finished, so the measurement starts with the pool busy and warm. */
    async warm(n: number) {
      const deadline = performance.now() + 60_000;
      while (done + failed < n && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    counts: () => ({ done, failed }),
    async stop() {
      running = false;
      await Promise.all(loops);
      return { done, failed, lastFailure: lastFailure[0] };
    },
  };
}

async function tokenOf(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  return data.session!.access_token;
}

async function benchOne(b: Backend): Promise<Row[]> {
  console.log(`\nLocal backend on ${b.database}`);
  const server = serviceClient(b);
  const owner = await newUser(b, "bench");
  const rows = Array.from({ length: 50 }, (_, i) => ({
    id: randomUUID(),
    user_id: owner.id,
    prompt: `benchmark prompt number ${i} with a mountain lake at dawn`,
    style: "photorealistic",
    quality: "standard",
    aspect_ratio: "1:1",
    width: 1024,
    height: 1024,
    provider: "builtin",
    model: "bench",
    image_path: `${owner.id}/bench-${i}.png`,
  }));
  const ins = await server.from("generations").insert(rows);
  if (ins.error) throw new Error(`fixture insert: ${JSON.stringify(ins.error)}`);
  const tags = rows.flatMap((r, i) =>
    ["landscape", "dawn", `set-${i % 5}`].map((tag) => ({ generation_id: r.id, tag })),
  );
  const tagged = await server.from("bench_tags").insert(tags);
  if (tagged.error) throw new Error(`fixture tags: ${JSON.stringify(tagged.error)}`);
  const headers = { apikey: b.anonKey, Authorization: `Bearer ${await tokenOf(owner.client)}` };

  // The renders' user: premium, so the daily quota never stops a batch.
  const painter = await newUser(b, "bench-painter");
  await painter.client.rpc("get_my_limits");
  const raised = await server
    .from("user_daily_limits")
    .update({ subscription_tier: "premium" })
    .eq("user_id", painter.id);
  if (raised.error) throw new Error(`could not raise the painter's tier: ${raised.error.message}`);
  const painterToken = await tokenOf(painter.client);

  const selectUrl = `${b.url}/rest/v1/generations?select=*&user_id=eq.${owner.id}&order=created_at.desc&limit=50`;
  const select = async () => {
    const r = await fetch(selectUrl, { headers });
    const body = await r.json();
    if (!r.ok) throw new Error(String(r.status));
    if (body.length !== 50) throw new Error("short");
  };
  const toManyUrl = `${b.url}/rest/v1/generations?select=*,bench_tags(tag)&user_id=eq.${owner.id}&order=created_at.desc&limit=50`;
  const selectToMany = async () => {
    const r = await fetch(toManyUrl, { headers });
    const body = await r.json();
    if (!r.ok) throw new Error(String(r.status));
    if (body.length !== 50 || body[0].bench_tags.length !== 3) throw new Error("short");
  };
  const toOneUrl = `${b.url}/rest/v1/bench_tags?select=tag,generations(prompt,style)&order=id&limit=50`;
  const selectToOne = async () => {
    const r = await fetch(toOneUrl, { headers });
    const body = await r.json();
    if (!r.ok) throw new Error(String(r.status));
    if (body.length !== 50 || !body[49].generations) throw new Error("short");
  };
  let flip = 0;
  const update = async (client: number) => {
    // Each client its own row, so the figure is the request's cost and not a queue on one row lock.
    const row = rows[client % rows.length];
    const r = await fetch(`${b.url}/rest/v1/generations?id=eq.${row.id}`, {
      method: "PATCH",
      headers: { ...headers, "content-type": "application/json", prefer: "return=minimal" },
      body: JSON.stringify({ is_saved: flip++ % 2 === 0 }),
    });
    await r.text();
    if (r.status !== 204) throw new Error(String(r.status));
  };

  const out: Row[] = [];
  for (const batch of PHASES.map((p) => p === "renders")) {
    const renders = batch ? renderBatch(b, painterToken) : null;
    // The first renders warm the worker pool (module load) and the function (deps); measure after.
    await renders?.warm(BATCH);
    const before = renders?.counts().done ?? 0;
    for (const clients of CLIENTS) {
      for (const [key, op, fn] of [
        ["select", "select 50 rows", select],
        ["to-many", "+ to-many embed", selectToMany],
        ["to-one", "tags + to-one", selectToOne],
        ["update", "update 1 row", update],
      ] as const) {
        if (!OPS.includes(key)) continue;
        const startRenders = renders?.counts().done ?? 0;
        const r = await load(clients, fn);
        const rendered = (renders?.counts().done ?? 0) - startRenders;
        const row: Row = { database: b.database, op, clients, batch, ...r, renders: rendered };
        out.push(row);
        console.log(
          `  ${op.padEnd(15)} ${String(clients).padStart(2)} clients ${batch ? "during renders" : "idle          "}` +
            `  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms` +
            `  (${r.ok} ok, ${r.errors} errors${batch ? `, ${rendered} renders finished` : ""})`,
        );
      }
    }
    if (renders) {
      const end = await renders.stop();
      console.log(
        `  renders: ${end.done - before} finished while measured, ${end.failed} failed${end.lastFailure ? ` (last: ${end.lastFailure})` : ""}`,
      );
      if (end.failed) out.push({ ...out[out.length - 1], op: "generate-image", errors: end.failed });
    }
  }

  if (REST_ONLY) return out;
  const rpc = await load(8, async () => {
    const r = await fetch(`${b.url}/rest/v1/rpc/get_my_limits`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: "{}",
    });
    await r.json();
    if (!r.ok) throw new Error(String(r.status));
  });
  console.log(
    `  rpc get_my_limits 8 clients  ${rpc.rps.toFixed(0)} req/s  p50 ${rpc.p50.toFixed(1)} ms  p99 ${rpc.p99.toFixed(1)} ms  (${rpc.errors} errors)`,
  );

  // Realtime: from just before the server's insert request to the subscriber's callback.
  const sent = new Map<string, number>();
  const delays: number[] = [];
  let resolveNext: (() => void) | null = null;
  const channel = owner.client
    .channel("bench-changes")
    .on(
      "postgres_changes",
      { event: "INSERT", schema: "public", table: "generations", filter: `user_id=eq.${owner.id}` },
      (p) => {
        const t = sent.get((p.new as { id: string }).id);
        if (t !== undefined) delays.push(performance.now() - t);
        resolveNext?.();
      },
    );
  await new Promise<void>((res, rej) =>
    channel.subscribe((st) => (st === "SUBSCRIBED" ? res() : st === "CHANNEL_ERROR" ? rej(new Error(st)) : null)),
  );
  for (let i = 0; i < 30; i++) {
    const id = randomUUID();
    const got = new Promise<void>((res) => (resolveNext = res));
    sent.set(id, performance.now());
    const r = await server.from("generations").insert({ ...rows[0], id, image_path: `${owner.id}/${id}.png` });
    if (r.error) throw new Error(`realtime insert: ${r.error.message}`);
    await Promise.race([got, new Promise((r) => setTimeout(r, 2000))]);
  }
  await owner.client.removeChannel(channel);
  delays.sort((a, b) => a - b);
  console.log(
    `  realtime insert -> callback  ${delays.length}/30 delivered  p50 ${pct(delays, 50).toFixed(1)} ms  p99 ${pct(delays, 99).toFixed(1)} ms`,
  );
  fanouts.push({ database: b.database, ...(await fanOut(b, server, owner.id, await tokenOf(owner.client), rows[0])) });
  return out;
}

interface FanOut {
  database: string;
  subscribed: number;
  commits: number;
  complete: number;
  first: number[];
  last: number[];
}
const fanouts: FanOut[] = [];

/**
 * FANOUT_CLIENTS supabase-js clients, each with its own socket and the owner's token, subscribe to the
 * owner's new generations; then FANOUT_COMMITS inserts, one at a time, each timed from just before its
 * request to the first and to the last subscriber's callback.
 */
async function fanOut(
  b: Backend,
  server: SupabaseClient,
  ownerId: string,
  token: string,
  template: Record<string, unknown>,
): Promise<Omit<FanOut, "database">> {
  const clients = Array.from({ length: FANOUT_CLIENTS }, () =>
    createClient(b.url, b.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    }),
  );
  // Each socket joins with the owner's token, whose row-level security lets them see the rows.
  await Promise.all(clients.map((c) => c.realtime.setAuth(token)));
  const arrivals = new Map<string, number[]>();
  let onArrival: (() => void) | null = null;
  const channels = clients.map((c, i) =>
    c
      .channel(`bench-fanout-${i}`)
      .on(
        "postgres_changes",
        { event: "INSERT", schema: "public", table: "generations", filter: `user_id=eq.${ownerId}` },
        (p) => {
          const id = (p.new as { id: string }).id;
          arrivals.set(id, [...(arrivals.get(id) ?? []), performance.now()]);
          onArrival?.();
        },
      ),
  );
  const subscribed = await Promise.all(
    channels.map(
      (ch) =>
        new Promise<boolean>((res) => {
          const timer = setTimeout(() => res(false), 30_000);
          ch.subscribe((st) => {
            if (st === "SUBSCRIBED" || st === "CHANNEL_ERROR" || st === "TIMED_OUT") {
              clearTimeout(timer);
              res(st === "SUBSCRIBED");
            }
          });
        }),
    ),
  );
  const insertOne = async () => {
    const id = randomUUID();
    const all = new Promise<void>((res) => {
      onArrival = () => ((arrivals.get(id)?.length ?? 0) >= FANOUT_CLIENTS ? res() : undefined);
    });
    const t0 = performance.now();
    const r = await server.from("generations").insert({ ...template, id, image_path: `${ownerId}/${id}.png` });
    if (r.error) throw new Error(`fan-out insert: ${r.error.message}`);
    await Promise.race([all, new Promise((res) => setTimeout(res, 5000))]);
    return { t0, got: arrivals.get(id) ?? [] };
  };
  // One commit first, unmeasured: every subscription is then surely in place.
  await insertOne();
  const first: number[] = [];
  const last: number[] = [];
  let complete = 0;
  for (let i = 0; i < FANOUT_COMMITS; i++) {
    const { t0, got } = await insertOne();
    if (got.length) first.push(Math.min(...got) - t0);
    if (got.length >= FANOUT_CLIENTS) {
      complete++;
      last.push(Math.max(...got) - t0);
    }
  }
  await Promise.all(clients.map((c) => c.removeAllChannels()));
  first.sort((x, y) => x - y);
  last.sort((x, y) => x - y);
  const n = subscribed.filter(Boolean).length;
  console.log(
    `  realtime fan-out to ${FANOUT_CLIENTS} sockets (${n} subscribed)  ${complete}/${FANOUT_COMMITS} commits reached all` +
      `  first p50 ${pct(first, 50).toFixed(1)} ms p99 ${pct(first, 99).toFixed(1)} ms` +
      `  ${FANOUT_CLIENTS}th p50 ${pct(last, 50).toFixed(1)} ms p99 ${pct(last, 99).toFixed(1)} ms`,
  );
  return { subscribed: n, commits: FANOUT_COMMITS, complete, first, last };
}

function printTable(rows: Row[]) {
  console.log("\nREST latency (ms), each window " + DURATION_MS + " ms");
  console.log("  database  operation        clients  renders   req/s    p50     p99   errors");
  for (const r of rows) {
    if (r.op === "generate-image") {
      console.log(`  ${r.database.padEnd(8)}  generate-image   failures: ${r.errors}`);
      continue;
    }
    console.log(
      `  ${r.database.padEnd(8)}  ${r.op.padEnd(15)}  ${String(r.clients).padStart(7)}  ${(r.batch ? `${BATCH} busy` : "none").padStart(7)}` +
        `  ${r.rps.toFixed(0).padStart(6)}  ${r.p50.toFixed(1).padStart(5)}  ${r.p99.toFixed(1).padStart(6)}  ${String(r.errors).padStart(6)}`,
    );
  }
  if (fanouts.length) {
    console.log(
      `\nRealtime fan-out (ms): insert request sent -> the first and the ${FANOUT_CLIENTS}th of ${FANOUT_CLIENTS} subscribers' callbacks`,
    );
    console.log("  database  subscribed  commits reaching all  first p50  first p99  last p50  last p99");
    for (const f of fanouts) {
      console.log(
        `  ${f.database.padEnd(8)}  ${String(f.subscribed).padStart(10)}  ${`${f.complete}/${f.commits}`.padStart(20)}` +
          `  ${pct(f.first, 50).toFixed(1).padStart(9)}  ${pct(f.first, 99).toFixed(1).padStart(9)}` +
          `  ${pct(f.last, 50).toFixed(1).padStart(8)}  ${pct(f.last, 99).toFixed(1).padStart(8)}`,
      );
    }
  }
  printSelectGoals(rows);
  const goal = rows.filter((r) => r.database === "postgres" && r.clients === 8 && r.batch);
  if (goal.length) {
    const worst = Math.max(...goal.map((r) => r.p99));
    const errors = rows.filter((r) => r.database === "postgres").reduce((n, r) => n + r.errors, 0);
    const met = worst <= GOAL_P99_MS && errors === 0;
    console.log(
      `\nGoal: p99 <= ${GOAL_P99_MS} ms at 8 clients during a batch on PostgreSQL, no errors: ` +
        `${met ? "met" : "MISSED"} (worst p99 ${worst.toFixed(1)} ms, ${errors} errors)`,
    );
  }
}

/** The two goals of the plain select at 8 clients, each on its own line. */
function printSelectGoals(rows: Row[]) {
  const p99Of = (database: string, batch: boolean) =>
    rows.find((r) => r.database === database && r.op === "select 50 rows" && r.clients === 8 && r.batch === batch)?.p99;
  const verdict = (p99: number, goal: number) => (p99 <= goal ? "met" : "MISSED");
  const idle = p99Of("pglite", false);
  const busy = p99Of("pglite", true);
  const worst = Math.max(idle ?? -Infinity, busy ?? -Infinity);
  if (worst > -Infinity) {
    const parts = [
      idle === undefined ? null : `${idle.toFixed(1)} ms idle`,
      busy === undefined ? null : `${busy.toFixed(1)} ms during ${BATCH} renders`,
    ];
    console.log(
      `\nrest select p99 at 8 clients: pglite ${parts.filter(Boolean).join(", ")} ` +
        `(goal <= ${GOAL_SELECT_P99_MS.pglite}): ${verdict(worst, GOAL_SELECT_P99_MS.pglite)}`,
    );
  }
  const pg = p99Of("postgres", true);
  if (pg !== undefined) {
    console.log(
      `rest select p99 at 8 clients during ${BATCH} renders: postgres ${pg.toFixed(1)} ms ` +
        `(goal <= ${GOAL_SELECT_P99_MS.postgres}): ${verdict(pg, GOAL_SELECT_P99_MS.postgres)}`,
    );
  }
}

async function main() {
  const rows: Row[] = [];
  const migrations = migrationsWithFixture();
  const env = { ...BUILTIN_ONLY, MIGRATIONS_DIR: migrations };
  if (DATABASES.includes("pglite")) {
    const pglite = await startBackend({ env });
    try {
      rows.push(...(await benchOne(pglite)));
    } finally {
      await pglite.stop();
    }
  }
  if (!DATABASES.includes("postgres")) {
    /* PostgreSQL not asked for */
  } else if (await postgresAvailable()) {
    const db = await createDatabase("pc_bench");
    const pgb = await startBackend({ databaseUrl: db.url, env });
    try {
      rows.push(...(await benchOne(pgb)));
    } finally {
      await pgb.stop();
      await db.drop();
    }
  } else console.log("\nPostgreSQL is not reachable at 127.0.0.1:5432: the PostgreSQL figures are skipped.");
  rmSync(migrations, { recursive: true, force: true });
  printTable(rows);
}

await main();
