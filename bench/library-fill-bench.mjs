// The offline library's background fill (docs/decisions/072-every-device-shows-images-offline-library-by-budget.md, src/sync/pull-images.ts) on a fresh
// device, in Chromium against `npm start` (local backend, built-in engine, built app). Prints figures;
// it is not a test. Goal (issue): History's frame time while scrolling p95 <= 12 ms while the fill runs.
//
//   node bench/library-fill-bench.mjs        (or: npm run bench library-fill)
//
// One person with ROWS generations whose images are really stored. RENDERED of them are drawn through
// the `generate-image` function with the built-in engine (several requests at once), as the app makes
// them; the rest re-use those images' bytes: each is uploaded as an object of its own with the service
// role and its row inserted with the service role (the engine takes hundreds of ms per image on a
// small machine, so 1,000 renders would take minutes). Then a FRESH browser context signs in as that
// person, as a new device does, and opens History; the app pulls the rows and its background fill
// fetches every image, keeps its thumbnail and the full images its budget allows. Printed:
// - the time from the sign-in click until every record is on the device, and until every thumbnail is
//   (polled from IndexedDB by a second tab on the app's origin that runs none of the app);
// - what is kept: thumbnails and full images, in MB, and the budget the device chose;
// - History scrolled 150 px per frame under a Chromium trace while the fill runs, and the same scroll
//   once nothing is filling: the main thread's work per frame (as bench/history-bench.mjs measures it,
//   see bench/support/scroll-work.mjs) and the time between frames (requestAnimationFrame deltas).
// It stops itself after BENCH_FILL_TIMEOUT_S (300) whatever happens, printing what it has.
// Environment: CHROMIUM_PATH (/usr/bin/chromium), BENCH_FILL_PORT (4310), BENCH_FILL_API_PORT (54510),
// BENCH_FILL_DIST_DIR (dist-bench), BENCH_FILL_ROWS (1000), BENCH_FILL_RENDERED (40),
// BENCH_FILL_PARALLEL (4: renders at once), BENCH_FILL_TIMEOUT_S (300), BENCH_FILL_DETAIL (1: where
// the main thread's time goes while scrolling).
/* global document, indexedDB, window */
import { randomBytes, randomUUID } from "node:crypto";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { json, percentile, serviceRoleKeyFor, signUpInPage, startApp } from "./support/app.mjs";
import { scrollWork } from "./support/scroll-work.mjs";

const CHROME_PATH = chromiumPath();
const PORT = Number(process.env.BENCH_FILL_PORT ?? 4310);
const API_PORT = Number(process.env.BENCH_FILL_API_PORT ?? 54510);
const DIST_DIR = process.env.BENCH_FILL_DIST_DIR ?? "dist-bench";
const ROWS = Number(process.env.BENCH_FILL_ROWS ?? 1000);
const RENDERED = Math.min(ROWS, Number(process.env.BENCH_FILL_RENDERED ?? 40));
const PARALLEL = Number(process.env.BENCH_FILL_PARALLEL ?? 4);
const TIMEOUT_S = Number(process.env.BENCH_FILL_TIMEOUT_S ?? 300);
const DETAIL = process.env.BENCH_FILL_DETAIL === "1";
const PASSWORD = "correct-horse-battery";
const JWT_SECRET = randomBytes(32).toString("hex");
const STEP = 150;
const FRAMES = 400;
/** Scroll runs at most while the fill is under way (each about FRAMES / 60 s). */
const FILL_RUNS = 4;

const STYLES = ["anime", "photorealistic", "watercolor", "digital-art", "3d-render"];
const SUBJECTS = ["fox", "lighthouse", "castle", "dragon", "robot", "garden", "ship", "owl", "forest", "city"];
const PLACES = ["dunes", "harbour", "meadow", "glacier", "canyon", "island", "marsh", "valley", "cliff", "lake"];
const promptAt = (i) => `a ${SUBJECTS[i % SUBJECTS.length]} above the ${PLACES[(i >> 2) % PLACES.length]}, study ${i}`;

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const ms = (v) => `${v.toFixed(1)} ms`;
const MB = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const summary = (values) =>
  values.length
    ? `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))}`
    : "no frames";

