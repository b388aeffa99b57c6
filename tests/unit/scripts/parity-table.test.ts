// @vitest-environment node
// The parity table of docs/parity.md is generated from tests/backend/parity.ts: the committed table must
// say what the registry says (every column but "Last run", which depends on a backend run this tier does
// not make), and every test the registry names must still exist in tests/backend.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DOC,
  findBlock,
  formatBlock,
  missingTests,
  renderBlock,
  reportOutcomes,
  tableCells,
} from "../../../scripts/parity-table.mjs";
import { PARITY } from "../../backend/parity.ts";

const notLastRun = (column: string) => column !== "Last run";

describe("the committed parity table", () => {
  it("is what the registry generates (regenerate: node scripts/parity-table.mjs)", async () => {
    const committed = findBlock(readFileSync(DOC, "utf8"));
    expect(committed, "docs/parity.md has no parity:begin … parity:end block").not.toBeNull();
    const expected = await formatBlock(renderBlock(PARITY));
    expect(tableCells(committed!, notLastRun)).toEqual(tableCells(expected, notLastRun));
  });

  it("names only tests that exist in tests/backend", () => {
    expect(missingTests(PARITY)).toEqual([]);
  });

  it("keeps one row per feature", () => {
    const features = PARITY.map((r) => `${r.service}: ${r.feature}`);
    expect(features.filter((f, i) => features.indexOf(f) !== i)).toEqual([]);
  });
});

describe("the generator", () => {
  const row = {
    service: "rest" as const,
    feature: "a | b",
    status: "stricter" as const,
    note: "n",
    tests: [
      { file: "x.test.ts", title: "one" },
      { file: "x.test.ts", title: "two" },
    ],
  };

  it("marks a row proven only when each test passed somewhere and failed nowhere", () => {
    const report = (two: string[]) => ({
      testResults: [
        {
          name: "/r/tests/backend/x.test.ts",
          assertionResults: [
            { title: "one", status: "passed" },
            { title: "one", status: "skipped" },
            ...two.map((status) => ({ title: "two", status })),
          ],
        },
      ],
    });
    const lastRun = (two: string[]) =>
      tableCells(renderBlock([row], { outcomes: reportOutcomes(report(two)), source: "r" }))[0].at(-1);
    expect(lastRun(["passed", "skipped"])).toBe("passed");
    expect(lastRun(["passed", "failed"])).toBe("**not proven**: 1 failed of 2");
    expect(lastRun(["skipped", "skipped"])).toBe("**not proven**: 1 skipped of 2");
    expect(lastRun([])).toBe("**not proven**: 1 not run of 2");
    expect(tableCells(renderBlock([row]))[0]).toEqual([
      "rest",
      "a \\| b",
      "stricter",
      "n",
      '`x.test.ts`: "one"; "two"',
      "not checked",
    ]);
    expect(tableCells(renderBlock([{ ...row, tests: [] }]))[0].slice(-2)).toEqual(["no test", "no test"]);
  });

  it("finds a title only as a string literal of the named file", () => {
    const sources: Record<string, string> = { "x.test.ts": `it("one", () => {});\n// two` };
    const read = (file: string) => {
      if (!(file in sources)) throw new Error("ENOENT");
      return sources[file];
    };
    expect(missingTests([row, { ...row, tests: [{ file: "y.test.ts", title: "one" }] }], read)).toEqual([
      'x.test.ts: "two"',
      'y.test.ts: "one"',
    ]);
  });
});
