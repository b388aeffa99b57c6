// The runner (src/sync/runner.ts) with fake locks, triggers and lanes: every pipeline declared once, one
// lock per user across pages and the worker (a second runner waits for it and takes over), the triggers a
// lane declares reach it, and one Background Sync drains every lane in one loop within its bound.
import { afterEach, describe, expect, it, vi } from "vitest";
import { WORKER_DRAIN_WAIT_MS, WorkLeftForLater } from "#src/sync/delivery.ts";
import { LANES } from "#src/sync/lanes.ts";
import { drainLanes, keptOffline, listenForSync, startLanes, type Lane, type WorkerDrain } from "#src/sync/runner.ts";
import type { LockManagerLike } from "#src/sync/triggers.ts";
import { flush } from "./sim-clock.ts";

afterEach(() => vi.restoreAllMocks());

/** Exclusive locks by name, like navigator.locks: a request waits for the holder, an abort gives it up. */
function fakeLocks() {
  const held = new Map<string, Promise<unknown>>();
  const pending: string[] = [];
  const locks: LockManagerLike & { held: (name: string) => boolean } = {
    held: (name) => held.has(name),
    async query() {
      return { pending: pending.map((name) => ({ name })) };
    },
    async request(name, options, callback) {
      while (held.has(name)) {
        if (options.signal?.aborted) throw options.signal.reason;
        pending.push(name);
        const aborted = new Promise((_, reject) =>
          options.signal?.addEventListener("abort", () => reject(options.signal!.reason)),
        );
        await Promise.race([held.get(name), aborted]).finally(() => pending.splice(pending.indexOf(name), 1));
      }
      const run = Promise.resolve().then(callback);
      held.set(name, run);
      try {
        return await run;
      } finally {
        held.delete(name);
      }
    },
  };
  return locks;
}

/** A lane whose page start records what it heard, and stops on request. */
function recordingLane(lane: Partial<Lane>, log: string[]): Lane {
  return {
    name: "outbox",
    wakeOn: [],
    ...lane,
    start: ({ userId }) => {
      log.push(`start ${userId}`);
      return { wake: ({ on }) => void log.push(`${on} ${userId}`), stop: () => void log.push(`stop ${userId}`) };
    },
  };
}

describe("the lanes", () => {
  it("declares every pipeline once, each lock and sync tag belonging to one lane, each tag drained in the worker", () => {
    const names = LANES.map((l) => l.name);
    expect(names.sort()).toEqual(["catch-up", "images", "outbox", "plan", "queue", "telemetry"]);
    const prefixes = LANES.flatMap((l) => (l.lock ? [l.lock.prefix] : []));
    expect(new Set(prefixes).size).toBe(prefixes.length);
    const tagged = LANES.filter((l) => l.syncTag);
    expect(new Set(tagged.map((l) => l.syncTag)).size).toBe(tagged.length);
    expect(tagged.every((l) => l.drain)).toBe(true);
  });
});

describe("a page's lanes", () => {
  /** Two pages of alice's that run a lane a page holds, the first one's started. */
  async function twoPages() {
    const locks = fakeLocks();
    const log: string[] = [];
    const lane = recordingLane({ name: "images", lock: { prefix: "images:", hold: "page" } }, log);
    const first = startLanes("alice", [lane], { locks });
    const second = startLanes("alice", [lane], { locks });
    await flush();
    return { locks, log, lane, first, second };
  }

  it("runs a lane a page holds in one page per user: a second page waits for the lock and takes over", async () => {
    const { locks, log, lane, first, second } = await twoPages();
    const bob = startLanes("bob", [lane], { locks });
    await flush();
    expect(log).toEqual(["start alice", "start bob"]);
    expect(locks.held("images:alice")).toBe(true);
    first();
    await flush();
    expect(log).toEqual(["start alice", "start bob", "stop alice", "start alice"]);
    second();
    bob();
    await flush();
    expect(locks.held("images:alice")).toBe(false);
  });

  it("gives up waiting for the lock when the page stops first", async () => {
    const { log, first, second } = await twoPages();
    second();
    first();
    await flush();
    expect(log).toEqual(["start alice", "stop alice"]);
  });

  it("takes a lane's lock for each run, so two pages never run at once", async () => {
    const locks = fakeLocks();
    const order: string[] = [];
    let release!: () => void;
    const lane: Lane = {
      name: "outbox",
      lock: { prefix: "outbox:", hold: "run" },
      wakeOn: [],
      start: ({ locked }) => {
        void locked(async () => {
          order.push("run");
          if (order.length === 1) await new Promise<void>((r) => (release = r));
          order.push("end");
        });
        return { stop: () => undefined };
      },
    };
    const stops = [startLanes("alice", [lane], { locks }), startLanes("alice", [lane], { locks })];
    await flush();
    expect(order).toEqual(["run"]);
    release();
    await flush();
    expect(order).toEqual(["run", "end", "run", "end"]);
    stops.forEach((stop) => stop());
  });

  it("asks for the lane's Background Sync when work is kept offline, and only then", async () => {
    const register = vi.fn(async () => undefined);
    const ready = Promise.resolve({ sync: { register } });
    Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { ready } });
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(true);
    try {
      keptOffline({ name: "outbox", syncTag: "promptcanvas-outbox", wakeOn: [] });
      online.mockReturnValue(false);
      keptOffline({ name: "catch-up", wakeOn: [] });
      keptOffline({ name: "outbox", syncTag: "promptcanvas-outbox", wakeOn: [] });
      await flush();
      expect(register.mock.calls).toEqual([["promptcanvas-outbox"]]);
    } finally {
      Reflect.deleteProperty(navigator, "serviceWorker");
    }
  });

  it("wakes a lane with the triggers it declares, until it stops", async () => {
    const win = new EventTarget();
    const log: string[] = [];
    const lane = recordingLane({ wakeOn: [{ on: "online" }] }, log);
    const stop = startLanes("alice", [lane], { window: win });
    await flush();
    win.dispatchEvent(new Event("offline"));
    win.dispatchEvent(new Event("online"));
    stop();
    await flush();
    win.dispatchEvent(new Event("online"));
    expect(log).toEqual(["start alice", "online alice", "stop alice"]);
  });
});

