// @vitest-environment node
// A comment (or a test's title) that cites a section of the spec or of a guide names the file in the repo
// and a section that file has: `docs/spec.md §5` needs a "5." heading there, `docs/architecture.md, "The
// library"` a heading with that text. The spec or a guide cited by name alone fails, and so does a section
// sign with no file before it in the same comment. Migrations are checked in their `--` comments only: a shipped
// migration's SQL is never edited, and `comment on …` strings are part of it.
//
// A file or folder a comment or a page (the README, docs/ but the spec and the decision records, which
// stay as they were written) names is in the repo: found from the citing file's folder or one above it,
// from the root or a source root (src/, supabase/…), or as a record in docs/decisions/. A decision cited by
// number has its record there, and one cited as the README's ("README decision N") names the record instead.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DIRS = ["src", "sw", "supabase", "tests", "scripts", "bench"];
const EXTENSIONS = /\.(?:ts|tsx|js|mjs|sql)$/;
const SKIP_DIRS = new Set(["node_modules", ".data", ".output"]);
/**
 * Notes on third parties' APIs that the provider fakes were built from, and storage-api's source
 * (github:supabase/storage) that the local storage follows; they live outside the repo, so they cannot be
 * checked here.
 */
const OUTSIDE_THE_REPO = [
  "shared/reference/providers.md",
  "shared/reference/supabase-wire.md",
  "src/http/routes/",
  "src/http/routes/operations.ts",
  "src/http/error-handler.ts",
  "src/internal/errors/codes.ts",
  "src/storage/limits.ts",
];
/** Pages whose paths and decision numbers are checked like comments. */
const DOCS = [
  "README.md",
  "docs/architecture.md",
  "docs/configuration.md",
  "docs/benchmarks.md",
  "docs/parity.md",
  "docs/deploy.md",
];

