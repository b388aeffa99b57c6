// `npm test`: runs every tier in turn (static, unit, db, functions, local, backend, e2e), shows each tool's
// own output, and ends with one line totalled over all tiers: `N passed, N failed[, N skipped]`.
// Honest counts: a tier never turns green by running nothing. In CI (CI=true) a missing tool (Deno,
// PostgreSQL, Chromium), an e2e listing that fails or a tier that ran no test is a failure; on a
// developer's machine a missing tool is reported and its tests count as skipped.
// Usage: node tests/run-all.mjs [tier ...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { chromiumPath } from "../scripts/chromium.mjs";
import { GATES, findDeno, runGate } from "../scripts/gates.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "tests/.output");
const node = process.execPath;
const bin = (p) => join(root, "node_modules", p);
const CHROMIUM = chromiumPath();
const CI = /^(1|true|yes)$/i.test(process.env.CI ?? "");
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  const stdout = r.stdout?.toString() ?? "";
  process.stdout.write(stdout);
  return { status: r.error ? 1 : (r.status ?? 1), stdout };
}

/** A tool the tier needs is missing: a failure in CI, skipped tests (as many as are known) elsewhere. */
function missingTool(what, known = 0) {
  console.log(`${what}${CI ? " (CI: counted as a failure)" : "; its tests count as skipped"}.`);
  return CI
    ? { passed: 0, failed: 1, skipped: known, note: what }
    : { passed: 0, failed: 0, skipped: known, note: what };
}

/** Test files under `dir` (recursively) matching `pattern`, leaving out fakes and fixtures. */
function testFiles(dir, pattern) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && pattern.test(e.name))
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
    .filter((f) => !/(^|\/)(fakes|fixtures)\//.test(f))
    .sort();
}

/** The first line of a failure message, without colour codes, kept short for the summary. */
function firstLine(text = "") {
  const line = stripVTControlCharacters(String(text))
    .split("\n")
    .map((l) => l.trim())
    .find(Boolean);
  return (line ?? "").slice(0, 200);
}

/** Failed tests named in a vitest JSON report: `file › test: first line of the message`. */
function vitestFailures(report) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const path = relative(root, file.name ?? "");
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    if (file.status === "failed" && !failed.length) names.push(`${path}: ${firstLine(file.message) || "file failed"}`);
    for (const t of failed) names.push(`${path} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  }
  return names;
}

/** Failed tests named in a Playwright JSON report. */
function playwrightFailures(report) {
  const names = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue;
      const error = spec.tests?.flatMap((t) => t.results ?? []).find((r) => r.error)?.error;
      names.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error?.message)}`);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return names;
}

/** Tests that failed and then passed on CI's one retry, with the first failure's message. */
function playwrightFlaky(report) {
  const names = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "flaky") continue;
        const error = (t.results ?? []).find((r) => r.error)?.error;
        names.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error?.message)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return names;
}

function postgresAvailable() {
  const probe = `const pg=require("pg");const c=new pg.Client({connectionString:process.argv[1],connectionTimeoutMillis:2000});
c.connect().then(()=>c.query("select 1")).then(()=>process.exit(0),()=>process.exit(1));`;
  return spawnSync(node, ["-e", probe, POSTGRES_URL], { cwd: root, timeout: 10_000 }).status === 0;
}

function staticTier() {
  const res = { passed: 0, failed: 0, skipped: 0, notes: [] };
  for (const gate of GATES) {
    console.log(`--- gate ${gate.name}: ${gate.what}`);
    const r = runGate(gate);
    console.log(`--- gate ${gate.name}: ${r.status} in ${r.seconds.toFixed(1)} s${r.note ? ` (${r.note})` : ""}`);
    res.notes.push(`${gate.name} ${r.status === "passed" ? "" : r.status + " "}${r.seconds.toFixed(1)} s`);
    if (r.status === "passed") res.passed++;
    else if (r.status === "unavailable") {
      const m = missingTool(`gate ${gate.name}: ${r.note}`);
      res.failed += m.failed;
      res.skipped += m.failed ? 0 : 1;
    } else res.failed++;
  }
  return { ...res, note: res.notes.join(", ") };
}

function vitestTier(project, { needsPostgres = false } = {}) {
  // The tests themselves skip (and say so) without PostgreSQL; in CI that is a missing tool, not a pass.
  const noPostgres = needsPostgres && !postgresAvailable();
  if (noPostgres) console.log(`${project}: no PostgreSQL at ${POSTGRES_URL}; the tests that need it skip.`);
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
    failures: vitestFailures(j),
  };
  if (r.status !== 0 && res.failed === 0) res.failed = 1;
  if (noPostgres && CI) {
    res.failed++;
    res.note = "no PostgreSQL (CI: counted as a failure)";
  } else if (noPostgres) res.note = "no PostgreSQL";
  return res;
}

