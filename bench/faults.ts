// `npm run bench faults`: FAULT_SCHEDULES seeded fault schedules (default 1,000; seeds from
// FAULT_SEED_START, default 1), each with a fresh user. Prints each violation with the seed that
// reproduces it, the recovery paths exercised, and ends with `faults: N schedules, V violations`.
// FAULT_BUDGET_MIN stops it after that many minutes (the schedules under way finish), and the last line
// then says how many of the asked schedules ran. SIGTERM (or Ctrl-C) does the same at once: no schedule
// starts after it, and the summary is printed when the ones under way have finished. A schedule the harness could not finish (its browser
// died) runs once more; only a second such failure counts as aborted.
//
// FAULT_PARALLEL=K runs K lanes at once. Each lane owns its servers and its browser, so a backend
// SIGKILL, a provider fault or a browser crash in one lane never reaches another, and a seed gives the
// same schedule whichever lane runs it (FAULT_PARALLEL=1 reproduces it alone). Lanes take the next
// seed from one counter, so seeds run in order from FAULT_SEED_START. Lane k's ports: the app
// FAULTS_PORT + 10k, the fake provider that + 1, the backend that + 50,000 (default FAULTS_PORT 4731:
// lanes at 4731, 4741, 4751…, so a many-lane run should not share the machine with the e2e fault spec's
// 4741 unless FAULTS_PORT moves it).
// FAULT_PROFILE=1 also prints where the schedules' wall time went, the machine's idle CPU and the CPU this
// run's processes used; FAULT_PROFILE=cpu adds each entry's CPU (costs about a second of CPU a schedule).
// FAULT_TRAIL=1 prints every schedule's steps, notes and trail, as a schedule with a violation prints them.
// FAULT_SCHEDULE_CAP_MIN (default 12) caps one schedule: one still running then is cut short and is a
// violation ("cap") with where it stood, what it waited on and its trail (decision 190).
import { availableParallelism } from "node:os";
import { addCounters, counterTable, startHarness, zeroCounters, type Harness } from "../tests/faults/harness.ts";
import {
  loadAverage,
  mergeProfile,
  profileTable,
  sampleCpu,
  sampleTreeCpu,
  type Profile,
} from "../tests/faults/profile.ts";

const total = Number(process.env.FAULT_SCHEDULES ?? 1000);
const first = Number(process.env.FAULT_SEED_START ?? 1);
const verbose = process.env.FAULT_VERBOSE === "1";
const trailAlways = process.env.FAULT_TRAIL === "1";
const profiling = process.env.FAULT_PROFILE === "1" || process.env.FAULT_PROFILE === "cpu";
const budgetMs = Number(process.env.FAULT_BUDGET_MIN ?? 0) * 60_000;
let stopAsked = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopAsked) process.exit(130);
    stopAsked = true;
    console.log(`${signal}: no more schedules start; the ones under way finish`);
  });
}
/**
 * One lane per core: a lane alone keeps about one core busy (browser, backend, this process), so on the
 * 2-core development machine 2 lanes ran as many schedules an hour as 3 (docs/benchmarks.md, Faults),
 * each schedule less stretched by waiting for the CPU.
 */
const DEFAULT_PARALLEL = availableParallelism();
const askedParallel = Math.floor(Number(process.env.FAULT_PARALLEL ?? DEFAULT_PARALLEL));
const parallel = Math.max(1, Math.min(total, Number.isFinite(askedParallel) ? askedParallel : DEFAULT_PARALLEL));
const basePort = Number(process.env.FAULTS_PORT ?? 4731);
/** Ports between one lane's app port and the next's (each lane uses its app port, + 1, and + 50,000). */
const LANE_PORT_STRIDE = 10;

const cpu = sampleCpu();
const ownCpu = sampleTreeCpu();
const loadAtStart = loadAverage();
const counters = zeroCounters();
const faults: Record<string, number> = {};
const profile: Profile = {};
let violations = 0;
/** Schedules the harness itself could not finish (a crashed browser, say): not checked to the end. */
let aborted = 0;
/** Schedules run a second time because the harness could not finish the first. */
let rerun = 0;
let notes = 0;
let scheduleMs = 0;
/** The slowest schedule run, beside the cap that would cut one short (FAULT_SCHEDULE_CAP_MIN). */
let slowest = { seed: 0, ms: 0 };
const failingSeeds: number[] = [];
const started = Date.now();
let next = 0;
let ran = 0;

