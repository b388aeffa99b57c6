import { afterEach, describe, expect, it } from "vitest";
import { replaceToasts, showToast, toasts } from "#src/state/toasts.ts";

afterEach(() => {
  toasts.items.splice(0);
});

describe("toasts", () => {
  it("replaces every notice on screen with one when a state they spoke of no longer holds", () => {
    showToast({ tone: "success", title: "Saved" });
    showToast({ tone: "warning", title: "A change could not be applied" });
    replaceToasts({ tone: "warning", title: "Your account was deleted", durationMs: 10_000 });
    expect(toasts.items.map((t) => [t.title, t.durationMs])).toEqual([["Your account was deleted", 10_000]]);
  });
});