const S = "\u00a7"; // the section sign, spelled out so this file cites nothing itself
const BARE = new RegExp(`\\b(spec|architecture|conventions|guide)(?:'s)?\\s+${S}\\s*\\d`, "gi");
const NUMBERED = new RegExp(`([\\w./-]+\\.md)\\s+((?:${S}\\s*\\d+)(?:\\s*(?:,|and|\u2013|-)\\s*${S}\\s*\\d+)*)`, "g");
const HEADED = /([\w./-]+\.md), "([^"]+)"/g;
const SECTION_NUMBER = new RegExp(`${S}\\s*(\\d+)`, "g");
const ANY_SECTION = new RegExp(`${S}\\s*\\d`, "g");
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|--)/;
/** A file by its extension, or a folder under one of the repo's own (a trailing slash), as prose names them. */
const FILE_PATH =
  /(?<![\w./@#-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.(?:tsx?|mjs|js|md|sql|json|toml|html|css|sh|ya?ml))(?![\w/-])/g;
const FOLDER_PATH = /(?<![\w./@#-])((?:src|sw|supabase|scripts|tests|bench|docs|public)\/(?:[\w.-]+\/)*)(?![\w/-])/g;
/** What a build or a test run writes: not in the repo until made. */
const MADE_BY_A_RUN = /^(?:dist|test-results|tests\/\.output|node_modules|\.data)\//;
/** A pattern, not a file: `src/x/y.ts`, `tests/local/x_test.ts`, `docs/decisions/NNN-slug.md`. */
const EXAMPLE = /(?:^|\/)(?:[a-z0-9](?=[._/]|$)|NNN)/i;
/** The product's source roots, from which the pages name files (`sync/delivery.ts`, `_shared/engine/`). */
const SOURCE_ROOTS = ["src", "supabase", "supabase/functions", "supabase/functions/_shared", "supabase/local"];
const DECISION = /\b(README(?:'s)?\s+)?decisions?\s+(\d{1,3}(?:(?:\s*,\s*|\s+and\s+|\s*[\u2013-]\s*)\d{1,3})*)\b/gi;

type SourceFile = { file: string; text: string };
/** A repo file's text by its repo-relative path, or null when there is no such file. */
type ReadDoc = (path: string) => string | null;
/** What else of the repo a citation may name: any file or folder, and the decision records' numbers. */
type Repo = { exists: (path: string) => boolean; decisions: ReadonlySet<number> };

/** What of a line is checked: all of it, except in SQL, where only the `--` comment is. */
function checkedPart(file: string, line: string): string {
  if (!file.endsWith(".sql")) return line;
  const at = line.indexOf("--");
  return at < 0 ? "" : line.slice(at);
}

function headings(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#{1,6} /, "").trim());
}

/** The comment of a line of code, or null: a comment line, a trailing ` // `, SQL's `--`; a page is all prose. */
function proseOf(file: string, line: string): string | null {
  if (file.endsWith(".md") || COMMENT_LINE.test(line)) return line;
  const at = file.endsWith(".sql") ? line.indexOf("--") : line.indexOf(" // ");
  return at < 0 ? null : line.slice(at);
}

/** Where a path named in `file` may be: its folder and each one above, the root, the source roots, the records. */
function pathBases(file: string): string[] {
  const bases: string[] = [];
  for (let dir = dirname(file); dir !== "." && dir !== "/"; dir = dirname(dir)) bases.push(dir);
  return [...bases, "", ...SOURCE_ROOTS, "docs/decisions"];
}

/** Files and folders a comment or a page names that are not in the repo, and decisions with no record. */
function namedThingProblems(file: string, text: string, repo: Repo): string[] {
  const problems: string[] = [];
  text.split("\n").forEach((raw, i) => {
    const prose = proseOf(file, raw);
    if (prose === null) return;
    const where = `${file}:${i + 1}`;
    const named = [...prose.matchAll(FILE_PATH), ...prose.matchAll(FOLDER_PATH)].map((m) => m[1]);
    for (const path of named) {
      if (!path.includes("/") && !path.endsWith(".md")) continue; // `main.ts` alone: the context says which
      if (OUTSIDE_THE_REPO.includes(path) || MADE_BY_A_RUN.test(path) || EXAMPLE.test(path)) continue;
      if (!pathBases(file).some((base) => repo.exists(join(base, path)))) {
        problems.push(`${where}: cites ${path}, which is not a file in the repo`);
      }
    }
    for (const m of prose.matchAll(DECISION)) {
      if (m[1]) {
        problems.push(`${where}: "${m[0]}" names no record; cite docs/decisions/NNN-slug.md`);
        continue;
      }
      for (const n of m[2].match(/\d+/g) ?? []) {
        if (!repo.decisions.has(Number(n)))
          problems.push(`${where}: cites decision ${n}, which has no record in docs/decisions/`);
      }
    }
  });
  return problems;
}

/** Every citation problem in the given files, one line each (`file:line: what`). */
function citationProblems(files: SourceFile[], readDoc: ReadDoc, repo: Repo): string[] {
  const problems: string[] = [];
  for (const { file, text } of files) {
    problems.push(...namedThingProblems(file, text, repo));
    if (file.endsWith(".md")) continue; // pages: files and decisions only
    const lines = text.split("\n");
    let blockCites = false; // a file was cited earlier in the current run of comment lines
    lines.forEach((raw, i) => {
      const line = checkedPart(file, raw);
      const where = `${file}:${i + 1}`;
      if (!COMMENT_LINE.test(raw)) blockCites = false;

      const covered: [number, number][] = [];
      for (const m of line.matchAll(BARE)) {
        covered.push([m.index, m.index + m[0].length]);
        problems.push(`${where}: "${m[0]}" names no file; cite e.g. docs/spec.md ${S}N`);
      }
      const bare = covered.length;
      for (const m of line.matchAll(NUMBERED)) {
        covered.push([m.index, m.index + m[0].length]);
        const doc = m[1];
        if (OUTSIDE_THE_REPO.includes(doc)) continue;
        const docText = readDoc(doc);
        if (docText === null) {
          problems.push(`${where}: cites ${doc}, which is not a file in the repo`);
          continue;
        }
        const numbered = new Set(headings(docText).flatMap((h) => /^(\d+)\.\s/.exec(h)?.[1] ?? []));
        for (const n of m[2].matchAll(SECTION_NUMBER)) {
          if (!numbered.has(n[1])) problems.push(`${where}: cites ${doc} ${S}${n[1]}, which it has no heading for`);
        }
      }
      for (const m of line.matchAll(HEADED)) {
        const docText = readDoc(m[1]);
        if (docText === null) problems.push(`${where}: cites ${m[1]}, which is not a file in the repo`);
        else if (!headings(docText).includes(m[2])) {
          problems.push(`${where}: cites ${m[1]}, "${m[2]}", which is not one of its headings`);
        }
      }

      const lineCites = covered.length > bare;
      for (const m of line.matchAll(ANY_SECTION)) {
        // A later section in the same sentence ("docs/spec.md §2 … and the §5 rules") belongs to the cited file.
        if (!covered.some(([from]) => from <= m.index) && !blockCites) {
          problems.push(`${where}: "${S}" with no cited file before it in the comment`);
        }
      }
      if (COMMENT_LINE.test(raw) && lineCites) blockCites = true;
    });
  }
  return problems.filter((p, i) => problems.indexOf(p) === i);
}

function sourceFiles(): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path);
      } else if (EXTENSIONS.test(entry.name)) {
        out.push({ file: relative(ROOT, path), text: readFileSync(path, "utf8") });
      }
    }
  };
  for (const dir of DIRS) if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir));
  for (const entry of readdirSync(ROOT, { withFileTypes: true })) {
    // The configs at the root (vite.config.ts, eslint.config.js, …).
    if (entry.isFile() && EXTENSIONS.test(entry.name))
      out.push({ file: entry.name, text: readFileSync(join(ROOT, entry.name), "utf8") });
  }
  for (const doc of DOCS) out.push({ file: doc, text: readFileSync(join(ROOT, doc), "utf8") });
  return out;
}

