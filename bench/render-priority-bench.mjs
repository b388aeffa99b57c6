// Priority in the built-in engine's render pool (docs/decisions/153-paid-renders-start-first.md): with 8
// free renders waiting, does a paid render start within one render's time? Runs the local backend's own
// pool (supabase/local/render-pool.ts, its default niceness, the real render process) with real 1024 × 1024
// renders, with one process (the default on two cores, and the hardest case: every waiting render waits
// for the same one), all in one run:
//   - rounds of: one free render (running), then 8 free renders (waiting), then one paid render (pro),
//     submitted together: its wait is from its submission to its start, beside the time of the render it
//     waited for (the paid render comes just as that one starts: the longest wait it can have);
//   - each followed by the same round with that last render free, as the queue was before priorities;
//   - the median render time is every render of these rounds (the same load as the waits).
// A render's start is read from the others' ends: the pool starts the next waiting job as soon as its one
// process answers, so a render starts at the last end before its own (or at its submission, were the
// process idle).
// Ends with `paid render wait X ms, median render Y ms, ratio Z`: since the paid render comes as the running
// one starts, Z is about 1 and moves with how much renders vary. The goal (a paid render starts within one
// render's time) is the line before it: its wait over the render it waited for, at most 1 in every round.
// Prints the load average: figures from a busy machine say so. PRIORITY_ROUNDS sets the rounds (5).
// Run: `npm run bench render-priority` (Deno: `deno run -A bench/render-priority-bench.mjs`). Asserts nothing.
import { loadavg } from "node:os";
import process from "node:process";
import { createRenderPool } from "../supabase/local/render-pool.ts";
import { RENDER_PRIORITY } from "../supabase/functions/_shared/providers/builtin.ts";

const WAITING = 8;
const ROUNDS = Number(process.env.PRIORITY_ROUNDS ?? 5);
const size = 1;

let seed = 1;
const input = () => ({
  prompt: "a lighthouse on a cliff at dusk, waves below",
  style: "watercolor",
  quality: "standard",
  width: 1024,
  height: 1024,
  seed: seed++,
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (n) => `${n.toFixed(0).padStart(6)} ms`;

/** Submits a render; answers when it was submitted and when it ended (performance.now()). */
function submit(pool, priority) {
  const submitted = performance.now();
  return pool.render(input(), { priority }).then(() => ({ submitted, ended: performance.now() }));
}

/** One round: the pool busy, WAITING free renders queued, then the measured render at `priority`. */
async function round(pool, priority) {
  const others = [];
  for (let k = 0; k < size + WAITING; k++) others.push(submit(pool, RENDER_PRIORITY.free));
  const measured = submit(pool, priority);
  const [m, ...rest] = await Promise.all([measured, ...others]);
  const before = rest.filter((r) => r.ended < m.ended);
  const started = Math.max(m.submitted, ...before.map((r) => r.ended));
  // The render running when it came: the first one, which started at its submission to the idle pool.
  const running = rest[0].ended - rest[0].submitted;
  // Every render of the round, one after another in the one process: each from the previous end to its own.
  const ends = [m, ...rest].map((r) => r.ended).sort((a, b) => a - b);
  const renders = [running, ...ends.slice(1).map((t, k) => t - ends[k])];
  return { wait: started - m.submitted, running, startedAfter: before.length, renders };
}

const pool = createRenderPool({ size });
try {
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  console.log(`render pool: ${size} process, ${navigator.hardwareConcurrency} cores, load average ${load}`);
  await pool.render(input()); // the process is up and warm before anything is timed
  const rows = { paid: [], free: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, priority] of [
      ["paid", RENDER_PRIORITY.pro],
      ["free", RENDER_PRIORITY.free],
    ]) {
      const x = await round(pool, priority);
      rows[name].push(x);
      console.log(
        `round ${r + 1} ${name.padEnd(4)}: waited ${ms(x.wait)} for a running render of ${ms(x.running)}, ` +
          `started after ${x.startedAfter} of the ${size + WAITING} queued before it`,
      );
    }
  }
  const all = [...rows.paid, ...rows.free].flatMap((x) => x.renders);
  const renderMs = median(all);
  const paid = median(rows.paid.map((x) => x.wait));
  const free = median(rows.free.map((x) => x.wait));
  const worst = Math.max(...rows.paid.map((x) => x.wait / x.running));
  console.log(
    `renders in these rounds: ${all.length}, median ${ms(renderMs)}, min ${ms(Math.min(...all))}, max ${ms(Math.max(...all))}`,
  );
  console.log(
    `free render in the paid one's place (first come first served): wait ${ms(free)}, ${(free / renderMs).toFixed(2)} renders`,
  );
  console.log(`paid wait / the render it waited for: worst ${worst.toFixed(2)} (goal <= 1)`);
  console.log(
    `paid render wait ${paid.toFixed(0)} ms, median render ${renderMs.toFixed(0)} ms, ratio ${(paid / renderMs).toFixed(2)}`,
  );
  console.log(
    `load average at the end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await pool.close();
}
