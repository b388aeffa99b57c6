// Unit tests run in jsdom with fake-indexeddb; components unmount after each test, and an unexpected
// console.error fails the test (house rule 9).
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";

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
