// Local backend throughput and latency, on PGlite and on Postgres (when reachable):
// requests per second and p50/p99 for an authenticated select of 50 rows and for an rpc, and realtime
// delivery latency from an insert to the subscriber's callback. Prints figures; asserts nothing.
// Run: `npx tsx bench/backend-bench.ts` (or `npm run bench`, which runs every benchmark).
import { randomUUID } from "node:crypto";
import { startBackend, type Backend } from "../tests/support/backend.ts";
import { newUser } from "../tests/support/clients.ts";
import { createDatabase, postgresAvailable } from "../tests/support/postgres.ts";

const DURATION_MS = Number(process.env.BENCH_MS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

function pct(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function load(label: string, once: () => Promise<void>) {
  const lat: number[] = [];
  const end = performance.now() + DURATION_MS;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await once();
        lat.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(34)} ${(lat.length / secs).toFixed(0).padStart(6)} req/s   p50 ${pct(lat, 50).toFixed(1).padStart(6)} ms   p99 ${pct(lat, 99).toFixed(1).padStart(6)} ms   (${lat.length} ok, ${errors} errors, concurrency ${CONCURRENCY})`,
  );
}

async function benchOne(b: Backend) {
  console.log(`\nLocal backend on ${b.database}`);
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
  const ins = await owner.client.from("generations").insert(rows);
  if (ins.error) throw new Error(JSON.stringify(ins.error));
  const { data: s } = await owner.client.auth.getSession();
  const headers = { apikey: b.anonKey, Authorization: `Bearer ${s.session!.access_token}` };
  const selectUrl = `${b.url}/rest/v1/generations?select=*&user_id=eq.${owner.id}&order=created_at.desc&limit=50`;
  await load("select 50 rows (authenticated)", async () => {
    const r = await fetch(selectUrl, { headers });
    if (!r.ok) throw new Error(String(r.status));
    const body = await r.json();
    if (body.length !== 50) throw new Error("short");
  });
  await load("rpc get_my_limits", async () => {
    const r = await fetch(`${b.url}/rest/v1/rpc/get_my_limits`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: "{}",
    });
    if (!r.ok) throw new Error(String(r.status));
    await r.json();
  });

  // Realtime: time from just before the insert request to the subscriber's callback.
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
    await owner.client.from("generations").insert({ ...rows[0], id, image_path: `${owner.id}/${id}.png` });
    await Promise.race([got, new Promise((r) => setTimeout(r, 2000))]);
  }
  await owner.client.removeChannel(channel);
  delays.sort((a, b) => a - b);
  console.log(
    `  ${"realtime insert -> callback".padEnd(34)} ${delays.length}/30 delivered   p50 ${pct(delays, 50).toFixed(1)} ms   p99 ${pct(delays, 99).toFixed(1)} ms`,
  );
}

async function main() {
  const pglite = await startBackend();
  try {
    await benchOne(pglite);
  } finally {
    await pglite.stop();
  }
  if (await postgresAvailable()) {
    const db = await createDatabase("pc_bench");
    const pgb = await startBackend({ databaseUrl: db.url });
    try {
      await benchOne(pgb);
    } finally {
      await pgb.stop();
      await db.drop();
    }
  } else console.log("\nPostgreSQL is not reachable at 127.0.0.1:5432: the Postgres figures are skipped.");
}

await main();
