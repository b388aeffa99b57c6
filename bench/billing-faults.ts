// `npm run bench billing-faults`: FAULT_SCHEDULES seeded payment schedules (default 200; seeds from
// FAULT_SEED_START, default 1) on a local backend with its Stripe stand-in (PGlite, or the PostgreSQL of
// DATABASE_URL; a fresh one every 100 schedules), each with a fresh person (tests/faults/billing/). FAULT_VERBOSE=1 prints a line a schedule. Prints each violation with the seed
// that reproduces it, how often each recovery path ran, and ends with
// `billing-faults: N schedules, V violations`. A violation found becomes a fix plus its seed in
// tests/backend/billing-faults.test.ts.
import { startBackend } from "../tests/support/backend.ts";
import { BILLING_PATHS, type BillingCounters, runBillingSchedule } from "../tests/faults/billing/harness.ts";
import { describeBillingStep, makeBillingSchedule } from "../tests/faults/billing/schedule.ts";

const total = Number(process.env.FAULT_SCHEDULES ?? 200);
const first = Number(process.env.FAULT_SEED_START ?? 1);
/**
 * Schedules on one backend before a fresh one starts: the stand-in keeps every object it made in memory and in
 * its state file, so hundreds of schedules on one backend would measure its growth, not the pipeline.
 */
const SCHEDULES_A_BACKEND = 100;
const start = () => startBackend(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {});
let backend = await start();
const counters = Object.fromEntries(BILLING_PATHS.map((p) => [p, 0])) as BillingCounters;
const steps: Record<string, number> = {};
let violations = 0;
const started = Date.now();
try {
  for (let seed = first; seed < first + total; seed++) {
    if (seed > first && (seed - first) % SCHEDULES_A_BACKEND === 0) {
      await backend.stop();
      backend = await start();
    }
    for (const step of makeBillingSchedule(seed)) steps[step.kind] = (steps[step.kind] ?? 0) + 1;
    const began = Date.now();
    const out = await runBillingSchedule(backend, seed);
    if (process.env.FAULT_VERBOSE === "1") {
      console.log(`seed ${seed}: ${out.violations.length} violations, ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
    for (const p of BILLING_PATHS) counters[p] += out.counters[p];
    for (const v of out.violations) {
      violations++;
      const step = makeBillingSchedule(seed)[v.step];
      console.log(`violation: seed ${seed} step ${v.step} ${describeBillingStep(step)}: ${v.message}`);
    }
  }
} finally {
  await backend.stop();
}
console.log(
  `steps run: ${Object.entries(steps)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ")}`,
);
console.log(`recovery paths: ${BILLING_PATHS.map((p) => `${p} ${counters[p]}`).join(", ")}`);
console.log(`${((Date.now() - started) / 1000 / total).toFixed(1)} s a schedule`);
console.log(`billing-faults: ${total} schedules, ${violations} violations`);
