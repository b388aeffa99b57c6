// The hostile-input suites' verdict on a list of probes (tests/support/hostile.ts sends them): kept apart
// from hostile.ts, which the fuzzer and the Deno tests import without a test runner.
import { expect } from "vitest";
import { type Answer, BAD, type ProbeResult } from "./hostile.ts";

/**
 * Records each of `probes` in `results` (for the report) and expects it answered 4xx with a code in its
 * body (PostgREST's `code`, a function's `error.code`): never a server error, a hang or a dropped connection.
 */
export function expect4xxWithCode(
  results: ProbeResult[],
  database: string,
  family: string,
  probes: [string, Answer][],
): void {
  for (const [probe, answer] of probes) {
    results.push({ database, family, probe, answer });
    const seen = `${probe}: ${answer.status} ${answer.detail}`;
    expect(BAD.has(answer.cls), seen).toBe(false);
    expect(answer.cls, seen).toBe("4xx");
    // The detail is the body's start: a long message may cut it short of valid JSON, so the code is read as text.
    expect(/"code":\s*"[^"]+"/.test(answer.detail), seen).toBe(true);
  }
}
