// Built-in engine renders through the local backend: do they leave the server responsive? Prints REST
// select p50/p99 idle and while a batch of 8 generations renders (4 in flight). Renders run in the
// backend's worker pool (supabase/local/render-pool.ts, RENDER_WORKERS or one per core but one). A batch at
// concurrency 1 against 2, and the share of it a render is in flight, are the sends-floor benchmark's
// (bench/sends-floor-bench.mjs).
// Run: `npx tsx bench/local-render-bench.ts` (or `npm run bench -- local-render`). Asserts nothing.
import { randomUUID } from "node:crypto";
import { startBackend, type Backend } from "../tests/support/backend.ts";
import { newUser, serviceClient } from "../tests/support/clients.ts";

const BATCH = 8;
const IDLE_SAMPLES = 60;

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;

async function main() {
  const backend = await startBackend();
  try {
    await run(backend);
  } finally {
    await backend.stop();
  }
}

async function run(b: Backend) {
  const { client, id } = await newUser(b, "render-bench");
  await client.rpc("get_my_limits");
  // Premium's daily quota keeps the limit out of the way of three batches.
  const raised = await serviceClient(b)
    .from("user_daily_limits")
    .update({ subscription_tier: "premium" })
    .eq("user_id", id);
  if (raised.error) throw new Error(`could not raise the bench user's tier: ${raised.error.message}`);
  const { data } = await client.auth.getSession();
  const headers = { apikey: b.anonKey, Authorization: `Bearer ${data.session!.access_token}` };

  const select = async () => {
    const t = performance.now();
    const res = await fetch(`${b.url}/rest/v1/generations?select=id,prompt,style&order=created_at.desc&limit=20`, {
      headers,
    });
    await res.text();
    if (!res.ok) throw new Error(`select answered ${res.status}`);
    return performance.now() - t;
  };
  let seed = 1;
  const generate = async () => {
    const res = await fetch(`${b.url}/functions/v1/generate-image`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        request_id: randomUUID(),
        prompt: "a lighthouse on a cliff at dusk, waves below",
        style: "watercolor",
        quality: "standard",
        aspect_ratio: "1:1",
        seed: seed++,
      }),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`generation answered ${res.status}: ${body.slice(0, 200)}`);
  };
  /** A batch of BATCH generations with `concurrency` in flight; answers its wall time. */
  const batch = async (concurrency: number) => {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < BATCH) await generate();
      }),
    );
    return performance.now() - t;
  };

  await generate(); // warm-up: loads the function, starts a worker
  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES; i++) idle.push(await select());

  const busy: number[] = [];
  let rendering = true;
  const sampler = (async () => {
    while (rendering) {
      busy.push(await select());
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const underLoad = await batch(4);
  rendering = false;
  await sampler;

  console.log(`Local backend on ${b.database}, built-in engine, 1024x1024 renders`);
  console.log(
    `  REST select, idle                     p50 ${ms(pct(idle, 50))}   p99 ${ms(pct(idle, 99))}   (n=${idle.length})`,
  );
  console.log(
    `  REST select, batch of ${BATCH} rendering     p50 ${ms(pct(busy, 50))}   p99 ${ms(pct(busy, 99))}   max ${ms(Math.max(...busy))}   (n=${busy.length}, 4 in flight, batch ${ms(underLoad)})`,
  );
}

await main();
