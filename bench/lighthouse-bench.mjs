// Lighthouse (mobile, simulated throttling) on /, /generate, /gallery and /pricing against `npm start`, plus the
// gzip size of the JavaScript the home page loads initially. Prints figures; it is not a test.
// /gallery is measured twice: empty, as a new install shows it, and then with BENCH_GALLERY_ITEMS (12)
// generations that a person made with the built-in engine and published, as a visitor meets a live one.
// Goals: performance >= 95, accessibility 100, best practices 100, SEO 100; home JS <= 100 KB gzip.
//
//   node bench/lighthouse-bench.mjs            (builds, starts the app on 127.0.0.1:4180, measures, stops it)
//   BENCH_URL=http://127.0.0.1:8080 node bench/lighthouse-bench.mjs   (measures an app already running)
//
// The app it starts treats 127.0.0.1 as the production domain (PRODUCTION_HOST, overridable), so the
// pages are measured without the development banner that every other host shows.
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_PORT (4180), BENCH_API_PORT (54380),
// BENCH_PATHS (default "/,/generate,/gallery,/pricing"), BENCH_RUNS (runs per page, median reported; default 1).
import { randomBytes, randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { json, serviceRoleKeyFor, startApp } from "./support/app.mjs";

const CHROME_PATH = chromiumPath();
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const PATHS = (process.env.BENCH_PATHS ?? "/,/generate,/gallery,/pricing").split(",");
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const GALLERY_ITEMS = Number(process.env.BENCH_GALLERY_ITEMS ?? 12);
const JWT_SECRET = randomBytes(32).toString("hex");
const GOALS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };
const HOME_JS_BUDGET_KB = 100;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function audit(url) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  try {
    const { lhr } = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: Object.keys(GOALS),
    });
    return lhr;
  } finally {
    await chrome.kill();
  }
}

function summarize(lhr) {
  const scores = Object.fromEntries(
    Object.keys(GOALS).map((k) => [k, Math.round((lhr.categories[k]?.score ?? 0) * 100)]),
  );
  const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const metrics = {
    FCP: metric("first-contentful-paint"),
    LCP: metric("largest-contentful-paint"),
    TBT: metric("total-blocking-time"),
    CLS: metric("cumulative-layout-shift"),
    SI: metric("speed-index"),
  };
  const misses = [];
  for (const [category, goal] of Object.entries(GOALS)) {
    if (scores[category] >= goal) continue;
    for (const ref of lhr.categories[category].auditRefs) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1)
        misses.push(`${category}: ${a.id} (${a.displayValue ?? a.score}) ${a.title}`);
    }
  }
  return { scores, metrics, misses };
}

