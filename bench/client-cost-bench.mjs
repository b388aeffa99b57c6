// What the app costs the device a made image, against a client that costs next to nothing, in one run on
// one backend (`npm start`'s, built-in engine). Prints figures; it is not a test.
//
// The same batch (8 sends, streamed, at the app's default concurrency of 2, with the style, quality,
// aspect ratio and negative prompt the app's form sends) goes out BENCH_CC_REPS times (5) from a blank
// page (each image shown in an <img> and decoded: bench/support/sends.mjs) and from the app's generator
// through its UI (queued as a person queues a batch), each side in its own Chromium, the two sides'
// batches in turn. Each side's CPU a send is read by kind of process from /proc
// (bench/support/process-cpu.mjs, without the other side's browser) over its batches, each from its start
// (for the app, the click on Queue) to its end and 1.5 s more; "besides the render" sums every kind but the
// backend's render processes, whose work is the same on both sides. First (they tell the settings both
// sides send), BENCH_CC_RUNS (10) single images, from the click on Generate to the frame that shows the
// image, beside the render time the server reported for each (Server-Timing `provider`), and as many from
// the blank page, from its send to its image decoded: what is past the render with no app.
// Goals (issue: the client's cost per image): ratio <= 2; click to image p50 <= render p50 + 50 ms.
//
//   node bench/client-cost-bench.mjs      (BENCH_CC_PORT 55850, BENCH_CC_API_PORT 55851)
//
// The last two lines are the figures, in this form:
//   cpu a send: app X ms, blank page Y ms, ratio Z
//   click to image p50 X ms, render p50 Y ms
import { randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { moveToTier, percentile, signUpInPage, startApp } from "./support/app.mjs";
import * as generator from "./support/generator-page.mjs";
import { cpuBesidesRender, cpuByKind, cpuLine, cpuSince } from "./support/process-cpu.mjs";
import { BATCH_SUBJECT, proUser, runBatch } from "./support/sends.mjs";

const PORT = Number(process.env.BENCH_CC_PORT ?? 55850);
const API_PORT = Number(process.env.BENCH_CC_API_PORT ?? 55851);
const REPS = Number(process.env.BENCH_CC_REPS ?? 5);
const RUNS = Number(process.env.BENCH_CC_RUNS ?? 10);
const BATCH = 8;
const CONCURRENCY = 2;
// Both sides' prompts, so the built-in engine draws the same kind of scene for each (the blank page numbers
// its sends: "A batch 3, a red fox in the snow"; the app's batch is eight of one prompt).
const BATCH_LABEL = "A batch";
const JWT_SECRET = randomBytes(32).toString("hex");

/** After each counted batch: what a batch leaves running (the last image kept, a pass of the offline library) counts too. */
const SETTLE_MS = 1_500;

/**
 * Each side runs in its own browser, marked by a switch on its command line that Chromium ignores, so one
 * side's batch is counted without the other browser's processes (bench/support/process-cpu.mjs).
 */
const MARK = { app: "--bench-side=app", blank: "--bench-side=blank" };

/**
 * One batch's CPU by kind of process, without the other side's browser: from the moment `prepare()`'s
 * answer starts the batch until it has ended and SETTLE_MS have passed.
 */
async function countBatch(prepare, leaveOut) {
  const batch = await prepare();
  const before = cpuByKind({ leaveOut });
  await batch();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return cpuSince(before, cpuByKind({ leaveOut })) ?? {};
}

/** Sums CPU by kind into `total`. */
function addCpu(total, cpu) {
  for (const [kind, ms] of Object.entries(cpu)) total[kind] = (total[kind] ?? 0) + ms;
}

const sortedCpu = (total) => Object.fromEntries(Object.entries(total).sort((a, b) => b[1] - a[1]));

/**
 * The blank page's batches: a page on the backend's origin, no React, no IndexedDB, no service worker,
 * sending the settings the app's sends asked for (`settings`), so both make the same images. Answers the
 * function that readies one batch (`prepare`) and `close()`.
 */
async function blankPage(browser, app, settings) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${app.api}/functions/v1/health`);
  const headers = await proUser(app, JWT_SECRET, "blank");
  const options = { api: app.api, headers, count: BATCH, concurrency: CONCURRENCY, streamed: true, inPage: true };
  const batch = { ...options, settings, label: BATCH_LABEL, subject: BATCH_SUBJECT };
  /** One image at a time, RUNS of them after a warm-up: each send to its image decoded, past its render. */
  const singles = async () => {
    const past = [];
    for (let i = 0; i <= RUNS; i++) {
      const one = { ...options, count: 1, concurrency: 1, settings, label: "Single", subject: BATCH_SUBJECT };
      const { wall, render } = await page.evaluate(runBatch, one);
      if (i > 0) past.push(wall - render);
    }
    return past;
  };
  return { prepare: async () => () => page.evaluate(runBatch, batch), singles, close: () => context.close() };
}

/** The render time the server reported for the newest generate-image answer the page recorded. */
async function lastRender(page, count) {
  await page.waitForFunction((n) => globalThis.__benchTimings.length >= n, count, { timeout: 5_000 });
  const timing = await page.evaluate(() => globalThis.__benchTimings.at(-1));
  return typeof timing === "string"
    ? (generator.serverTimings(timing).provider ?? NaN)
    : Number(timing?.provider ?? NaN);
}

/**
 * The app through its generator: single images from the click to the image shown and the settings they were
 * sent with; `prepare()` readies one batch (its answer runs it), `close()` ends it.
 */
async function theApp(browser, app) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
    await context.addInitScript(generator.recordFunctionTimings);
    const page = await context.newPage();
    const email = `client-cost-${Date.now().toString(36)}@example.com`;
    await signUpInPage(app, page, email, "correct-horse-battery");
    await moveToTier(app, JWT_SECRET, email, "correct-horse-battery", "pro");
    await page.goto(`${app.url}/generate`);
    await page.getByLabel("Prompt", { exact: true }).waitFor();
    await page.evaluate(async () => navigator.serviceWorker.ready);
    // Single images first: the batches leave Batch mode on in the form.
    const clicks = [];
    const renders = [];
    for (let i = 0; i <= RUNS; i++) {
      const seen = await page.evaluate(() => globalThis.__benchTimings.length);
      const run = await generator.clickToImage(page, `Click ${i}, a red fox in the snow`);
      const render = await lastRender(page, seen + 1);
      if (i === 0) continue; // the first, a warm-up, is not counted
      clicks.push(run);
      renders.push(render);
    }
    const settings = await page.evaluate(() => globalThis.__benchSettings);
    // The batches' CPU is the app's alone: the page stops reading its answers' timings for the benchmark.
    await page.evaluate(() => (globalThis.__benchTimingsOff = true));
    const prepare = async () => {
      const queue = await generator.prepareBatch(page, CONCURRENCY, `${BATCH_LABEL}, ${BATCH_SUBJECT}`);
      return async () => {
        await queue();
        await generator.waitCounter(page, "Done", BATCH);
      };
    };
    return { clicks, renders, settings, prepare, close: () => context.close() };
  } catch (e) {
    await context.close();
    throw e;
  }
}

const ms = (v) => `${Math.round(v)} ms`;
const app = await startApp({ port: PORT, apiPort: API_PORT, env: { JWT_SECRET } });
const launch = (mark) =>
  chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu", mark] });
const browsers = await Promise.all([launch(MARK.app), launch(MARK.blank)]);
try {
  console.log(
    `The client's cost a made image against ${app.url}: ${REPS} batches of ${BATCH} at concurrency ${CONCURRENCY}, ` +
      "the sides' batches in turn",
  );
  // The app's single images first: they show the settings its sends carry, which the blank page sends too.
  const theApps = await theApp(browsers[0], app);
  const { clicks: runs, renders, settings } = theApps;
  const blankPages = await blankPage(browsers[1], app, settings);
  // The same single images from the blank page: what the server and the browser's fetch and decode leave
  // past the render, with no app around them.
  const blankPast = await blankPages.singles();
  // One batch each not counted (a warm-up), then the sides' batches in turn, so whatever else the machine
  // does meanwhile falls on both alike.
  for (const side of [blankPages, theApps]) await side.prepare().then((batch) => batch());
  const blankTotal = {};
  const appTotal = {};
  for (let i = 0; i < REPS; i++) {
    addCpu(blankTotal, await countBatch(blankPages.prepare, MARK.app));
    addCpu(appTotal, await countBatch(theApps.prepare, MARK.blank));
  }
  await Promise.all([theApps.close(), blankPages.close()]);
  const blank = sortedCpu(blankTotal);
  const cpu = sortedCpu(appTotal);
  console.log(`  both sides' sends: ${JSON.stringify(settings)}`);
  const clicks = runs.map((r) => r.total);
  const phase = (key) => ms(percentile(runs.map((r) => r[key]).filter(Number.isFinite), 50));
  const sends = REPS * BATCH;
  console.log(`  blank page, CPU a send by process: ${cpuLine(blank, sends)}`);
  console.log(`  app, CPU a send by process: ${cpuLine(cpu, sends)}`);
  console.log(
    `  click to image (${RUNS} runs): ${clicks.map(Math.round).join(", ")}; render: ${renders.map(Math.round).join(", ")}`,
  );
  console.log(
    `  click to image p50 by phase: click to send ${phase("beforeSend")}, send to answer ${phase("send")}, ` +
      `answer to image shown ${phase("answerToShown")}`,
  );
  const appPast = runs.map((r, i) => r.total - r.beforeSend - renders[i]).filter(Number.isFinite);
  console.log(
    `  past the render p50: app, send to image shown ${ms(percentile(appPast, 50))} (and click to send); ` +
      `blank page, send to image decoded ${ms(percentile(blankPast, 50))}`,
  );
  const app1 = cpuBesidesRender(cpu, sends);
  const blank1 = cpuBesidesRender(blank, sends);
  console.log("Goals: ratio <= 2; click to image p50 <= render p50 + 50 ms.");
  console.log(`cpu a send: app ${ms(app1)}, blank page ${ms(blank1)}, ratio ${(app1 / blank1).toFixed(2)}`);
  console.log(`click to image p50 ${ms(percentile(clicks, 50))}, render p50 ${ms(percentile(renders, 50))}`);
} finally {
  await Promise.all(browsers.map((b) => b.close()));
  await app.stop();
}
