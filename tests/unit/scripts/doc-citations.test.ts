// @vitest-environment node
// A comment (or a test's title) that cites a section of the spec or of a guide names the file in the repo
// and a section that file has: `docs/spec.md §5` needs a "5." heading there, `docs/architecture.md, "The
// library"` a heading with that text. The spec or a guide cited by name alone fails, and so does a section
// sign with no file before it in the same comment. Migrations are checked in their `--` comments only: a shipped
// migration's SQL is never edited, and `comment on …` strings are part of it.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DIRS = ["src", "sw", "supabase", "tests", "scripts", "bench"];
const EXTENSIONS = /\.(?:ts|tsx|js|mjs|sql)$/;
const SKIP_DIRS = new Set(["node_modules", ".data", ".output"]);
/**
 * Notes on third parties' APIs that the provider fakes were built from; they live outside the repo, so their
 * sections cannot be checked here.
 */
const OUTSIDE_THE_REPO = ["shared/reference/providers.md", "shared/reference/supabase-wire.md"];

const S = "\u00a7"; // the section sign, spelled out so this file cites nothing itself
const BARE = new RegExp(`\\b(spec|architecture|conventions|guide)(?:'s)?\\s+${S}\\s*\\d`, "gi");
const NUMBERED = new RegExp(`([\\w./-]+\\.md)\\s+((?:${S}\\s*\\d+)(?:\\s*(?:,|and|\u2013|-)\\s*${S}\\s*\\d+)*)`, "g");
const HEADED = /([\w./-]+\.md), "([^"]+)"/g;
const SECTION_NUMBER = new RegExp(`${S}\\s*(\\d+)`, "g");
const ANY_SECTION = new RegExp(`${S}\\s*\\d`, "g");
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|--)/;

type SourceFile = { file: string; text: string };
/** A repo file's text by its repo-relative path, or null when there is no such file. */
type ReadDoc = (path: string) => string | null;

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

/** Every citation problem in the given files, one line each (`file:line: what`). */
function citationProblems(files: SourceFile[], readDoc: ReadDoc): string[] {
  const problems: string[] = [];
  for (const { file, text } of files) {
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
  return problems;
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
  return out;
}

const readRepoDoc: ReadDoc = (path) => {
  const full = join(ROOT, path);
  return existsSync(full) ? readFileSync(full, "utf8") : null;
};

describe("citations of the spec and the guides", () => {
  it("name a file in the repo and a section it has", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(citationProblems(files, readRepoDoc)).toEqual([]);
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
  const check = (text: string, file = "src/a.ts") => citationProblems([{ file, text }], readDoc);

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
});
