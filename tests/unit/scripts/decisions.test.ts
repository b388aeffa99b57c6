// @vitest-environment node
// Decisions are records in docs/decisions/NNN-slug.md, numbered 1..N with no gap, each with its heading,
// date, status and the three sections; a superseded one names an existing, newer record that says it
// supersedes it, and the index lists every file. The README stays a newcomer's page (at most 300 lines).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DIR = join(ROOT, "docs/decisions");
const INDEX = "README.md";
const README_MAX_LINES = 300;

const FILE_NAME = /^(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const SECTIONS = ["## Context", "## Decision", "## Consequences"];

type DecisionFile = { file: string; text: string };

/** Every problem found in a set of decision records and their index, one line each. */
function decisionProblems(records: DecisionFile[], index: string): string[] {
  const problems: string[] = [];
  const numbers = new Map<number, string>();
  const supersededBy = new Map<number, number[]>();
  const supersedes = new Map<number, number[]>();

  for (const { file, text } of records) {
    const name = FILE_NAME.exec(file);
    if (!name) {
      problems.push(`${file}: the name is not NNN-slug.md`);
      continue;
    }
    const n = Number(name[1]);
    if (numbers.has(n)) problems.push(`${file}: number ${n} is also ${numbers.get(n)}`);
    numbers.set(n, file);

    const lines = text.split("\n");
    if (!new RegExp(`^# ${name[1]}\\. \\S`).test(lines[0] ?? "")) {
      problems.push(`${file}: the first line is not "# ${name[1]}. Title"`);
    }
    const date = /^- Date: (\d{4}-\d{2}-\d{2})$/m.exec(text);
    if (!date || Number.isNaN(Date.parse(date[1]))) problems.push(`${file}: no "- Date: YYYY-MM-DD" line`);
    // "superseded by NNN (in part: …)", or several: "superseded by NNN (…) and MMM (…)".
    const status =
      /^- Status: (?:accepted|superseded by (\d{3}(?: \([^()]+\))?(?: and \d{3}(?: \([^()]+\))?)*))$/m.exec(text);
    if (!status) problems.push(`${file}: no "- Status: accepted" or "- Status: superseded by NNN" line`);
    else if (status[1]) supersededBy.set(n, [...status[1].replace(/\([^()]+\)/g, "").matchAll(/\d{3}/g)].map(Number));
    for (const m of text.matchAll(/^- Supersedes: (\d{3})\b/gm)) {
      supersedes.set(n, [...(supersedes.get(n) ?? []), Number(m[1])]);
    }

    let from = 0;
    for (const heading of SECTIONS) {
      const at = lines.indexOf(heading, from);
      if (at < 0) {
        problems.push(`${file}: no "${heading}" section after the ones before it`);
        continue;
      }
      const next = lines.findIndex((l, i) => i > at && l.startsWith("## "));
      const body = lines.slice(at + 1, next < 0 ? undefined : next).join("\n");
      if (!body.trim()) problems.push(`${file}: "${heading}" is empty`);
      from = at + 1;
    }

    if (!index.includes(`](${file})`)) problems.push(`${file}: not listed in the index`);
  }

  const sorted = [...numbers.keys()].sort((a, b) => a - b);
  sorted.forEach((n, i) => {
    if (n !== i + 1) problems.push(`numbers are not 1..${sorted.length} without gaps: ${i + 1} is missing`);
  });

  for (const [old, newer] of [...supersededBy].flatMap(([o, ns]) => ns.map((m) => [o, m] as const))) {
    if (!numbers.has(newer)) problems.push(`${numbers.get(old)}: superseded by ${newer}, which does not exist`);
    else if (newer <= old) problems.push(`${numbers.get(old)}: superseded by ${newer}, which is not newer`);
    else if (!supersedes.get(newer)?.includes(old)) {
      problems.push(`${numbers.get(newer)}: has no "- Supersedes: ${String(old).padStart(3, "0")}" line`);
    }
  }
  for (const [newer, olds] of supersedes) {
    for (const old of olds) {
      if (!supersededBy.get(old)?.includes(newer)) {
        problems.push(`${numbers.get(newer)}: supersedes ${old}, whose status does not say so`);
      }
    }
  }

  for (const m of index.matchAll(/\]\(([^)]+\.md)\)/g)) {
    if (!records.some((r) => r.file === m[1])) problems.push(`the index links ${m[1]}, which does not exist`);
  }
  return problems.filter((p, i) => problems.indexOf(p) === i);
}

