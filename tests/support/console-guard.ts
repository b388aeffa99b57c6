// The db and backend tiers' guard against unexpected console errors, as the e2e journeys guard their pages
// (tests/e2e/support/test.ts) and the unit tier its components: every console.error the test process
// prints is recorded, and a test that printed one it did not declare expected fails with the list.
// A test that provokes one on purpose says so, with a reason printed beside any failure:
//   allowConsoleError(/pattern/, "reason")
// Called inside a test it covers that test; called in a suite's body or hooks it covers the whole file.
// What is printed in a suite's hooks (starting or stopping a backend) is checked when the file ends.
import { afterAll, afterEach, beforeEach } from "vitest";

type Allowance = { pattern: RegExp; reason: string };

const forFile: Allowance[] = [];
const forTest: Allowance[] = [];
const unexpected: string[] = [];
let inTest = false;

/** Declares console errors matching `pattern` expected, for the running test or (outside one) the file. */
export function allowConsoleError(pattern: RegExp, reason: string): void {
  if (!reason.trim()) throw new Error("an allowance needs a reason");
  (inTest ? forTest : forFile).push({ pattern, reason });
}

/** The text of a console call, as the reader would see it (an Error by its stack). */
function textOf(args: unknown[]): string {
  return args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ");
}

const original = console.error;
console.error = (...args: unknown[]) => {
  const text = textOf(args);
  if (![...forFile, ...forTest].some((a) => a.pattern.test(text))) unexpected.push(text);
  original(...args);
};

/** Fails with what was printed unexpectedly since the last check, and forgets it. */
function check(when: string): void {
  if (!unexpected.length) return;
  const seen = unexpected.splice(0);
  const allowed = [...forFile, ...forTest].map((a) => `  ${a.pattern} (${a.reason})`).join("\n");
  throw new Error(
    `unexpected console.error ${when}:\n${seen.join("\n")}` +
      (allowed ? `\nallowed here:\n${allowed}` : "\nnothing is allowed here (allowConsoleError)"),
  );
}

beforeEach(() => {
  check("before this test (in a hook)");
  inTest = true;
});

afterEach(() => {
  inTest = false;
  try {
    check("during this test");
  } finally {
    forTest.length = 0;
  }
});

afterAll(() => check("in this file's hooks"));