/** A Deno test tier over `dir`/**\/*_test.ts (fakes and fixtures left out). */
function denoTier(dir) {
  const files = testFiles(dir, /_test\.ts$/);
  if (!files.length) return { passed: 0, failed: 0, skipped: 0, note: `no test files under ${dir}` };
  const deno = findDeno();
  if (!deno) {
    // Without Deno the tests cannot even be listed; their Deno.test calls are the count that is skipped.
    const known = files.reduce(
      (n, f) => n + (readFileSync(join(root, f), "utf8").match(/\bDeno\.test\(/g)?.length ?? 0),
      0,
    );
    return missingTool(`no Deno binary (npm package "deno"): ${files.length} test files not run`, known);
  }
  // Types are checked once by the deno-check gate of the static tier; here the tests only run.
  const r = run(deno, ["test", "-A", "--no-check", ...files], { NO_COLOR: "1" });
  const m = r.stdout.match(
    /(ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \(\d+ steps?\))?(?: \| (\d+) ignored)?/,
  );
  if (!m) return { passed: 0, failed: 1, skipped: 0, note: "deno test printed no summary" };
  // Deno lists each failed test as `name => file:line:col` under its ERRORS/FAILURES headings.
  const failures = [...new Set(r.stdout.match(/^.+ => \S+:\d+:\d+$/gm) ?? [])];
  const res = { passed: +m[2], failed: +m[3], skipped: +(m[4] ?? 0), failures };
  if (r.status !== 0 && res.failed === 0) res.failed = 1;
  return res;
}

function e2eTier() {
  const pw = bin("@playwright/test/cli.js");
  if (!existsSync(join(root, "playwright.config.ts"))) return { passed: 0, failed: 0, skipped: 0 };
  if (!existsSync(CHROMIUM)) {
    // Listing loads every spec without a browser: a spec that does not load is a failure anywhere.
    const list = run(node, [pw, "test", "--list"]);
    const m = list.stdout.match(/Total: (\d+) tests?/);
    if (list.status !== 0 || !m) return { passed: 0, failed: 1, skipped: 0, note: "playwright --list failed" };
    return missingTool(`e2e: no Chromium at ${CHROMIUM}`, CI ? 0 : +m[1]);
  }
  const file = join(out, "e2e.json");
  const r = run(node, [pw, "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, note: "playwright produced no report" };
  const report = JSON.parse(readFileSync(file, "utf8"));
  const s = report.stats;
  const res = {
    passed: s.expected + s.flaky,
    failed: s.unexpected,
    skipped: s.skipped,
    failures: playwrightFailures(report),
    flaky: playwrightFlaky(report),
  };
  if (s.flaky) res.note = `${s.flaky} passed only on the retry: see "flaky" above`;
  if (r.status !== 0 && res.failed === 0) res.failed = 1;
  return res;
}

const tiers = {
  static: staticTier,
  unit: () => vitestTier("unit"),
  db: () => vitestTier("db", { needsPostgres: true }),
  functions: () => denoTier("tests/functions"),
  local: () => denoTier("tests/local"),
  backend: () => vitestTier("backend", { needsPostgres: true }),
  e2e: e2eTier,
};

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(tiers);
const unknown = chosen.filter((name) => !tiers[name]);
if (unknown.length) {
  console.error(`unknown tier ${unknown.join(", ")}; tiers: ${Object.keys(tiers).join(", ")}`);
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const total = { passed: 0, failed: 0, skipped: 0 };
const rows = [];
const failures = [];
const flaky = [];
for (const name of chosen) {
  console.log(`\n=== tier: ${name} ===`);
  const started = Date.now();
  let r;
  try {
    r = tiers[name]();
  } catch (e) {
    // A crash of the runner inside a tier is that tier's failure, and the other tiers still run.
    console.error(e);
    r = { passed: 0, failed: 1, skipped: 0, note: `runner error: ${e?.message ?? e}` };
  }
  if (CI && r.passed + r.failed === 0) {
    r = { ...r, failed: 1, note: `ran no test (CI: counted as a failure)${r.note ? "; " + r.note : ""}` };
  }
  rows.push(
    `${name.padEnd(10)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(4)} failed ${String(r.skipped).padStart(4)} skipped  ${((Date.now() - started) / 1000).toFixed(1)} s${r.note ? "  (" + r.note + ")" : ""}`,
  );
  for (const f of r.failures ?? []) failures.push(`${name}: ${f}`);
  for (const f of r.flaky ?? []) flaky.push(`${name}: ${f}`);
  for (const k of Object.keys(total)) total[k] += r[k];
}
// Named just above the summary, so that a log cut to its last lines still says what failed, and
// what passed only when tried again (docs/decisions say why CI retries a journey once).
if (flaky.length) {
  console.log("\n=== flaky (failed, then passed on the retry) ===");
  for (const f of flaky) console.log(f);
}
if (failures.length) {
  console.log("\n=== failed ===");
  for (const f of failures) console.log(f);
}
console.log("\n=== summary ===");
for (const row of rows) console.log(row);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`);
process.exit(total.failed ? 1 : 0);
