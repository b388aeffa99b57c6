// `npm run bench faults`: FAULT_SCHEDULES seeded fault schedules (default 1,000; seeds from
// FAULT_SEED_START, default 1) against one backend of its own (fresh users per schedule). Prints
// each violation with the seed that reproduces it, the recovery paths exercised, and ends with
// `faults: N schedules, V violations`. FAULT_BUDGET_MIN stops it after that many minutes (the schedule
// under way finishes), and the last line then says how many of the asked schedules ran.
import { addCounters, counterTable, startHarness, zeroCounters } from "../tests/faults/harness.ts";

const total = Number(process.env.FAULT_SCHEDULES ?? 1000);
const first = Number(process.env.FAULT_SEED_START ?? 1);
const verbose = process.env.FAULT_VERBOSE === "1";
const budgetMs = Number(process.env.FAULT_BUDGET_MIN ?? 0) * 60_000;
// FAULTS_PORT: the app's port (the backend takes it + 50,000, the fake provider + 1), so two runs can share a machine.
const port = Number(process.env.FAULTS_PORT ?? 4731);
const harness = await startHarness({
  port,
  apiPort: port + 50_000,
  providerPort: port + 1,
  log: verbose ? (l) => console.log(l) : undefined,
});
const counters = zeroCounters();
const faults: Record<string, number> = {};
let violations = 0;
/** Schedules the harness itself could not finish (a crashed browser, say): not checked to the end. */
let aborted = 0;
let notes = 0;
const failingSeeds: number[] = [];
const started = Date.now();
let ran = 0;
try {
  for (let i = 0; i < total; i++) {
    if (budgetMs > 0 && Date.now() - started > budgetMs) break;
    const seed = first + i;
    const r = await harness.runSchedule(seed);
    ran++;
    addCounters(counters, r.counters);
    for (const [k, n] of Object.entries(r.faults)) faults[k] = (faults[k] ?? 0) + n;
    notes += r.notes.length;
    if (r.violations.length) {
      failingSeeds.push(seed);
      console.log(`seed ${seed} schedule: ${r.steps.map((s, n) => `${n}:${s}`).join(" ")}`);
      for (const n of r.notes) console.log(`  note seed=${seed}: ${n.split("\n")[0]}`);
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
    const done = i + 1;
    if (done % 10 === 0 || done === total || verbose) {
      const perRun = (Date.now() - started) / done / 1000;
      console.log(
        `progress: ${done}/${total} schedules, ${violations} violations, ${perRun.toFixed(1)} s/schedule` +
          (verbose ? ` (seed ${seed}: ${r.steps.length} steps, ${(r.ms / 1000).toFixed(1)} s)` : ""),
      );
    }
  }
} finally {
  await harness.close();
}
console.log(
  `\nfaults injected: ${Object.entries(faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ")}`,
);
console.log(`actions not applied (notes, not violations): ${notes}`);
console.log("recovery paths:");
console.log(counterTable(counters));
if (failingSeeds.length) console.log(`seeds with violations: ${failingSeeds.join(" ")}`);
const cut = ran < total ? ` (of ${total} asked: FAULT_BUDGET_MIN=${budgetMs / 60_000} reached)` : "";
const abortedNote = aborted ? `, ${aborted} aborted by the harness before their checks ended` : "";
console.log(`faults: ${ran} schedules, ${violations} violations${abortedNote}${cut}`);
