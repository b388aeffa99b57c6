// Unit tests run in jsdom with fake-indexeddb; components unmount after each test, and an unexpected
// console.error fails the test (house rule 9).
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// findBy*/waitFor give up after 1 s by default. On CI's two busy cores the first render of a lazily
// imported page (transformed on first use) can take longer than that; 4 s still fails a test whose
// element never comes, without failing one whose machine is merely slow.
configure({ asyncUtilTimeout: 4_000 });

const errors: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  if (errors.length) {
    const seen = errors.splice(0);
    throw new Error(`unexpected console.error: ${seen.map((a) => a.map(String).join(" ")).join("\n")}`);
  }
});
