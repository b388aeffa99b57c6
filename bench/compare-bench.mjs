// Compare with 10,000 generations in the library (issue 46: compare opens in <= 200 ms), in Chromium
// against `npm start` (local backend, built app). Prints figures; it is not a test.
//
//   node bench/compare-bench.mjs
//
// The library is seeded as bench/history-bench.mjs seeds it (bench/support/library-seed.mjs): 10,000
// rows written on the server, pulled into Dexie by the app, a thumbnail for each, and the newest four
// with their full 1024² image on the device (as images made or opened there are kept). Then, in the
// page, on History with the whole list read: "Select to compare", the newest 2 (then 4) ticked, and a
// click on Compare timed to the comparison shown: the table's count of differing fields and every
// compared picture decoded (one's own image shows its kept thumbnail until its full picture is read; the
// time to every full picture is printed too), 9 runs each, back to History between them. Also timed: the same comparison
// opened by its link as a full page load (navigation start to the same point), as on another device.
// Environment: CHROMIUM_PATH, BENCH_COMPARE_PORT (55830), BENCH_COMPARE_API_PORT (55831),
// BENCH_COMPARE_ROWS (10000).
/* global document, requestAnimationFrame, window */
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { json, percentile, signUpInPage, startApp } from "./support/app.mjs";
import { seedImages, seedServer, waitForPull } from "./support/library-seed.mjs";

const PORT = Number(process.env.BENCH_COMPARE_PORT ?? 55830);
const API_PORT = Number(process.env.BENCH_COMPARE_API_PORT ?? 55831);
const ROWS = Number(process.env.BENCH_COMPARE_ROWS ?? 10_000);
const PASSWORD = "correct-horse-battery";
const JWT_SECRET = randomBytes(32).toString("hex");
// Many runs, and the fastest printed beside the median: on a shared machine the load decides most of the spread.
const RUNS = 9;

const ms = (v) => `${v.toFixed(1)} ms`;
const summary = (values) =>
  `min ${ms(Math.min(...values))}, p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))}`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/**
 * Installed in every page of the bench's context: polls, each animation frame, until the comparison of
 * `count` images is drawn. Answers the ms since `start` to the table (its caption counting what differs),
 * to the comparison shown (the table, and every picture decoded: one's own image shows its kept
 * thumbnail first) and to every full picture decoded.
 */
function installDrawnProbe() {
  // A decode is refused when the picture's source changes meanwhile (its full picture arrived): look again.
  const decoded = (pictures) =>
    Promise.all(pictures.map((img) => img.decode())).then(
      () => true,
      () => false,
    );
  window.comparisonDrawn = async (count, start) => {
    const at = {};
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const caption = document.querySelector("main table caption")?.textContent ?? "";
      const pictures = [...document.querySelectorAll('main figure[aria-label^="Image "] img')];
      if (!at.table && /differ|same/.test(caption)) at.table = performance.now() - start;
      if (at.table && !at.shown && pictures.length === count && (await decoded(pictures))) {
        at.shown = performance.now() - start;
      }
      const full = pictures.filter((img) => img.hasAttribute("data-full"));
      if (at.shown && full.length === count && (await decoded(full))) return { ...at, full: performance.now() - start };
      if (performance.now() - start > 30_000) throw new Error("the comparison was not drawn within 30 s");
    }
  };
}

/** On History: "Select to compare", the newest `count` ticked, then Compare clicked and timed. */
async function openFromHistory(page, url, ids, count) {
  await page.goto(`${url}/history`);
  await page
    .getByRole("status")
    .filter({ hasText: `${ROWS.toLocaleString("en-US")} generations` })
    .waitFor();
  // The whole list is in (the page reads it after the first screen) before the click.
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
  await page.getByRole("button", { name: "Select to compare" }).click();
  const grid = page.getByRole("list", { name: "Your generations" });
  for (let i = 0; i < count; i++) await grid.getByRole("checkbox").nth(i).check();
  const expected = ids.slice(0, count);
  return page.evaluate(
    async ({ count, expected }) => {
      const link = document.querySelector('[role=toolbar][aria-label="Compare"] a[href^="/compare"]');
      if (!link || !expected.every((id) => link.getAttribute("href").includes(id))) {
        throw new Error(`Compare does not name the newest ${count}: ${link?.getAttribute("href")}`);
      }
      const start = performance.now();
      link.click();
      return window.comparisonDrawn(count, start);
    },
    { count, expected },
  );
}

/** The comparison opened by its address as a full page load: navigation start to the comparison drawn. */
async function openByLink(page, url, ids) {
  await page.goto(`${url}/compare?ids=${ids.join(",")}`, { waitUntil: "commit" });
  return page.evaluate((count) => window.comparisonDrawn(count, 0), ids.length);
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] });
const app = await startApp({ port: PORT, apiPort: API_PORT, env: { JWT_SECRET } });
try {
  const email = `compare-bench-${Date.now()}@example.com`;
  const signup = await browser.newContext();
  await signUpInPage(app, await signup.newPage(), email, PASSWORD);
  await signup.close();
  const session = await json(
    await fetch(`${app.api}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: app.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    }),
  );
  await seedServer(app, JWT_SECRET, session.user.id, ROWS);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await context.addInitScript(installDrawnProbe);
  const page = await context.newPage();
  await page.goto(`${app.url}/auth`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).last().click();
  await page.getByRole("button", { name: `Account menu for ${email}` }).waitFor();
  await page.goto(`${app.url}/generate`);
  await waitForPull(page, ROWS);
  const seeded = await seedImages(page, 4);
  console.log(`Compare with ${ROWS.toLocaleString("en-US")} generations in the library, Chromium 1280×900`);
  console.log(`  seeded: ${seeded.records} records, each with a thumbnail; the newest 4 with a 1024² PNG`);
  console.log(`  load average before: ${load()} (2 cores, shared with other work)`);
  for (const count of [2, 4]) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await openFromHistory(page, app.url, seeded.newest, count));
    const shown = runs.map((r) => r.shown);
    console.log(
      `  ${count} images, click on Compare (History) to the table and every picture shown: ${summary(shown)}  (goal <= 200 ms); each (ms): ${shown.map(Math.round).join(", ")}`,
    );
    console.log(`    to the table alone: ${summary(runs.map((r) => r.table))}`);
    console.log(`    to every full 1024² picture decoded: ${summary(runs.map((r) => r.full))}`);
  }
  const cold = [];
  for (let i = 0; i < RUNS; i++) cold.push((await openByLink(page, app.url, seeded.newest.slice(0, 4))).shown);
  console.log(
    `  4 images opened by their link (a full page load, navigation start to shown): ${summary(cold)}; each (ms): ${cold.map(Math.round).join(", ")}`,
  );
  console.log(`  load average after: ${load()}`);
} finally {
  await browser.close();
  await app.stop();
}