/** Runs `work(i)` for i in [0, n) with at most `limit` at once. */
async function pool(n, limit, work) {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, n) }, async () => {
    while (next < n) await work(next++);
  });
  await Promise.all(runners);
}

/** Signs the person in over REST and answers the session. */
async function passwordSession(app, email) {
  return json(
    await fetch(`${app.api}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: app.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    }),
  );
}

/**
 * Writes the person's ROWS generations: RENDERED through generate-image (the built-in engine), the
 * rest as copies of those images' bytes, each its own object and row (service role). Answers the
 * bytes of the rendered images.
 */
async function seed(app, session) {
  const key = serviceRoleKeyFor(JWT_SECRET);
  const service = { apikey: key, Authorization: `Bearer ${key}` };
  const user = { apikey: app.anonKey, Authorization: `Bearer ${session.access_token}` };
  const userId = session.user.id;
  // The premium tier, as an operator would set it: the free tier's 5 a day would stop the renders.
  await json(
    await fetch(`${app.api}/rest/v1/rpc/get_my_limits`, {
      method: "POST",
      headers: { ...user, "Content-Type": "application/json" },
      body: "{}",
    }),
  );
  const changed = await json(
    await fetch(`${app.api}/rest/v1/user_daily_limits?user_id=eq.${userId}`, {
      method: "PATCH",
      headers: { ...service, "Content-Type": "application/json", Prefer: "return=representation" },
      body: JSON.stringify({ subscription_tier: "premium" }),
    }),
  );
  if (changed?.length !== 1) throw new Error("could not move the bench account to the premium tier");

  let t = Date.now();
  const rendered = [];
  await pool(RENDERED, PARALLEL, async (i) => {
    const answer = await json(
      await fetch(`${app.api}/functions/v1/generate-image`, {
        method: "POST",
        headers: { ...user, "Content-Type": "application/json" },
        body: JSON.stringify({
          request_id: randomUUID(),
          prompt: promptAt(ROWS - 1 - i),
          style: STYLES[i % STYLES.length],
          quality: "standard",
          aspect_ratio: "1:1",
        }),
      }),
    );
    const g = answer.generation;
    const url = new URL(g.image_url, app.api);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`rendered image ${g.image_path}: HTTP ${res.status}`);
    rendered[i] = { row: g, bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get("content-type") };
  });
  const renderSeconds = (Date.now() - t) / 1000;
  const renderedBytes = rendered.reduce((n, r) => n + r.bytes.length, 0);
  console.log(
    `  ${RENDERED} images drawn through generate-image (built-in engine, ${PARALLEL} at once) in ${renderSeconds.toFixed(1)} s; ${MB(renderedBytes / RENDERED)} each on average`,
  );

  // The rest: older than the rendered ones, a minute apart, each image its own stored object.
  t = Date.now();
  const copies = ROWS - RENDERED;
  const oldest = Date.now() - (copies + 1) * 60_000;
  const rows = [];
  await pool(copies, 8, async (i) => {
    const source = rendered[i % RENDERED];
    const id = randomUUID();
    const extension = source.row.image_path.split(".").pop();
    const path = `${userId}/${id}.${extension}`;
    await json(
      await fetch(`${app.api}/storage/v1/object/generations/${path}`, {
        method: "POST",
        headers: { ...service, "Content-Type": source.type ?? "image/png" },
        body: source.bytes,
      }),
    );
    const { image_url: _url, id: _id, created_at: _at, ...row } = source.row;
    rows[i] = {
      ...row,
      id,
      prompt: promptAt(i),
      image_path: path,
      created_at: new Date(oldest + i * 60_000).toISOString(),
    };
  });
  for (let from = 0; from < rows.length; from += 250) {
    await json(
      await fetch(`${app.api}/rest/v1/generations`, {
        method: "POST",
        headers: { ...service, "Content-Type": "application/json" },
        body: JSON.stringify(rows.slice(from, from + 250)),
      }),
    );
  }
  if (copies) {
    console.log(
      `  ${copies} more rows inserted with the service role, each with its own stored object re-using those bytes, in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  return renderedBytes;
}

/**
 * What the device holds, read from the app's IndexedDB without opening it for the app's schema
 * (an upgrade is refused, so a probe never creates the database). With `sizes`, the thumbnails'
 * bytes too (a read of every images row).
 */
function deviceState(probe, sizes = false) {
  return probe.evaluate(
    (sizes) =>
      new Promise((resolve) => {
        const open = indexedDB.open("promptcanvas");
        open.onupgradeneeded = () => open.transaction.abort();
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const idb = open.result;
          const names = [...idb.objectStoreNames];
          if (!names.includes("imageUse")) {
            idb.close();
            resolve(null);
            return;
          }
          const stores = sizes ? ["generations", "imageUse", "images"] : ["generations", "imageUse"];
          const tx = idb.transaction(stores);
          const out = { records: 0, thumbnails: 0, full: 0, fullBytes: 0, thumbnailBytes: 0 };
          tx.objectStore("generations").count().onsuccess = (e) => (out.records = e.target.result);
          tx.objectStore("imageUse").getAll().onsuccess = (e) => {
            for (const u of e.target.result) {
              if (u.thumbnail) out.thumbnails++;
              if (u.size > 0) {
                out.full++;
                out.fullBytes += u.size;
              }
            }
          };
          if (sizes) {
            tx.objectStore("images").openCursor().onsuccess = (e) => {
              const cursor = e.target.result;
              if (!cursor) return;
              const t = cursor.value.thumbnail;
              if (typeof t === "string") out.thumbnailBytes += t.length;
              cursor.continue();
            };
          }
          tx.oncomplete = () => {
            idb.close();
            resolve(out);
          };
          tx.onerror = () => {
            idb.close();
            resolve(null);
          };
        };
      }),
    sizes,
  );
}

/** Polls the device every 250 ms, noting when every record and every thumbnail arrived. */
function watchFill(probe, since) {
  const seen = { records: null, thumbnails: null, last: null, lastChange: Date.now(), stopped: false };
  let previous = "";
  const loop = (async () => {
    while (!seen.stopped) {
      const state = await deviceState(probe).catch(() => null);
      if (state) {
        seen.last = state;
        if (seen.records === null && state.records >= ROWS) seen.records = Date.now() - since;
        if (seen.thumbnails === null && state.thumbnails >= ROWS) seen.thumbnails = Date.now() - since;
        const key = `${state.records}|${state.thumbnails}|${state.full}|${state.fullBytes}`;
        if (key !== previous) {
          previous = key;
          seen.lastChange = Date.now();
        }
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    seen,
    stop: async () => {
      seen.stopped = true;
      await loop;
    },
  };
}

function printScroll(label, runs) {
  const work = runs.flatMap((r) => r.work);
  const intervals = runs.flatMap((r) => r.intervals);
  const over = work.filter((w) => w > 12).length;
  console.log(`  ${label}: main-thread work per frame ${summary(work)}; ${over} of ${work.length} frames over 12 ms`);
  console.log(`    time between frames (rAF deltas): ${summary(intervals)}`);
  if (DETAIL) {
    const byName = new Map();
    for (const r of runs) for (const [n, d] of r.byName) byName.set(n, (byName.get(n) ?? 0) + d);
    const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 14);
    console.log(
      `    main thread per frame by event (ms, nested counted in each): ${top.map(([n, d]) => `${n} ${(d / work.length).toFixed(2)}`).join(", ")}`,
    );
  }
}

const app = await startApp({ port: PORT, apiPort: API_PORT, env: { JWT_SECRET, DIST_DIR } });
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ["--no-sandbox", "--disable-gpu"] });
let finished = false;
const cleanup = async () => {
  await browser.close().catch(() => undefined);
  await app.stop().catch(() => undefined);
};
// Whatever happens, the bench stops itself.
const watchdog = setTimeout(async () => {
  if (finished) return;
  console.log(`\n  stopped after ${TIMEOUT_S} s (BENCH_FILL_TIMEOUT_S); figures above are all there are`);
  await cleanup();
  process.exit(2);
}, TIMEOUT_S * 1000);
try {
  console.log(`Library fill on a fresh device: ${ROWS} generations with stored images, Chromium 1280×900`);
  const email = `library-fill-bench-${Date.now()}@example.com`;
  const signup = await browser.newContext();
  await signUpInPage(app, await signup.newPage(), email, PASSWORD);
  await signup.close();
  const session = await passwordSession(app, email);
  await seed(app, session);
  console.log(`  seeded by ${elapsed()}`);

  // The fresh device: a new context, nothing on it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  const page = await context.newPage();
  await page.goto(`${app.url}/auth`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  const signInAt = Date.now();
  await page.getByRole("button", { name: "Sign in" }).last().click();
  await page.getByRole("button", { name: `Account menu for ${email}` }).waitFor();
  // The app has its database now; a tab on the same origin that runs none of the app watches it.
  const probe = await context.newPage();
  await probe.goto(`${app.url}/robots.txt`);
  const watch = watchFill(probe, signInAt);
  // The app's tab in front again: a tab behind another gets no animation frames and no idle time.
  await page.bringToFront();
  const quota = await page.evaluate(async () => (await navigator.storage.estimate()).quota);
  console.log(
    `  browser quota ${MB(quota)}: default budget for unsaved full images ${MB(Math.min(1e9, Math.max(1e8, quota / 10)))} (a tenth, 100 MB to 1 GB)`,
  );

  // History, as the person opens it on the new device (a navigation: the app starts its pull).
  await page.goto(`${app.url}/history`);
  await page.locator('[role=list][aria-label="Your generations"]').waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.documentElement.scrollHeight > window.innerHeight * 3, null, {
    timeout: 60_000,
  });
  const during = [];
  for (let i = 0; i < FILL_RUNS && watch.seen.thumbnails === null; i++) {
    const before = watch.seen.last?.thumbnails ?? 0;
    const run = await scrollWork(page, STEP, FRAMES);
    const after = watch.seen.last?.thumbnails ?? 0;
    run.thumbnails = [before, after];
    during.push(run);
    console.log(
      `  scroll run ${i + 1} while filling (${elapsed()}): thumbnails on the device ${before} -> ${after}; work p95 ${ms(percentile(run.work, 95))}`,
    );
  }

  // Until every thumbnail is kept and nothing has changed for 5 s (the fill's pass is over).
  const until = started + (TIMEOUT_S - 60) * 1000;
  while ((watch.seen.thumbnails === null || Date.now() - watch.seen.lastChange < 5000) && Date.now() < until) {
    await page.waitForTimeout(500);
  }
  await watch.stop();
  const kept = await deviceState(probe, true);
  const settled = watch.seen.thumbnails !== null && Date.now() - watch.seen.lastChange >= 5000;
  console.log(
    `  sign-in click to every record on the device: ${watch.seen.records === null ? "not reached" : `${(watch.seen.records / 1000).toFixed(1)} s`}`,
  );
  console.log(
    `  sign-in click to every thumbnail kept: ${watch.seen.thumbnails === null ? `not reached (${kept?.thumbnails} of ${ROWS})` : `${(watch.seen.thumbnails / 1000).toFixed(1)} s`}${settled ? "" : " (the fill was still changing things when the bench moved on)"}`,
  );
  console.log(
    `  kept: ${kept.thumbnails} thumbnails, ${MB(kept.thumbnailBytes)} (as data: URLs); ${kept.full} full images, ${MB(kept.fullBytes)}`,
  );

  // The same scroll with nothing filling: a warm-up, then the measured run.
  await scrollWork(page, STEP, 60);
  const idle = await scrollWork(page, STEP, FRAMES);
  console.log(`\n  History scrolled ${STEP} px per frame, ${FRAMES} frames a run (goal p95 <= 12 ms):`);
  printScroll(`while the fill runs (${during.length} runs)`, during);
  printScroll("nothing filling", [idle]);
  finished = true;
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