function record(n: number, { status = "accepted", extra = "", sections = SECTIONS } = {}): DecisionFile {
  const nnn = String(n).padStart(3, "0");
  const body = sections.map((s) => `${s}\n\nText.\n`).join("\n");
  return {
    file: `${nnn}-a-title.md`,
    text: `# ${nnn}. A title\n\n- Date: 2026-11-24\n- Status: ${status}\n${extra}\n${body}`,
  };
}
const indexOf = (records: DecisionFile[]) => records.map((r) => `| [t](${r.file}) |`).join("\n");

describe("docs/decisions", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".md") && f !== INDEX);
  const records = files.map((file) => ({ file, text: readFileSync(join(DIR, file), "utf8") }));

  it("holds numbered records, each with heading, date, status and sections, all in the index", () => {
    expect(records.length).toBeGreaterThan(0);
    expect(decisionProblems(records, readFileSync(join(DIR, INDEX), "utf8"))).toEqual([]);
  });

  it("leaves the README a newcomer's page", () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length;
    expect(lines, `README.md has ${lines} lines`).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe("the decision checks", () => {
  const good = [record(1, { status: "superseded by 002 (in part: x)" }), record(2, { extra: "- Supersedes: 001\n" })];

  it("accept well-formed records", () => {
    expect(decisionProblems(good, indexOf(good))).toEqual([]);
  });

  it("refuse a file name that is not NNN-slug.md", () => {
    const bad = [...good, { ...record(3), file: "3-Title.md" }];
    expect(decisionProblems(bad, indexOf(bad))).toEqual(["3-Title.md: the name is not NNN-slug.md"]);
  });

  it("refuse a gap in the numbers", () => {
    const bad = [...good, record(4)];
    expect(decisionProblems(bad, indexOf(bad))).toEqual(["numbers are not 1..3 without gaps: 3 is missing"]);
  });

  it("refuse a record without its heading, date, status or a section", () => {
    const r = record(3, { sections: ["## Context", "## Consequences"] });
    const bad = [...good, { ...r, text: r.text.replace("# 003.", "# Three.").replace(/- Date.*\n/, "") }];
    expect(decisionProblems(bad, indexOf(bad))).toEqual([
      '003-a-title.md: the first line is not "# 003. Title"',
      '003-a-title.md: no "- Date: YYYY-MM-DD" line',
      '003-a-title.md: no "## Decision" section after the ones before it',
    ]);
    const noStatus = [...good, { ...record(3), text: record(3).text.replace("- Status: accepted", "") }];
    expect(decisionProblems(noStatus, indexOf(noStatus))).toEqual([
      '003-a-title.md: no "- Status: accepted" or "- Status: superseded by NNN" line',
    ]);
  });

  it("refuse a superseded-by that points to a missing number", () => {
    const bad = [record(1, { status: "superseded by 009" }), record(2)];
    expect(decisionProblems(bad, indexOf(bad))).toEqual(["001-a-title.md: superseded by 9, which does not exist"]);
  });

  it("follow a record superseded in part by several newer ones, each of which must say so", () => {
    const two = [
      record(1, { status: "superseded by 002 (in part: x) and 003 (in part: y)" }),
      record(2, { extra: "- Supersedes: 001\n" }),
      record(3, { extra: "- Supersedes: 001\n" }),
    ];
    expect(decisionProblems(two, indexOf(two))).toEqual([]);
    const silent = [two[0], two[1], record(3)];
    expect(decisionProblems(silent, indexOf(silent))).toEqual(['003-a-title.md: has no "- Supersedes: 001" line']);
  });

  it("refuse an index that does not list every file", () => {
    expect(decisionProblems(good, indexOf(good.slice(0, 1)))).toEqual(["002-a-title.md: not listed in the index"]);
  });
});
