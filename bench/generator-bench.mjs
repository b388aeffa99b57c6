// The generator through the UI against `npm start` (built-in engine, local backend), in Chromium.
// Prints figures; it is not a test. Goals: click to image visible p50 <= 300 ms; reconnect to the first
// queued task sent <= 2 s; a batch of 8 at concurrency 1 keeps a render in flight >= 85% of its wall time
// (the server's render time, from Server-Timing, over the wall time); the batch at concurrency 2 takes
// <= 0.6 of the time at concurrency 1; REST select p99 <= 50 ms while a batch renders.
//
//   node bench/generator-bench.mjs
//
// It starts its own app (BENCH_GEN_PORT 55810, BENCH_GEN_API_PORT 55811) on a temporary data directory
// with a JWT secret of its own, so it can move the bench account to the pro tier (the free tier's 5 a
// day would cut the runs short) with a service-role token, as an operator would.
// Environment: CHROMIUM_PATH (/usr/bin/chromium), BENCH_GEN_RUNS (click-to-image runs, 10).
//
// Where the time goes: the function's own steps come from its Server-Timing header (p50 of each); the
// device's, between one answer and the next send at concurrency 1, from the page's resource timings
// and its IndexedDB transactions (each one's stores, mode, start and end, recorded by an init script).
// Each batch's CPU time a send, by kind of process (Linux's /proc: bench/support/process-cpu.mjs), shows what
// shares the two cores with the renders. BENCH_GEN_TRACE=1 adds a batch at concurrency 1 under Chromium's
// tracing: the page's main-thread work in those gaps and the scripts it ran in, and each thread's busy time
// over the whole batch.
// The functions handed to page.evaluate run in the browser, where these exist.
/* global IDBDatabase */
import { randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { moveToTier, percentile, signUpInPage, startApp } from "./support/app.mjs";
import { traceDuring } from "./support/trace.mjs";
import {
  clickToImage,
  prepareBatch,
  recordFunctionTimings,
  serverTimings,
  waitCounter,
} from "./support/generator-page.mjs";
import { cpuByKind, cpuSince } from "./support/process-cpu.mjs";

const CHROME_PATH = chromiumPath();
const PORT = Number(process.env.BENCH_GEN_PORT ?? 55810);
const API_PORT = Number(process.env.BENCH_GEN_API_PORT ?? 55811);
const RUNS = Number(process.env.BENCH_GEN_RUNS ?? 10);
const TRACE = process.env.BENCH_GEN_TRACE === "1";
const PASSWORD = "correct-horse-battery";
const JWT_SECRET = randomBytes(32).toString("hex");

const pct = percentile;
const ms = (v) => `${Math.round(v)} ms`;

/** Signs up through the UI, then moves the account to the pro tier; answers its REST headers. */
async function signUpPro(app, page, email) {
  await signUpInPage(app, page, email, PASSWORD);
  return moveToTier(app, JWT_SECRET, email, PASSWORD, "pro");
}

/** p50 of each server step over some sends, in the order the function takes them. */
function phaseLine(sends) {
  const names = [...new Set(sends.flatMap((s) => Object.keys(s.phases)))];
  return names.map((n) => `${n} ${ms(pct(sends.map((s) => s.phases[n]).filter(Number.isFinite), 50))}`).join(", ");
}

/** Records, in the page, every IndexedDB transaction (stores, mode, start, end) and every resource's timing. */
function traceIndexedDb() {
  performance.setResourceTimingBufferSize(100_000);
  const log = [];
  Object.defineProperty(globalThis, "__benchIdb", { value: log });
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (stores, mode, options) {
    const tx = transaction.call(this, stores, mode, options);
    const names = typeof stores === "string" ? [stores] : [...stores];
    const entry = { db: this.name, stores: names.sort().join("+"), mode: mode ?? "readonly", start: performance.now() };
    if (log.length < 50_000) log.push(entry);
    const end = () => (entry.end ??= performance.now());
    for (const e of ["complete", "abort", "error"]) tx.addEventListener(e, end);
    return tx;
  };
}

/**
 * At concurrency 1, what the device did between each answer and the next send, from the page's own
 * records: the resource timings of the sends and of every other request, and the IndexedDB
 * transactions. Times are ms from the answer's end; answers p50s of each landmark.
 */
async function deviceGaps(page, since) {
  const { sends, others, txs } = await page.evaluate((t0) => {
    const resources = performance.getEntriesByType("resource").filter((e) => e.startTime >= t0);
    const pick = (e) => ({
      name: e.name,
      start: e.startTime,
      worker: e.workerStart,
      fetch: e.fetchStart,
      request: e.requestStart,
      response: e.responseStart,
      end: e.responseEnd,
    });
    return {
      sends: resources.filter((e) => e.name.includes("/functions/v1/generate-image")).map(pick),
      others: resources.filter((e) => !e.name.includes("/functions/v1/generate-image")).map(pick),
      txs: globalThis.__benchIdb.filter((x) => x.start >= t0),
    };
  }, since);
  sends.sort((a, b) => a.start - b.start);
  const gaps = [];
  for (let i = 1; i < sends.length; i++) {
    const from = sends[i - 1].end;
    const to = sends[i].start;
    const inGap = (x) => x.start >= from && x.start < to;
    gaps.push({
      gap: to - from,
      txs: txs.filter(inGap).map((x) => ({ ...x, start: x.start - from, end: (x.end ?? NaN) - from })),
      others: others.filter(inGap).map((x) => ({ ...x, start: x.start - from, end: x.end - from })),
    });
  }
  // Each send as the page saw it, from the fetch to the answer's last byte (cross-origin, so no finer split).
  return { gaps, sendMs: sends.map((s) => s.end - s.start) };
}

/** One line per kind of IndexedDB transaction seen in some spans ({ txs }): how many per span, p50 start and end. */
function gapLines(gaps) {
  const kinds = new Map();
  for (const g of gaps) {
    const seen = new Map();
    for (const t of g.txs) {
      const key = `${t.mode === "readwrite" ? "write" : "read"} ${t.db}:${t.stores}`;
      seen.set(key, [...(seen.get(key) ?? []), t]);
    }
    for (const [key, list] of seen) kinds.set(key, [...(kinds.get(key) ?? []), list]);
  }
  const lines = [...kinds]
    .map(([key, perGap]) => ({
      key,
      count: perGap.reduce((n, l) => n + l.length, 0) / gaps.length,
      start: pct(
        perGap.map((l) => l[0].start),
        50,
      ),
      end: pct(perGap.map((l) => l[0].end).filter(Number.isFinite), 50),
      took: pct(perGap.flatMap((l) => l.map((t) => t.end - t.start)).filter(Number.isFinite), 50),
    }))
    .sort((a, b) => a.start - b.start);
  return lines.map(
    (l) =>
      `    ${l.key}: ${l.count.toFixed(1)} per gap, first from ${ms(l.start)} to ${ms(l.end)} (each ${ms(l.took)})`,
  );
}

/**
 * Runs `work` under Chromium's tracing and answers, for the gaps between one generate-image answer and
 * the next send, the page's main-thread busy time (top-level tasks) and the time in each script.
 */
async function traceGaps(page, work) {
  const events = await traceDuring(
    page,
    {
      includedCategories: ["devtools.timeline", "toplevel", "v8.execute", "v8", "disabled-by-default-v8.cpu_profiler"],
    },
    work,
  );
  const main = events.find((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const onMain = (e) => main && e.pid === main.pid && e.tid === main.tid;
  // The sends and their answers, by the network request id the page's events share.
  const sends = events
    .filter((e) => e.name === "ResourceSendRequest" && e.args?.data?.url?.includes("/functions/v1/generate-image"))
    .map((e) => ({ id: e.args.data.requestId, start: e.ts }))
    .sort((a, b) => a.start - b.start);
  for (const s of sends) {
    const finish = events.find((e) => e.name === "ResourceFinish" && e.args?.data?.requestId === s.id);
    s.end = finish ? finish.ts : NaN;
  }
  const tasks = events.filter(
    (e) => onMain(e) && e.ph === "X" && (e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask"),
  );
  const rendering = events.filter(
    (e) =>
      onMain(e) && e.ph === "X" && ["UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize"].includes(e.name),
  );

  const gcs = events.filter((e) => onMain(e) && e.ph === "X" && /GC|Scavenge|MarkCompact/i.test(e.name));
  // The main thread's CPU samples: each attributed to the innermost frame of an app script (by file).
  const profile = events.find((e) => e.name === "Profile" && onMain(e));
  const samples = [];
  if (profile) {
    const nodes = new Map();
    let at = profile.args.data.startTime;
    for (const chunk of events.filter((e) => e.name === "ProfileChunk" && e.id === profile.id)) {
      const data = chunk.args.data;
      for (const n of data.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
      const ids = data.cpuProfile?.samples ?? [];
      ids.forEach((id, i) => {
        at += data.timeDeltas[i];
        let node = nodes.get(id);
        const leaf = node?.callFrame?.functionName;
        while (node && !node.callFrame?.url) node = nodes.get(node.parent);
        const url = node?.callFrame?.url;
        const where = url
          ? url
              .split("/")
              .pop()
              .replace(/-[\w-]{8}\.js$/, ".js")
          : leaf || "(unknown)";
        samples.push({ ts: at, where });
      });
    }
  }
  const overlap = (e, from, to) => Math.max(0, Math.min(e.ts + e.dur, to) - Math.max(e.ts, from)) / 1000;
  const gaps = [];
  for (let i = 1; i < sends.length; i++) {
    const from = sends[i - 1].end;
    const to = sends[i].start;
    if (!(to > from)) continue;
    // CPU time by script, from the samples in the gap (each stands for the time to the next one).
    const byScript = {};
    for (let k = 0; k < samples.length - 1; k++) {
      if (samples[k].ts < from || samples[k].ts >= to) continue;
      const where = samples[k].where;
      if (where === "(idle)") continue;
      byScript[where] = (byScript[where] ?? 0) + (samples[k + 1].ts - samples[k].ts) / 1000;
    }
    gaps.push({
      gap: (to - from) / 1000,
      busy: tasks.reduce((n, t) => n + overlap(t, from, to), 0),
      gc: gcs.reduce((n, t) => n + overlap(t, from, to), 0),
      rendering: rendering.reduce((n, t) => n + overlap(t, from, to), 0),
      byScript,
    });
  }
  // The whole batch, from the first send to the last answer: each thread's busy time (top-level tasks),
  // and the main thread's script time by file.
  const from = sends[0]?.start ?? 0;
  const to = sends.at(-1)?.end ?? 0;
  const names = new Map(
    events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => [`${e.pid}:${e.tid}`, e.args?.name]),
  );
  const threads = {};
  for (const e of events) {
    if (e.ph !== "X" || !(e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask")) continue;
    const name = names.get(`${e.pid}:${e.tid}`) ?? "?";
    threads[name] = (threads[name] ?? 0) + overlap(e, from, to);
  }
  const byScript = {};
  for (let k = 0; k < samples.length - 1; k++) {
    if (samples[k].ts < from || samples[k].ts >= to || samples[k].where === "(idle)") continue;
    byScript[samples[k].where] = (byScript[samples[k].where] ?? 0) + (samples[k + 1].ts - samples[k].ts) / 1000;
  }
  gaps.whole = {
    wall: (to - from) / 1000,
    threads,
    byScript,
    rendering: rendering.reduce((n, t) => n + overlap(t, from, to), 0),
    gc: gcs.reduce((n, t) => n + overlap(t, from, to), 0),
  };
  return gaps;
}

/** Queues a batch of 8 and answers the wall time from the click until Done = 8 (the list cleared first). */
async function batchWallTime(page, concurrency, restProbe) {
  const queue = await prepareBatch(page, concurrency);
  // Each send's span and the server's render time (Server-Timing provider): how far renders overlapped.
  // The page records them (recordFunctionTimings), since CDP cannot read a streamed answer's body.
  await page.evaluate(() => (globalThis.__benchTimings.length = 0));
  const since = await page.evaluate(() => performance.now());
  const cpuBefore = cpuByKind();
  const start = Date.now();
  await queue();
  const probe = restProbe?.();
  await waitCounter(page, "Done", 8);
  const wall = Date.now() - start;
  const cpu = cpuSince(cpuBefore, cpuByKind());
  // The last answer's clone may still be read when the counter shows it done.
  await page.waitForFunction(() => globalThis.__benchTimings.length >= 8, null, { timeout: 2_000 }).catch(() => {});
  const spans = (await page.evaluate(() => globalThis.__benchTimings)).map((header) => {
    const phases = serverTimings(header);
    return { provider: phases.provider ?? NaN, server: phases.total ?? NaN, phases };
  });
  const latencies = await probe?.stop();
  const renderMs = spans.reduce((sum, x) => sum + (Number.isFinite(x.provider) ? x.provider : 0), 0);
  const serverMs = spans.reduce((sum, x) => sum + (Number.isFinite(x.server) ? x.server : 0), 0);
  const device = await deviceGaps(page, since);
  return { wall, latencies, renderMs, serverMs, sends: spans.length, spans, device, cpu };
}

/** REST selects every 50 ms until stopped: the backend's responsiveness while images render. */
function restProbe(app, headers) {
  const latencies = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${app.api}/rest/v1/generations?select=id&limit=1`, { headers })).arrayBuffer();
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}

const app = await startApp({ port: PORT, apiPort: API_PORT, env: { JWT_SECRET } });
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await context.addInitScript(traceIndexedDb);
  await context.addInitScript(recordFunctionTimings);
  const page = await context.newPage();
  const headers = await signUpPro(app, page, `bench-${Date.now().toString(36)}@example.com`);
  await page.goto(`${app.url}/generate`);
  await page.getByLabel("Prompt", { exact: true }).waitFor();
  await page.evaluate(async () => navigator.serviceWorker.ready);

  console.log(`Generator through the UI against ${app.url} (built-in engine, local backend)\n`);
  await clickToImage(page, "Warm-up image, not counted");
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await clickToImage(page, `Bench image ${i + 1}, a red fox in the snow`));
  const clicks = runs.map((r) => r.total);
  console.log(
    `Click to image visible (${RUNS} runs): p50 ${ms(pct(clicks, 50))}, p95 ${ms(pct(clicks, 95))}  (goal p50 <= 300 ms)`,
  );
  console.log(`  each: ${clicks.map((c) => Math.round(c)).join(", ")}`);
  const phase = (key) => ms(pct(runs.map((r) => r[key]).filter(Number.isFinite), 50));
  console.log(
    `  p50 by phase: click to send ${phase("beforeSend")}, send to answer ${phase("send")}, answer to image request ` +
      `${phase("afterAnswer")}, image fetch ${phase("imageFetch")}, answer to image shown ${phase("answerToShown")}; ` +
      `shown from the answer's URL in ` +
      `${runs.filter((r) => !r.fromLocalBytes).length} of ${RUNS}`,
  );
  console.log("  IndexedDB transactions between the click and the send (ms from the click):");
  for (const line of gapLines(runs)) console.log(line);

  const reconnects = [];
  for (let i = 0; i < 3; i++) {
    // The queue card lists the first 10 tasks only: clear the finished ones so the new one shows.
    const clear = page.getByRole("button", { name: "Clear all" });
    if (await clear.isVisible()) await clear.click();
    await context.setOffline(true);
    await page.getByLabel("Prompt", { exact: true }).fill(`Queued offline ${i + 1}`);
    await page.getByRole("button", { name: /^Generate/ }).click();
    await page.getByText("Waiting for connection").first().waitFor();
    const sent = page.waitForRequest((r) => r.url().includes("/functions/v1/generate-image"), { timeout: 30_000 });
    const start = Date.now();
    await context.setOffline(false);
    await sent;
    reconnects.push(Date.now() - start);
    await page.getByText("Waiting for connection").waitFor({ state: "detached" });
    await waitCounter(page, "Running", 0);
  }
  console.log(`Reconnect to first queued task sent (3 runs): ${reconnects.map(ms).join(", ")}  (goal <= 2 s)`);

  const one = await batchWallTime(page, 1);
  const two = await batchWallTime(page, 2, () => restProbe(app, headers));
  console.log(
    `Batch of 8: concurrency 1 ${ms(one.wall)}, concurrency 2 ${ms(two.wall)}, ratio ${(two.wall / one.wall).toFixed(2)}  (goal <= 0.6)`,
  );
  for (const [c, r] of [
    [1, one],
    [2, two],
  ]) {
    console.log(
      `  concurrency ${c}: ${r.sends} sends, server render time ${ms(r.renderMs)} in total = ${(r.renderMs / r.wall).toFixed(2)} renders at once on average` +
        (c === 1 ? `; a render in flight ${Math.round((100 * r.renderMs) / r.wall)}% of the time  (goal >= 85%)` : "") +
        `; per send: render ${ms(r.renderMs / r.sends)}, whole function ${ms(r.serverMs / r.sends)}, wall ${ms(r.wall / r.sends)}`,
    );
    console.log(`    server steps, p50: ${phaseLine(r.spans)}`);
    if (r.cpu) {
      const total = Object.values(r.cpu).reduce((a, b) => a + b, 0);
      const each = Object.entries(r.cpu)
        .map(([kind, v]) => `${kind} ${ms(v / r.sends)}`)
        .join(", ");
      console.log(
        `    CPU a send: ${ms(total / r.sends)} (${(total / r.wall).toFixed(2)} cores over the batch): ${each}`,
      );
    }
  }
  const { gaps, sendMs } = one.device;
  // At concurrency 1 the answers come in the order the sends went out.
  const outside = sendMs.map((t, i) => t - one.spans[i]?.server).filter(Number.isFinite);
  console.log(
    `  concurrency 1, a send's time outside the function (network, gateway, functions host) p50 ` +
      `${ms(pct(outside, 50))}; device between an answer and the next send (below 0: sent before the answer) p50 ${ms(
        pct(
          gaps.map((g) => g.gap),
          50,
        ),
      )} (each: ${gaps.map((g) => Math.round(g.gap)).join(", ")}), with these IndexedDB transactions (ms from the answer):`,
  );
  for (const line of gapLines(gaps)) console.log(line);
  const otherRequests = gaps.flatMap((g) =>
    g.others.map((o) => new URL(o.name).pathname.replace(/[0-9a-f-]{36}/g, ":id")),
  );
  const counts = Object.entries(otherRequests.reduce((acc, p) => ({ ...acc, [p]: (acc[p] ?? 0) + 1 }), {})).map(
    ([p, n]) => `${p} ×${(n / gaps.length).toFixed(1)} per gap`,
  );
  console.log(`    other requests started in the gaps: ${counts.join(", ") || "none"}`);
  if (TRACE) {
    const traced = await traceGaps(page, () => batchWallTime(page, 1));
    const scripts = {};
    for (const g of traced) for (const [k, v] of Object.entries(g.byScript)) scripts[k] = (scripts[k] ?? 0) + v;
    const top = Object.entries(scripts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, v]) => `${k} ${ms(v / traced.length)}`);
    const p50 = (key) =>
      ms(
        pct(
          traced.map((g) => g[key]),
          50,
        ),
      );
    console.log(
      `  traced batch at concurrency 1 (${traced.length} gaps): gap p50 ${p50("gap")}, the page's main thread ` +
        `busy p50 ${p50("busy")} (style, layout and paint ${p50("rendering")}, garbage collection ${p50("gc")}); ` +
        `script time per gap: ${top.join(", ")}`,
    );
    const whole = traced.whole;
    const busiest = (o) =>
      Object.entries(o)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(", ");
    console.log(
      `  the whole traced batch (${ms(whole.wall)}): threads busy ${busiest(whole.threads)}; on the main thread ` +
        `style, layout and paint ${ms(whole.rendering)}, garbage collection ${ms(whole.gc)}, scripts ${busiest(whole.byScript)}`,
    );
  }
  const rest = two.latencies ?? [];
  console.log(
    `REST select during the concurrency-2 batch (${rest.length} requests): p50 ${ms(pct(rest, 50))}, p99 ${ms(pct(rest, 99))}, max ${ms(Math.max(...rest))}  (goal p99 <= 50 ms)`,
  );
  console.log("\nHome page initial JS gzip: see the lighthouse bench (npm run bench -- lighthouse).");
} finally {
  await browser.close();
  await app.stop();
}