async function lane(index: number, harness: Harness): Promise<void> {
  const tag = parallel > 1 ? ` lane ${index}` : "";
  for (;;) {
    if (stopAsked || next >= total || (budgetMs > 0 && Date.now() - started > budgetMs)) return;
    const seed = first + next++;
    let r = await harness.runSchedule(seed);
    if (r.violations.some((v) => v.where === "harness")) {
      // The harness could not finish the schedule (its browser died): the seed runs once more from the
      // start in a new browser, so each seed asked is checked to the end where it can be.
      rerun += 1;
      console.log(`RERUN seed=${seed}: ${r.violations.find((v) => v.where === "harness")?.message.split("\n")[0]}`);
      r = await harness.runSchedule(seed);
    }
    ran++;
    scheduleMs += r.ms;
    if (r.ms > slowest.ms) slowest = { seed, ms: r.ms };
    addCounters(counters, r.counters);
    mergeProfile(profile, r.profile);
    for (const [k, n] of Object.entries(r.faults)) faults[k] = (faults[k] ?? 0) + n;
    notes += r.notes.length;
    if (r.violations.some((v) => v.where !== "harness")) failingSeeds.push(seed);
    if (r.violations.length || trailAlways) {
      console.log(`seed ${seed} schedule: ${r.steps.map((s, n) => `${n}:${s}`).join(" ")}`);
      for (const n of r.notes) console.log(`  note seed=${seed}: ${n.split("\n")[0]}`);
      for (const line of r.trail) console.log(`  trail seed=${seed}: ${line}`);
    }
    for (const v of r.violations) {
      if (v.where === "harness") {
        aborted += 1;
        console.log(`ABORTED seed=${v.seed} step=${v.step}: ${v.message.split("\n")[0]}`);
        continue;
      }
      violations += 1;
      console.log(`VIOLATION seed=${v.seed} step=${v.step} ${v.where}: ${v.message}`);
    }
    if (verbose && !r.violations.length)
      for (const n of r.notes) console.log(`  note seed=${seed}: ${n.split("\n")[0]}`);
    if (verbose && profiling)
      console.log(`  steps seed=${seed}: ${r.steps.map((s, n) => `${s} ${(r.stepMs[n] ?? 0) / 1000}s`).join(", ")}`);
    if (ran % 10 === 0 || ran === total || verbose) {
      const perRun = (Date.now() - started) / ran / 1000;
      console.log(
        `progress: ${ran}/${total} schedules, ${violations} violations, ${perRun.toFixed(1)} s/schedule` +
          (verbose ? ` (seed ${seed}${tag}: ${r.steps.length} steps, ${(r.ms / 1000).toFixed(1)} s)` : ""),
      );
    }
  }
}

const harnesses: Harness[] = [];
try {
  // One lane after another: the first builds the app when an input changed, the others find it built.
  for (let k = 0; k < parallel; k++) {
    const port = basePort + LANE_PORT_STRIDE * k;
    const prefix = parallel > 1 ? `[lane ${k}] ` : "";
    harnesses.push(
      await startHarness({
        port,
        apiPort: port + 50_000,
        providerPort: port + 1,
        log: verbose ? (l) => console.log(prefix + l) : undefined,
      }),
    );
  }
  if (verbose || profiling) console.log(`${parallel} lane(s), app ports from ${basePort} every ${LANE_PORT_STRIDE}`);
  await Promise.all(harnesses.map((h, k) => lane(k, h)));
} finally {
  await Promise.all(harnesses.map((h) => h.close()));
}
const wallMs = Date.now() - started;
console.log(
  `\nfaults injected: ${Object.entries(faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ")}`,
);
console.log(`actions not applied (notes, not violations): ${notes}`);
console.log("recovery paths:");
console.log(counterTable(counters));
if (profiling) {
  const use = cpu.stop();
  const own = ownCpu.stop();
  console.log(
    `\nwall time: ${(wallMs / 1000).toFixed(0)} s for ${ran} schedules in ${parallel} lane(s): ` +
      `${(wallMs / Math.max(1, ran) / 1000).toFixed(1)} s/schedule, each schedule ${(scheduleMs / Math.max(1, ran) / 1000).toFixed(1)} s on its own; ` +
      `the slowest, seed ${slowest.seed}, ${(slowest.ms / 1000).toFixed(1)} s`,
  );
  if (use)
    console.log(
      `machine CPU idle: mean ${(100 * use.meanIdle).toFixed(0)}%, lowest 1-s sample ${(100 * use.minIdle).toFixed(0)}% ` +
        `(load average at start ${loadAtStart}, at end ${loadAverage()}); ` +
        `this run's processes used ${own.cores.toFixed(2)} cores (${own.cpuSeconds.toFixed(0)} CPU s)`,
    );
  console.log(
    `CPU s by process: ${Object.entries(own.byKind)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(", ")}`,
  );
  console.log(`where the schedules' time went (wall time; nested entries overlap their step's):`);
  console.log(profileTable(profile, scheduleMs));
}
if (failingSeeds.length) {
  const seeds = failingSeeds.sort((a, b) => a - b);
  console.log(`seeds with violations: ${seeds.join(" ")}`);
  console.log(
    `reproduce one alone: FAULT_PARALLEL=1 FAULT_SCHEDULES=1 FAULT_SEED_START=${seeds[0]} FAULT_VERBOSE=1 npm run bench faults`,
  );
}
const cut =
  ran < total
    ? ` (of ${total} asked: ${stopAsked ? "stopped by a signal" : `FAULT_BUDGET_MIN=${budgetMs / 60_000} reached`})`
    : "";
const abortedNote =
  (rerun ? `, ${rerun} run again after the harness lost its browser` : "") +
  (aborted ? `, ${aborted} aborted by the harness before their checks ended` : "");
console.log(`faults: ${ran} schedules, ${violations} violations${abortedNote}${cut}`);
