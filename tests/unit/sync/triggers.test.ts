import { describe, expect, it, vi } from "vitest";
import { subscribe, subscribeAll, type TriggerSources } from "#src/sync/triggers.ts";
import { createLane } from "#src/sync/delivery.ts";
import { flush, simClock } from "./sim-clock.ts";

function fakeDocument() {
  const doc = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState });
  const show = (state: DocumentVisibilityState) => {
    doc.visibilityState = state;
    doc.dispatchEvent(new Event("visibilitychange"));
  };
  return { doc, show };
}

describe("triggers", () => {
  it("fires on online and offline from the window given", () => {
    const win = new EventTarget();
    const heard: string[] = [];
    const off = subscribeAll([{ on: "online" }, { on: "offline" }], (f) => void heard.push(f.on), { window: win });
    win.dispatchEvent(new Event("online"));
    win.dispatchEvent(new Event("offline"));
    off();
    win.dispatchEvent(new Event("online"));
    expect(heard).toEqual(["online", "offline"]);
  });

  it("fires when the page is shown again, saying how long it was hidden", async () => {
    const clock = simClock();
    const { doc, show } = fakeDocument();
    const listener = vi.fn();
    subscribe({ on: "visible" }, listener, { document: doc, clock });
    show("hidden");
    await clock.advance(45_000);
    show("visible");
    expect(listener).toHaveBeenCalledExactlyOnceWith({ on: "visible", hiddenForMs: 45_000 });
  });

  it("fires when a session is renewed", () => {
    const listeners = new Set<() => void>();
    const session: TriggerSources["session"] = (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    };
    const listener = vi.fn();
    const off = subscribe({ on: "session" }, listener, { session });
    listeners.forEach((l) => l());
    off();
    expect(listeners.size).toBe(0);
    expect(listener).toHaveBeenCalledOnce();
  });

  it("answers a Background Sync of its tag only, keeping the event alive until the work ends", async () => {
    const worker = new EventTarget();
    let finish!: () => void;
    const work = new Promise<void>((r) => (finish = r));
    const listener = vi.fn(() => work);
    subscribe({ on: "sync", tag: "promptcanvas-outbox" }, listener, { worker });
    const kept: Promise<unknown>[] = [];
    const sync = (tag: string) =>
      worker.dispatchEvent(Object.assign(new Event("sync"), { tag, waitUntil: (p: Promise<unknown>) => kept.push(p) }));
    sync("other");
    sync("promptcanvas-outbox");
    expect(listener).toHaveBeenCalledOnce();
    expect(kept).toHaveLength(1);
    let settled = false;
    void kept[0].then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    finish();
    await flush();
    expect(settled).toBe(true);
  });

  it("wakes a lane: the online trigger releases its wait for the connection", async () => {
    const clock = simClock();
    const win = new EventTarget();
    let online = false;
    const sent: string[] = [];
    const pending = ["a"];
    const lane = createLane({
      key: "outbox",
      mode: "ordered",
      clock,
      next: async () => [...pending],
      idOf: (id) => id,
      isOnline: () => online,
      deliver: async (id) => {
        sent.push(id);
        pending.splice(pending.indexOf(id), 1);
        return { outcome: "delivered" };
      },
    });
    subscribe({ on: "online" }, () => lane.release("online"), { window: win });
    lane.wake();
    await clock.advance(0);
    expect(sent).toEqual([]);
    online = true;
    win.dispatchEvent(new Event("online"));
    win.dispatchEvent(new Event("online"));
    await clock.advance(0);
    expect(sent).toEqual(["a"]);
  });
});
