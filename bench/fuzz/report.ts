// How a fuzz run is told: a table of answer classes per database and seed, each distinct failure and
// stall once with the request, its answer and the command that sends it again, and the last line.
import { createHash } from "node:crypto";
import { CLASSES } from "../../tests/support/hostile.ts";
import type { Finding, FuzzResult } from "./run.ts";
import type { FuzzCase, World } from "./world.ts";

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** The request as sent, short enough for a report line. */
export function describeCase(c: FuzzCase): string {
  if (c.kind === "ws") return `as ${c.who}: realtime frames ${c.frames.map((f) => clip(f, 300)).join(" | ")}`;
  const body =
    c.body === undefined
      ? ""
      : typeof c.body === "string"
        ? ` body ${clip(c.body, 300)}`
        : ` body ${c.body.length} bytes`;
  const headers = c.headers && Object.keys(c.headers).length ? ` headers ${clip(JSON.stringify(c.headers), 200)}` : "";
  return `as ${c.who}: ${c.method} ${clip(c.path, 400)}${headers}${body}`;
}

/** Stalls seen only under load listed by their time, to show what the load did. */
const LOAD_ONLY_SHOWN = 8;

/** One finding per kind of fault: the same route, class and first words of the answer. */
function findingClass(f: Finding): string {
  const detail = f.answer.detail
    .replace(/[0-9a-f-]{36}/g, "<id>")
    .replace(/\d+/g, "#")
    .slice(0, 60);
  return `${f.kind} ${f.case.surface} ${f.case.label} ${f.answer.cls} ${f.answer.status ?? ""} ${detail}`;
}

export function distinct(findings: Finding[]): { finding: Finding; count: number }[] {
  const groups = new Map<string, { finding: Finding; count: number }>();
  for (const f of findings) {
    const key = findingClass(f);
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { finding: f, count: 1 });
  }
  return [...groups.values()];
}

export const reproduce = (f: Finding, database: string) =>
  `FUZZ_SEED=${f.seed} FUZZ_ONLY=${f.index} FUZZ_DB=${database} npm run bench fuzz`;

function findingLines(f: Finding, count: number, database: string): string[] {
  const confirmed =
    f.kind === "stall"
      ? f.confirmed === null
        ? " (not replayed)"
        : f.confirmed
          ? " (again alone)"
          : " (not again alone)"
      : "";
  return [
    `  [${database}] seed ${f.seed} #${f.index} ${f.case.surface} "${f.case.label}": ${f.answer.cls}${f.answer.status ? ` ${f.answer.status}` : ""} after ${f.answer.ms.toFixed(0)} ms${confirmed}${count > 1 ? `, ${count} like it` : ""}`,
    `      ${describeCase(f.case)}`,
    `      answer: ${clip(f.answer.detail.replace(/\s+/g, " "), 300)}`,
    `      reproduce: ${reproduce(f, database)}`,
  ];
}

/** Stalls that count: those seen again alone; every one seen when the run did not send them again. */
export const countedStalls = (r: FuzzResult) => r.stalls.filter((s) => (r.confirmed ? s.confirmed === true : true));

/** The table of answer classes, then each distinct failure and stall (unless `details` is false), then the last line. */
export function formatReport(results: FuzzResult[], details = true): string {
  const head = `${"database".padEnd(9)} ${"seed".padStart(6)} ${"requests".padStart(8)} ${CLASSES.map((c) => c.padStart(6)).join("")}  ${"/health: probes".padStart(15)} ${"slow".padStart(5)} ${"worst ms".padStart(8)} ${"req/s".padStart(6)}`;
  const lines = [head];
  for (const r of results) {
    const counts = CLASSES.map((c) => String(r.byClass[c] ?? 0).padStart(6)).join("");
    const rate = (r.requests / (r.elapsedMs / 1000)).toFixed(1);
    lines.push(
      `${r.database.padEnd(9)} ${String(r.seed).padStart(6)} ${String(r.requests).padStart(8)} ${counts}  ${String(r.health.probes).padStart(15)} ${String(r.health.slow).padStart(5)} ${r.health.worstMs.toFixed(0).padStart(8)} ${rate.padStart(6)}`,
    );
  }
  for (const r of results) {
    const surfaces = Object.entries(r.bySurface)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ");
    lines.push(`  ${r.database} seed ${r.seed}: ${surfaces}`);
  }
  for (const db of details ? new Set(results.map((r) => r.database)) : []) {
    const mine = results.filter((r) => r.database === db);
    const failures = distinct(mine.flatMap((r) => r.failures));
    if (failures.length) lines.push("", `Failures on ${db} (one line per kind):`);
    for (const { finding, count } of failures) lines.push(...findingLines(finding, count, db));
    const stalls = mine.flatMap((r) => r.stalls);
    if (stalls.length) {
      const again = stalls.filter((s) => s.confirmed).length;
      const notSent = stalls.filter((s) => s.confirmed === null).length;
      lines.push(
        "",
        `Stalls on ${db}: ${stalls.length} seen under load, ${again} seen again each time sent alone` +
          (notSent ? `, ${notSent} not sent again` : "") +
          ":",
      );
      const counted = mine.flatMap(countedStalls);
      for (const { finding, count } of distinct(counted)) lines.push(...findingLines(finding, count, db));
      // What stalled only under load is not counted, but its slowest answers say what the load did.
      const loadOnly = stalls.filter((f) => f.confirmed === false && f.loadAnswer.cls !== "2xx");
      const slowest = loadOnly.sort((a, b) => b.loadAnswer.ms - a.loadAnswer.ms).slice(0, LOAD_ONLY_SHOWN);
      if (slowest.length) lines.push(`  the slowest of those not seen again alone (answer under load, then alone):`);
      for (const f of slowest) {
        lines.push(
          `    seed ${f.seed} #${f.index} ${f.case.surface} "${f.case.label}": ${f.loadAnswer.cls} after ${f.loadAnswer.ms.toFixed(0)} ms; alone ${f.answer.cls} after ${f.answer.ms.toFixed(0)} ms`,
        );
      }
    }
  }
  const n = results.reduce((s, r) => s + r.requests, 0);
  const f = results.reduce((s, r) => s + r.failures.length, 0);
  const st = results.reduce((s, r) => s + countedStalls(r).length, 0);
  lines.push(`fuzz: ${n} requests, ${f} 5xx, ${st} stalls`);
  return lines.join("\n");
}

/**
 * A short digest of the case with the world's own values (ids, addresses, tokens, which differ on every
 * backend) replaced by their places: the same seed and index give the same fingerprint while the
 * grammars stay as they were, so a fixed seed whose request has changed is noticed, not silently weaker.
 */
export function caseFingerprint(c: FuzzCase, world: World): string {
  let s = JSON.stringify(c, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v));
  const swaps: [string, string][] = [
    ...world.accounts.flatMap((a, i): [string, string][] => [
      [a.id, `<account ${i}>`],
      [a.email, `<email ${i}>`],
      [a.email.toUpperCase(), `<EMAIL ${i}>`],
      [a.refreshToken, `<refresh ${i}>`],
    ]),
    ...world.generations.map((g, i): [string, string] => [g.id, `<generation ${i}>`]),
  ];
  for (const [from, to] of swaps) s = s.split(from).join(to);
  return createHash("sha256").update(s).digest("hex").slice(0, 12);
}