const repo: Repo = {
  exists: (path) => existsSync(join(ROOT, path)),
  decisions: new Set(
    readdirSync(join(ROOT, "docs/decisions")).flatMap((f) =>
      /^(\d{3})-.*\.md$/.exec(f) ? [Number(f.slice(0, 3))] : [],
    ),
  ),
};

const readRepoDoc: ReadDoc = (path) => {
  const full = join(ROOT, path);
  return existsSync(full) ? readFileSync(full, "utf8") : null;
};

describe("citations of the spec, the guides, files and decisions", () => {
  it("name a file in the repo and a section it has, and decisions that have a record", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(citationProblems(files, readRepoDoc, repo)).toEqual([]);
  });

  it("find docs/spec.md numbered as the spec is, sections 1 to 9", () => {
    const numbers = headings(readFileSync(join(ROOT, "docs/spec.md"), "utf8")).flatMap(
      (h) => /^(\d+)\.\s/.exec(h)?.[1] ?? [],
    );
    expect(numbers).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
  });
});

describe("the citation checks", () => {
  const GUIDE = "docs/guide.md"; // interpolated, so the scan of this file does not take it for a citation
  const docs: Record<string, string> = {
    "docs/spec.md": "# Spec\n\n## 1. One\n\n## 2. Two\n",
    [GUIDE]: "# Guide\n\n## The library\n",
  };
  const readDoc: ReadDoc = (path) => docs[path] ?? null;
  const files = new Set([...Object.keys(docs), "src/lib/online.ts", "src/lib", "src", "docs", "docs/decisions"]);
  const fakeRepo: Repo = { exists: (path) => files.has(path.replace(/\/$/, "")), decisions: new Set([91, 117]) };
  const check = (text: string, file = "src/a.ts") => citationProblems([{ file, text }], readDoc, fakeRepo);

  it("accept a numbered section, a list of them, and a heading", () => {
    expect(check(`// The form (docs/spec.md ${S}1, ${S}2) and the rest (${GUIDE}, "The library").`)).toEqual([]);
    expect(check(`// The form (docs/spec.md ${S}1):\n// the ${S}2 rules come after.`)).toEqual([]);
    expect(check(`// The form (docs/spec.md ${S}1) and the ${S}2 rules.`)).toEqual([]);
    expect(check(`it("shows the paths of docs/spec.md ${S}2", () => {});`)).toEqual([]);
  });

  it("refuse a citation with no file", () => {
    expect(check(`// The form (spec ${S}5).`)).toEqual([
      `src/a.ts:1: "spec ${S}5" names no file; cite e.g. docs/spec.md ${S}N`,
    ]);
    expect(check(`/** Spec ${S}9: six styles. */`)).toHaveLength(1);
    expect(check(`// The library (architecture ${S}4).`)).toHaveLength(1);
    expect(check(`// See conventions ${S}3.`)).toHaveLength(1);
    expect(check(`// The form (docs/spec.md ${S}1).\nconst a = 1;\n// The catalogue (${S}8).`)).toHaveLength(1);
    expect(check(`// The catalogue (${S}8).`)).toEqual([
      `src/a.ts:1: "${S}" with no cited file before it in the comment`,
    ]);
  });

  it("refuse a section or a heading the file does not have, and a file that is not there", () => {
    expect(check(`// docs/spec.md ${S}1, ${S}3`)).toEqual([
      `src/a.ts:1: cites docs/spec.md ${S}3, which it has no heading for`,
    ]);
    expect(check(`// ${GUIDE} ${S}4`)).toHaveLength(1);
    expect(check(`// ${GUIDE}, "The queue"`)).toHaveLength(1);
    expect(check(`// docs/nowhere.md ${S}1`)).toEqual([
      "src/a.ts:1: cites docs/nowhere.md, which is not a file in the repo",
    ]);
  });

  it("read only the comments of a migration", () => {
    expect(check(`comment on function f() is 'x (spec ${S}3)';`, "supabase/migrations/1_x.sql")).toEqual([]);
    expect(check(`-- x (spec ${S}3)`, "supabase/migrations/1_x.sql")).toHaveLength(1);
  });

  it("refuse a named file or folder that is not in the repo, in comments and pages", () => {
    const missing = "contracts" + ".md"; // built, so this file's own comments name nothing missing
    expect(check(`// The hooks (${missing}).`)).toEqual([
      `src/a.ts:1: cites ${missing}, which is not a file in the repo`,
    ]);
    expect(check(`const a = 1; ${"//"} see src/lib/gone.ts`)).toHaveLength(1);
    expect(check(`-- the rows (src/gone/)`, "supabase/migrations/1_x.sql")).toHaveLength(1);
    expect(check(`See [the note](docs/${missing}).`, "README.md")).toHaveLength(1);
    expect(check(`The helper, \`src/lib/${"gone"}.ts\`.`, "docs/guide.md")).toHaveLength(1);
  });

  it("accept a path from the citing folder or one above it, examples, outputs and code that is not a comment", () => {
    expect(
      check(`// Every reader goes through src/lib/online.ts (lib/online.ts, ./online.ts).`, "src/lib/x.ts"),
    ).toEqual([]);
    expect(check(`// The records (docs/decisions/) and [the spec](spec.md).`, "docs/x.md")).toEqual([]);
    expect(check(`// The test of src/x/y.ts is tests/unit/x/y.test.ts; dist/index.html is built.`)).toEqual([]);
    expect(check(`const path = "src/lib/gone.ts";`)).toEqual([]);
    expect(
      check(`// storage-api's VALID_OBJECT_KEY (src/storage/limits.ts); online.ts alone names no folder.`),
    ).toEqual([]);
  });

  it("refuse a decision with no record, and one cited as the README's", () => {
    expect(check(`// The lane (decision 117; decisions 91 and 117).`)).toEqual([]);
    expect(check(`// The lane (decision 118).`)).toEqual([
      "src/a.ts:1: cites decision 118, which has no record in docs/decisions/",
    ]);
    expect(check(`// Both (decisions 117, 120).`)).toHaveLength(1);
    expect(check(`It waits (README decision 91).`, "README.md")).toEqual([
      'README.md:1: "README decision 91" names no record; cite docs/decisions/NNN-slug.md',
    ]);
  });
});
