// `npm run bench fuzz`: requests no one chose, generated from grammars of every public surface (REST
// queries and bodies, RPC arguments, storage keys and bodies, auth bodies, realtime joins and frames,
// function bodies, reference images), sent to a fresh local backend on each database. Ends with
// `fuzz: N requests, F 5xx, S stalls`. Nothing here is a gate; tests/backend/fuzz.test.ts is.
//
// FUZZ_REQUESTS (50,000) requests of seed FUZZ_SEED (1) on FUZZ_DB (pglite, postgres or both: both),
// FUZZ_CONCURRENCY (4) at a time. A stall is an answer slower than FUZZ_STALL_MS (1,000; a drawn image
// FUZZ_RENDER_MS, 15,000) or /health slower than FUZZ_HEALTH_MS (100) while requests are in flight; each is
// sent again alone, twice, and counts only if it stalls each time (FUZZ_CONFIRM=0 counts every stall seen;
// at most FUZZ_MAX_REPLAYS, 5,000, are sent again, the slowest first; any not sent again are listed).
// FUZZ_ONLY=12,345 sends only those requests of the seed and prints each with its answer.
// FUZZ_SEED=ci sends what CI sends (bench/fuzz/seeds.ts: CI_RUNS, each seed with its own request count);
// FUZZ_SEED=found sends each request that once found a fault (FOUND) alone.
import type { Backend } from "../tests/support/backend.ts";
import { startBackendOn } from "../tests/support/backend-targets.ts";
import { postgresAvailable } from "../tests/support/postgres.ts";
import { loadAverage, sampleCpu } from "../tests/faults/profile.ts";
import { caseFingerprint, describeCase, formatReport } from "./fuzz/report.ts";
import { DEFAULT_OPTIONS, type FuzzOptions, type FuzzResult, generateCase, runFuzz } from "./fuzz/run.ts";
import { CI_RUNS, FOUND } from "./fuzz/seeds.ts";
import { setUpWorld } from "./fuzz/world-setup.ts";

const env = process.env;
const num = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
const only = env.FUZZ_ONLY ? env.FUZZ_ONLY.split(",").map(Number) : undefined;
const options: FuzzOptions = {
  seed: env.FUZZ_SEED === "ci" || env.FUZZ_SEED === "found" ? 0 : num("FUZZ_SEED", 1),
  requests: num("FUZZ_REQUESTS", 50_000),
  concurrency: num("FUZZ_CONCURRENCY", DEFAULT_OPTIONS.concurrency),
  stallMs: num("FUZZ_STALL_MS", DEFAULT_OPTIONS.stallMs),
  renderMs: num("FUZZ_RENDER_MS", DEFAULT_OPTIONS.renderMs),
  healthMs: num("FUZZ_HEALTH_MS", DEFAULT_OPTIONS.healthMs),
  healthEveryMs: num("FUZZ_HEALTH_EVERY_MS", DEFAULT_OPTIONS.healthEveryMs),
  confirm: env.FUZZ_CONFIRM !== "0",
  maxReplays: num("FUZZ_MAX_REPLAYS", DEFAULT_OPTIONS.maxReplays),
  only,
  progress: (line) => console.log(line),
};
/** The seeds to send on each database: FUZZ_SEED's, CI's, or the requests that found faults. */
const runs: { seed: number; requests: number; only?: number[] }[] =
  env.FUZZ_SEED === "ci"
    ? [...CI_RUNS]
    : env.FUZZ_SEED === "found"
      ? [...new Set(FOUND.map((f) => f.seed))].map((seed) => {
          const indexes = FOUND.filter((f) => f.seed === seed).map((f) => f.index);
          return { seed, requests: indexes.length, only: indexes };
        })
      : [{ seed: options.seed, requests: options.requests }];
const asked = env.FUZZ_DB ?? "both";
const databases = asked === "both" ? ["pglite", "postgres"] : [asked];

async function onDatabase(db: string): Promise<FuzzResult[]> {
  if (db === "postgres" && !(await postgresAvailable())) {
    console.log("postgres: skipped (no server at TEST_POSTGRES_URL or 127.0.0.1:5432)");
    return [];
  }
  const b: Backend = await startBackendOn(db === "postgres", "pc_fuzz");
  try {
    const world = await setUpWorld(b);
    const results: FuzzResult[] = [];
    for (const run of runs) {
      const o = { ...options, ...run };
      console.log(`${db}: sending ${o.only ? o.only.length : o.requests} requests of seed ${o.seed}`);
      const result = await runFuzz(b, world, o);
      if (o.only) {
        for (const index of o.only) {
          const c = generateCase(o.seed, index, world);
          console.log(`#${index} (fingerprint ${caseFingerprint(c, world)}) ${describeCase(c)}`);
        }
        for (const f of [...result.failures, ...result.stalls])
          console.log(`#${f.index} answered ${f.answer.cls} ${f.answer.status ?? ""}: ${f.answer.detail}`);
      }
      console.log(formatReport([result]));
      results.push(result);
    }
    return results;
  } finally {
    await b.stop();
  }
}

const cpu = sampleCpu();
const loadAtStart = loadAverage();
const results: FuzzResult[] = [];
for (const db of databases) {
  results.push(...(await onDatabase(db)));
}
const use = cpu.stop();
if (use) {
  console.log(
    `machine CPU idle: mean ${(100 * use.meanIdle).toFixed(0)}%, lowest 1-s sample ${(100 * use.minIdle).toFixed(0)}% ` +
      `(load average at start ${loadAtStart}, at end ${loadAverage()}); thresholds: answer ${options.stallMs} ms, ` +
      `/health ${options.healthMs} ms, drawn image ${options.renderMs} ms`,
  );
}
// Each database's failures and stalls were printed as it finished; the totals close the run.
console.log(`\nall databases:\n${formatReport(results, false)}`);
