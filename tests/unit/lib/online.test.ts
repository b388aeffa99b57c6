import { afterEach, describe, expect, it, vi } from "vitest";
import { onlineTrigger, untilOnline, whenOnline } from "#src/lib/online.ts";

function setOnline(value: boolean) {
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(value);
  if (value) window.dispatchEvent(new Event("online"));
  else window.dispatchEvent(new Event("offline"));
}

afterEach(() => vi.restoreAllMocks());

describe("whenOnline", () => {
  it("runs at once when online", () => {
    const fn = vi.fn();
    whenOnline(fn);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("offline, waits for the online event and then runs once", () => {
    setOnline(false);
    const fn = vi.fn();
    whenOnline(fn);
    expect(fn).not.toHaveBeenCalled();
    setOnline(true);
    setOnline(false);
    setOnline(true);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("does not run once cancelled", () => {
    setOnline(false);
    const fn = vi.fn();
    whenOnline(fn)();
    setOnline(true);
    expect(fn).not.toHaveBeenCalled();
  });
});

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

describe("onlineTrigger", () => {
  it("asked for many times offline, runs once when back online; online, runs at each ask", () => {
    setOnline(false);
    const fn = vi.fn();
    const trigger = onlineTrigger(fn);
    trigger.request();
    trigger.request();
    trigger.request();
    expect(fn).not.toHaveBeenCalled();
    setOnline(true);
    expect(fn).toHaveBeenCalledTimes(1);
    trigger.request();
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it("cancelled, it does not run when the connection comes back", () => {
    setOnline(false);
    const fn = vi.fn();
    const trigger = onlineTrigger(fn);
    trigger.request();
    trigger.cancel();
    setOnline(true);
    expect(fn).not.toHaveBeenCalled();
  });
});
