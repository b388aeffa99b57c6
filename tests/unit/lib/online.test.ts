import { afterEach, describe, expect, it, vi } from "vitest";
import { untilOnline } from "#src/lib/online.ts";

function setOnline(value: boolean) {
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(value);
  if (value) window.dispatchEvent(new Event("online"));
  else window.dispatchEvent(new Event("offline"));
}

afterEach(() => vi.restoreAllMocks());

describe("untilOnline", () => {
  it("resolves when the connection comes back, and rejects when aborted first", async () => {
    setOnline(false);
    let resolved = false;
    const waiting = untilOnline().then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    setOnline(true);
    await waiting;
    expect(resolved).toBe(true);

    setOnline(false);
    const controller = new AbortController();
    const aborted = untilOnline(controller.signal);
    controller.abort(new Error("stopped"));
    await expect(aborted).rejects.toThrow("stopped");
  });
});
