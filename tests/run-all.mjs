// `npm test`: runs every test tier in turn (unit, db, functions, backend, e2e), shows each tool's own
// output, and ends with one line totalled over all tiers: `N passed, N failed, N skipped`.
// A tier whose tool is missing (no Chromium) counts its tests as skipped, never as passed.
// Usage: node tests/run-all.mjs [tier ...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { denoPath } from "../scripts/deno-path.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "tests/.output");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const node = process.execPath;
const bin = (p) => join(root, "node_modules", p);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  const stdout = r.stdout?.toString() ?? "";
  process.stdout.write(stdout);
  return { status: r.status ?? 1, stdout };
}

function vitestTier(project) {
  const file = join(out, `${project}.json`);
  const r = run(node, [
    bin("vitest/vitest.mjs"),
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${file}`,
  ]);
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, note: "vitest produced no report" };
  const j = JSON.parse(readFileSync(file, "utf8"));
  // A file that failed to load has no tests but is still a failure.
  const brokenFiles = (j.testResults ?? []).filter(
    (t) => t.status === "failed" && (t.assertionResults ?? []).length === 0,
  ).length;
  const res = {
    passed: j.numPassedTests,
    failed: j.numFailedTests + brokenFiles,
    skipped: j.numPendingTests + (j.numTodoTests ?? 0),
  };
  if (r.status !== 0 && res.failed === 0) res.failed = 1;
  return res;
}

function functionsTier() {
  const dir = join(root, "tests/functions");
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /_test\.ts$/.test(f))
        .map((f) => `tests/functions/${f}`)
    : [];
  if (!files.length) return { passed: 0, failed: 0, skipped: 0 };
  const r = run(denoPath(), ["test", "-A", "--no-check", ...files], { NO_COLOR: "1" });
  const m = r.stdout.match(
    /(ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \(\d+ steps?\))?(?: \| (\d+) ignored)?/,
  );
  if (!m) return { passed: 0, failed: 1, skipped: 0, note: "deno test printed no summary" };
  const res = { passed: +m[2], failed: +m[3], skipped: +(m[4] ?? 0) };
  if (r.status !== 0 && res.failed === 0) res.failed = 1;
  return res;
}

function e2eTier() {
  const pw = bin("@playwright/test/cli.js");
  if (!existsSync(join(root, "playwright.config.ts"))) return { passed: 0, failed: 0, skipped: 0 };
  if (!existsSync(CHROMIUM)) {
    const list = run(node, [pw, "test", "--list"]);
    const m = list.stdout.match(/Total: (\d+) tests?/);
    console.log(`e2e: no Chromium at ${CHROMIUM}; its tests are counted as skipped.`);
    return { passed: 0, failed: 0, skipped: m ? +m[1] : 0 };
  }
  const file = join(out, "e2e.json");
  const r = run(node, [pw, "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, note: "playwright produced no report" };
  const s = JSON.parse(readFileSync(file, "utf8")).stats;
  const res = { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
  if (r.status !== 0 && res.failed === 0) res.failed = 1;
  return res;
}

const tiers = {
  unit: () => vitestTier("unit"),
  db: () => vitestTier("db"),
  functions: functionsTier,
  backend: () => vitestTier("backend"),
  e2e: e2eTier,
};
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(tiers);
const total = { passed: 0, failed: 0, skipped: 0 };
const rows = [];
for (const name of chosen) {
  if (!tiers[name]) {
    console.error(`unknown tier ${name}; tiers: ${Object.keys(tiers).join(", ")}`);
    process.exit(2);
  }
  console.log(`\n=== tier: ${name} ===`);
  const started = Date.now();
  const r = tiers[name]();
  rows.push(
    `${name.padEnd(10)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(4)} failed ${String(r.skipped).padStart(4)} skipped  ${((Date.now() - started) / 1000).toFixed(1)} s${r.note ? "  (" + r.note + ")" : ""}`,
  );
  for (const k of Object.keys(total)) total[k] += r[k];
}
console.log("\n=== summary ===");
for (const row of rows) console.log(row);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`);
process.exit(total.failed ? 1 : 0);