/** The scripts the home page fetches until it has loaded and settled, each gzip-compressed at level 9. */
async function homeInitialJs(url) {
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    args: CHROME_FLAGS.filter((f) => f !== "--headless=new"),
  });
  try {
    const context = await browser.newContext({ serviceWorkers: "block" });
    // A returning visitor: the onboarding dialog (loaded a second later, on demand) is not part of it.
    await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
    const page = await context.newPage();
    const scripts = [];
    page.on("response", async (res) => {
      if (res.request().resourceType() === "script" && res.url().startsWith(url)) scripts.push(res);
    });
    await page.goto(`${url}/`, { waitUntil: "networkidle" });
    const files = [];
    for (const res of scripts) {
      // A script that failed to load (say, dist/ rebuilt under the running server) would count as 0 KB.
      if (!res.ok()) throw new Error(`${res.url()} answered ${res.status()}: the home JS figure would be wrong`);
      const body = await res.body();
      files.push({ path: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    }
    return files.sort((a, b) => b.gzip - a.gzip);
  } finally {
    await browser.close();
  }
}

/**
 * A person on the pro tier, opted in to the gallery, makes `count` images through generate-image (the
 * built-in engine), so each is published and stored as the product stores it.
 */
async function publishGenerations(app, count) {
  const service = serviceRoleKeyFor(JWT_SECRET);
  const admin = { apikey: service, Authorization: `Bearer ${service}`, "Content-Type": "application/json" };
  const email = `gallery-bench-${Date.now()}@example.com`;
  const session = await json(
    await fetch(`${app.api}/auth/v1/signup`, {
      method: "POST",
      headers: { apikey: app.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: "gallery-bench-password" }),
    }),
  );
  const userId = session.user.id;
  const patch = (table, body) =>
    fetch(`${app.api}/rest/v1/${table}?user_id=eq.${userId}`, { method: "PATCH", headers: admin, body }).then(json);
  await patch("user_preferences", JSON.stringify({ public_gallery_opt_in: true }));
  await patch("user_daily_limits", JSON.stringify({ subscription_tier: "pro" }));
  const subjects = ["a lighthouse at dusk", "a fox in the snow", "a neon street in the rain", "a teapot by a window"];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${app.api}/functions/v1/generate-image`, {
      method: "POST",
      headers: {
        apikey: app.anonKey,
        Authorization: `Bearer ${session.access_token}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        request_id: randomUUID(),
        prompt: `${subjects[i % subjects.length]}, study ${i + 1}`,
        style: ["photorealistic", "anime", "digital-art", "oil-painting"][i % 4],
        quality: "standard",
        aspect_ratio: "1:1",
      }),
    });
    const made = await json(res);
    if (!made.generation?.is_public) throw new Error("a bench generation was not published");
  }
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const app = process.env.BENCH_URL
  ? { url: process.env.BENCH_URL.replace(/\/+$/, ""), stop: async () => {} }
  : await startApp({
      port: Number(process.env.BENCH_PORT ?? 4180),
      apiPort: Number(process.env.BENCH_API_PORT ?? 54380),
      // Measure what production visitors get: 127.0.0.1 stands in for the production domain, so the
      // development banner (shown on every other host) is not part of the page.
      env: { PRODUCTION_HOST: process.env.PRODUCTION_HOST ?? "127.0.0.1", JWT_SECRET },
    });
try {
  console.log(
    `Lighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ""}mobile, simulated throttling, against ${app.url}\n`,
  );
  console.log("page          perf  a11y  bp   seo   FCP ms  LCP ms  TBT ms  CLS    SI ms");
  if (GALLERY_ITEMS > 0) console.log(`(/gallery+${GALLERY_ITEMS}: the gallery with ${GALLERY_ITEMS} published images)`);
  const allMisses = [];
  // /gallery again once it holds published images (the app started here has an empty database).
  const pages = PATHS.flatMap((path) =>
    path === "/gallery" && GALLERY_ITEMS > 0 && !process.env.BENCH_URL ? [path, `${path}+${GALLERY_ITEMS}`] : [path],
  );
  for (const label of pages) {
    const [path, items] = label.split("+");
    if (items) {
      await publishGenerations(app, Number(items));
      // One visit first, so the thumbnails are rendered and cached as on a gallery people already view.
      await audit(`${app.url}${path}`);
    }
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(summarize(await audit(`${app.url}${path}`)));
    const pick = (f) => median(runs.map(f));
    const s = (k) => String(pick((r) => r.scores[k])).padStart(3);
    const m = (k, digits = 0) =>
      pick((r) => r.metrics[k])
        .toFixed(digits)
        .padStart(k === "CLS" ? 6 : 7);
    console.log(
      `${label.padEnd(12)}  ${s("performance")}   ${s("accessibility")}   ${s("best-practices")}  ${s("seo")}  ${m("FCP")} ${m("LCP")} ${m("TBT")} ${m("CLS", 3)} ${m("SI")}`,
    );
    allMisses.push(...runs.at(-1).misses.map((x) => `${label} ${x}`));
  }
  console.log(`\nGoals: performance >= ${GOALS.performance}, accessibility, best practices and SEO 100.`);
  console.log(allMisses.length ? `Below goal:\n  ${allMisses.join("\n  ")}` : "Every page meets every goal.");

  const js = await homeInitialJs(app.url);
  const total = js.reduce((sum, f) => sum + f.gzip, 0);
  console.log(`\nHome page initial JavaScript (gzip -9 of each file the page loads):`);
  for (const f of js) console.log(`  ${kb(f.gzip).padStart(6)} KB  (${kb(f.raw).padStart(6)} KB raw)  ${f.path}`);
  console.log(
    `  ${kb(total).padStart(6)} KB total; budget ${HOME_JS_BUDGET_KB} KB: ${total / 1024 <= HOME_JS_BUDGET_KB ? "within" : "OVER"}`,
  );
} finally {
  await app.stop();
}
