// The page settles once it has loaded, is live and its holds are done, and then an idle moment: the
// service worker's precache waits for that, so it never shares a slow line with the first screen.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSettledGate, MAX_HOLD_MS } from "#src/lib/page-settled.ts";

/** A window whose load event and idle moments the test fires. */
function fakeWindow(readyState: DocumentReadyState = "loading") {
  const onLoad: (() => void)[] = [];
  const idle: (() => void)[] = [];
  const win = {
    document: { readyState },
    addEventListener: (type: string, listener: () => void) => {
      if (type === "load") onLoad.push(listener);
    },
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    requestIdleCallback: (fn: () => void) => idle.push(fn),
  };
  return {
    win,
    load: () => onLoad.splice(0).forEach((l) => l()),
    idle: () => idle.splice(0).forEach((l) => l()),
    idleWaiting: () => idle.length,
  };
}

/** Whether `promise` has settled after pending callbacks and timers up to now have run. */
/** Places a hold on `gate` that lasts until the returned function is called. */
function holdOpen(gate: { hold(p: Promise<unknown>): void }): () => void {
  let finish!: () => void;
  gate.hold(new Promise<void>((resolve) => (finish = resolve)));
  return finish;
}

/** A settled gate in a fake window whose document is `readyState`. */
function gateIn(readyState?: DocumentReadyState) {
  const w = fakeWindow(readyState);
  return { w, gate: createSettledGate(w.win) };
}

async function isDone(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the settled gate", () => {
  it("waits for the load event, the first commit and then an idle moment", async () => {
    const { w, gate } = gateIn();
    const settled = gate.settled();
    gate.markLive();
    expect(await isDone(settled)).toBe(false);
    w.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.idleWaiting()).toBe(1);
    expect(await isDone(settled)).toBe(false);
    w.idle();
    expect(await isDone(settled)).toBe(true);
  });

  it("does not settle a loaded page before the app is live", async () => {
    const { w, gate } = gateIn("complete");
    const settled = gate.settled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.idleWaiting()).toBe(0);
    gate.markLive();
    await vi.advanceTimersByTimeAsync(0);
    w.idle();
    expect(await isDone(settled)).toBe(true);
  });

  it("waits for every hold, including one placed while the idle moment was awaited", async () => {
    const { w, gate } = gateIn("complete");
    const finishList = holdOpen(gate);
    const settled = gate.settled();
    gate.markLive();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.idleWaiting()).toBe(0); // the hold comes first
    finishList();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.idleWaiting()).toBe(1);
    // The tiles in view start loading before the browser is idle: their hold counts as well.
    const finishTiles = holdOpen(gate);
    w.idle();
    expect(await isDone(settled)).toBe(false);
    finishTiles();
    await vi.advanceTimersByTimeAsync(0);
    w.idle();
    expect(await isDone(settled)).toBe(true);
  });

  it("counts a failed hold as done, and gives up on one that never ends after MAX_HOLD_MS", async () => {
    const { w, gate } = gateIn("complete");
    gate.markLive();
    gate.hold(Promise.reject(new Error("offline")));
    gate.hold(new Promise(() => undefined));
    const settled = gate.settled();
    await vi.advanceTimersByTimeAsync(MAX_HOLD_MS - 1);
    expect(w.idleWaiting()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    w.idle();
    expect(await isDone(settled)).toBe(true);
  });
});
