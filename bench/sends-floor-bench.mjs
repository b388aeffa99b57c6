// The generator's batch figures with next to nothing on the device: what the machine allows before the
// app's own work. Prints figures; it is not a test. The same batch of 8 the generator bench queues
// (bench/generator-bench.mjs) is sent straight to generate-image on `npm start`'s local backend, at
// concurrency 1 and 2, by two bare clients: this Node process (each image downloaded), and a blank page in
// Chromium (each image shown in an <img> and decoded; no React, no IndexedDB, no service worker). Each
// sends plain (a lane frees at the answer) and streamed (a lane frees at `drawn`, as the app's queue does:
// decision 123), with the render pool at its default size and at RENDER_WORKERS=2. So the goals of issue
// 26 item 6 (a render in flight >= 85% of a batch at concurrency 1; concurrency 2 <= 0.6 of concurrency
// 1) can be read against clients that cost almost nothing, and each batch's CPU a send by kind of
// process shows what the renders share the two cores with.
//
//   node bench/sends-floor-bench.mjs        (BENCH_FLOOR_REPS: batches of each kind, 3)
import { randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { percentile, startApp } from "./support/app.mjs";
import { proUser, runBatch } from "./support/sends.mjs";
import { cpuByKind, cpuSince } from "./support/process-cpu.mjs";

const REPS = Number(process.env.BENCH_FLOOR_REPS ?? 3);

const ms = (v) => `${Math.round(v)} ms`;
const BATCH = 8;

/** One batch through `client` with its CPU a send by kind of process. */
async function measured(client, options) {
  const before = cpuByKind();
  const result = await client(options);
  return { ...result, cpu: cpuSince(before, cpuByKind()) };
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] });
try {
  for (const workers of [undefined, "2"]) {
    const secret = randomBytes(32).toString("hex");
    const env = { JWT_SECRET: secret, ...(workers ? { RENDER_WORKERS: workers } : {}) };
    const app = await startApp({ port: 55830, apiPort: 55831, env });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${app.api}/functions/v1/health`);
      const headers = await proUser(app, secret);
      const clients = [
        ["Node", (o) => runBatch(o)],
        ["a blank page in Chromium", (o) => page.evaluate(runBatch, { ...o, inPage: true })],
      ];
      const base = { api: app.api, headers, count: BATCH };
      // A batch at each concurrency through each client first, not counted: the first renders of a fresh
      // backend (and the first sends of a fresh page) run slower, which would flatter that first ratio.
      for (const [, client] of clients) {
        for (const concurrency of [1, 2]) await client({ ...base, concurrency, streamed: true, label: "Warm-up" });
      }
      console.log(
        `\nRender pool: ${workers ? `RENDER_WORKERS=${workers}` : "the default size"} (${REPS} batches of each)`,
      );
      for (const [name, client] of clients) {
        for (const streamed of [false, true]) {
          const rows = [];
          for (let rep = 0; rep < REPS; rep++) {
            const one = await measured(client, { ...base, concurrency: 1, streamed, label: `Floor c1 ${rep}` });
            const two = await measured(client, { ...base, concurrency: 2, streamed, label: `Floor c2 ${rep}` });
            rows.push({ one, two });
          }
          const cpuLine = (b) =>
            Object.entries(b.cpu ?? {})
              .map(([kind, v]) => `${kind} ${ms(v / BATCH)}`)
              .join(", ");
          const last = rows.at(-1);
          console.log(
            `  ${name}, ${streamed ? "streamed (a lane frees at drawn)" : "plain (a lane frees at the answer)"}: ` +
              `render in flight at concurrency 1 ${rows.map((r) => `${Math.round((100 * r.one.render) / r.one.wall)}%`).join(", ")}` +
              ` (goal >= 85%); concurrency 2 / 1 ${rows.map((r) => (r.two.wall / r.one.wall).toFixed(2)).join(", ")} (goal <= 0.6)`,
          );
          const p50 = (f) => ms(percentile(rows.map(f), 50));
          console.log(
            `    p50: wall a send c1 ${p50((r) => r.one.wall / BATCH)}, c2 ${p50((r) => r.two.wall / BATCH)}; ` +
              `render a send c1 ${p50((r) => r.one.render / BATCH)}`,
          );
          console.log(`    CPU a send, last batch, c1: ${cpuLine(last.one)}`);
          console.log(`    CPU a send, last batch, c2: ${cpuLine(last.two)}`);
        }
      }
    } finally {
      await context.close();
      await app.stop();
    }
  }
} finally {
  await browser.close();
}