describe("the worker's drain", () => {
  const notify = async () => undefined;

  it("drains every lane at once within WORKER_DRAIN_WAIT_MS, and rejects for work left for a later sync after all end", async () => {
    vi.spyOn(Date, "now").mockReturnValue(1_000);
    vi.spyOn(console, "info").mockImplementation(() => undefined);
    const seen: Array<{ name: string; deadline: number }> = [];
    let finishQueue!: () => void;
    const lanes: Lane[] = [
      {
        name: "queue",
        wakeOn: [],
        drain: (ctx) => {
          seen.push({ name: "queue", deadline: ctx.deadline });
          return new Promise((r) => (finishQueue = r));
        },
      },
      {
        name: "outbox",
        wakeOn: [],
        drain: async (ctx) => {
          seen.push({ name: "outbox", deadline: ctx.deadline });
          throw new WorkLeftForLater("changes");
        },
      },
      { name: "catch-up", wakeOn: [] },
    ];
    let ended: unknown = null;
    const drained = drainLanes(lanes, { userId: "alice", notify }, fakeLocks()).catch((e) => (ended = e));
    await flush();
    expect(seen).toEqual([
      { name: "queue", deadline: 1_000 + WORKER_DRAIN_WAIT_MS },
      { name: "outbox", deadline: 1_000 + WORKER_DRAIN_WAIT_MS },
    ]);
    expect(ended).toBeNull(); // the queue is still draining
    finishQueue();
    await drained;
    expect(ended).toBeInstanceOf(WorkLeftForLater);
  });

  it("reports a failure before work left for later", async () => {
    const failing = (name: Lane["name"], error: Error): Lane => ({
      name,
      wakeOn: [],
      drain: () => Promise.reject(error),
    });
    const broken = new Error("broken");
    const lanes = [failing("queue", new WorkLeftForLater("tasks")), failing("outbox", broken)];
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    vi.spyOn(console, "info").mockImplementation(() => undefined);
    await expect(drainLanes(lanes, { userId: "alice", notify }, undefined)).rejects.toBe(broken);
  });

  it("waits for a lane a page holds, leaves it to the page that keeps it, and hands it to one that asks", async () => {
    const locks = fakeLocks();
    const drained: string[] = [];
    let handOver: WorkerDrain["handOver"] | undefined;
    let finish!: () => void;
    const lane: Lane = {
      name: "queue",
      lock: { prefix: "queue:", hold: "page" },
      wakeOn: [],
      drain: (ctx) => {
        drained.push(ctx.userId);
        handOver = ctx.handOver;
        return new Promise((r) => (finish = r));
      },
    };
    // A page holds it: the worker waits, and ends when its wait is over (a TimeoutError) without draining.
    const page = startLanes("alice", [{ ...lane, start: () => ({ stop: () => undefined }) }], { locks });
    await flush();
    const timeout = vi
      .spyOn(AbortSignal, "timeout")
      .mockImplementation(() => AbortSignal.abort(new DOMException("", "TimeoutError")));
    await drainLanes([lane], { userId: "alice", notify }, locks);
    expect(drained).toEqual([]);
    timeout.mockRestore();
    page();
    await flush();
    // Free: the worker drains, and a page that asks for the lock meanwhile is told (handOver).
    const worker = drainLanes([lane], { userId: "alice", notify }, locks);
    await flush();
    expect(drained).toEqual(["alice"]);
    expect(await handOver!()).toBe(false);
    const next = startLanes("alice", [{ ...lane, start: () => ({ stop: () => undefined }) }], { locks });
    await flush();
    expect(await handOver!()).toBe(true);
    finish();
    await worker;
    next();
  });

  it("drains on every declared Background Sync tag with the one drain, keeping the event alive", async () => {
    const worker = new EventTarget();
    const drain = vi.fn(async () => undefined);
    const lanes: Lane[] = [
      { name: "queue", syncTag: "q", wakeOn: [] },
      { name: "outbox", syncTag: "o", wakeOn: [] },
    ];
    listenForSync(lanes, drain, { worker });
    const kept: Promise<unknown>[] = [];
    for (const tag of ["q", "o", "other"])
      worker.dispatchEvent(Object.assign(new Event("sync"), { tag, waitUntil: (p: Promise<unknown>) => kept.push(p) }));
    expect(drain).toHaveBeenCalledTimes(2);
    expect(kept).toHaveLength(2);
  });
});
