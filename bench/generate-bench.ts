// Prints what generate-image costs on top of the provider: total time minus provider time (from the
// function's Server-Timing header), p50 and p99, with a zero-latency fake provider.
//   1. in process: handler(req, deps) with the in-memory data layer (validation, adapter, sniffing);
//   2. through the local backend: supabase-js functions.invoke -> gateway -> handler -> Auth, RPCs,
//      Storage and REST on PGlite, then on real Postgres when one answers (what a person's request
//      really pays); goal p50 < 50 ms;
//   3. the built-in engine's time per image at each aspect ratio.
// Run: npx deno run -A bench/generate-bench.ts [--runs=200]
import { DEFAULT_CONFIG, type Deps, handler } from "../supabase/functions/generate-image/handler.ts";
import { createProviderRegistry } from "../supabase/functions/_shared/providers/select.ts";
import { createReplicateProvider } from "../supabase/functions/_shared/providers/replicate.ts";
import { renderPng } from "../supabase/functions/_shared/engine/render.ts";
import { FakeDb, FakeStore } from "../tests/functions/fakes/fake-store.ts";
import { startReplicateFake } from "../tests/functions/fakes/replicate-fake.ts";
import { startBackend } from "../tests/support/backend.ts";
import { newUser, serviceClient } from "../tests/support/clients.ts";
import { createDatabase, postgresAvailable } from "../tests/support/postgres.ts";

const RUNS = Number(Deno.args.find((a) => a.startsWith("--runs="))?.split("=")[1] ?? 200);
const WARMUP = 10;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function report(label: string, overhead: number[], provider: number[]) {
  const f = (n: number) => n.toFixed(1).padStart(7);
  console.log(
    `${label.padEnd(34)} overhead p50 ${f(percentile(overhead, 50))} ms  p99 ${f(percentile(overhead, 99))} ms` +
      `   (provider p50 ${f(percentile(provider, 50))} ms, n=${overhead.length})`,
  );
}

function providerMs(res: Response): number {
  const m = /provider;dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "");
  return m ? Number(m[1]) : 0;
}

function body() {
  return {
    request_id: crypto.randomUUID(),
    prompt: "a lighthouse on a cliff at dusk",
    style: "watercolor",
    quality: "standard",
    aspect_ratio: "1:1",
    seed: 7,
  };
}

async function inProcess(fakeUrl: string, token: string) {
  const db = new FakeDb();
  const provider = createReplicateProvider({ token, baseUrl: fakeUrl, pollIntervalMs: 1, timeoutMs: 10_000, fetch });
  const deps: Deps = {
    store: new FakeStore(db),
    providers: createProviderRegistry([provider]),
    fetch,
    now: () => Date.now(),
    log: () => {},
    config: DEFAULT_CONFIG,
  };
  const user = db.addUser("premium");
  const overhead: number[] = [];
  const provided: number[] = [];
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const t0 = performance.now();
    const res = await handler(
      new Request("http://localhost/functions/v1/generate-image", {
        method: "POST",
        headers: { authorization: `Bearer ${user.jwt}`, "content-type": "application/json" },
        body: JSON.stringify(body()),
      }),
      deps,
    );
    await res.json();
    const total = performance.now() - t0;
    if (res.status !== 200) throw new Error(`in-process run answered ${res.status}`);
    if (i >= WARMUP) {
      overhead.push(total - providerMs(res));
      provided.push(providerMs(res));
    }
  }
  report("handler in process (fake data)", overhead, provided);
}

async function throughBackend(fakeUrl: string, token: string, databaseUrl?: string) {
  let backend;
  try {
    backend = await startBackend({
      databaseUrl,
      env: {
        REPLICATE_API_TOKEN: token,
        REPLICATE_BASE_URL: fakeUrl,
        RUNWARE_API_KEY: "",
        OPENAI_API_KEY: "",
        DEFAULT_PROVIDER: "",
      },
    });
  } catch (e) {
    console.log(`local backend: skipped (it did not start: ${String(e).split("\n")[0]})`);
    return;
  }
  try {
    const { client, id } = await newUser(backend, "bench");
    await client.rpc("get_my_limits");
    // Premium's 9,999 a day keeps the quota out of the way of a long run.
    const { error } = await serviceClient(backend)
      .from("user_daily_limits")
      .update({ subscription_tier: "premium" })
      .eq("user_id", id);
    if (error) throw new Error(`could not raise the bench user's tier: ${error.message}`);
    const overhead: number[] = [];
    const provided: number[] = [];
    for (let i = 0; i < RUNS + WARMUP; i++) {
      const t0 = performance.now();
      const { data, error, response } = await client.functions.invoke("generate-image", { body: body() });
      const total = performance.now() - t0;
      if (error || !data?.generation) throw new Error(`backend run failed: ${error?.message}`);
      if (i >= WARMUP) {
        overhead.push(total - providerMs(response!));
        provided.push(providerMs(response!));
      }
    }
    report(`local backend (${backend.database})`, overhead, provided);
    const p50 = percentile(overhead, 50);
    console.log(`  goal p50 < 50 ms: ${p50 < 50 ? "met" : "NOT met"} (${p50.toFixed(1)} ms)`);
  } finally {
    await backend.stop();
  }
}

async function engine() {
  for (const [w, h] of [
    [1024, 1024],
    [1536, 1024],
    [1024, 1536],
  ]) {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      await renderPng({
        prompt: "a lighthouse on a cliff at dusk",
        style: "watercolor",
        width: w,
        height: h,
        seed: i,
        reference: null,
      });
      if (i > 0) times.push(performance.now() - t0);
    }
    console.log(
      `built-in engine ${w}x${h}`.padEnd(34) +
        ` per image p50 ${percentile(times, 50).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    );
  }
}

const fake = startReplicateFake();
try {
  console.log(`generate-image platform overhead (total minus provider time), ${RUNS} runs after ${WARMUP} warm-up`);
  await inProcess(fake.url, fake.token);
  await throughBackend(fake.url, fake.token);
  if (await postgresAvailable()) {
    const db = await createDatabase("pc_bench");
    try {
      await throughBackend(fake.url, fake.token, db.url);
    } finally {
      await db.drop();
    }
  } else console.log("local backend (postgres): skipped (no PostgreSQL answers)");
  await engine();
} finally {
  await fake.close();
}
