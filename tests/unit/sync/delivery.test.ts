import { describe, expect, it } from "vitest";
import {
  DELIVERY_BACKOFF,
  backoffDelayMs,
  coalesced,
  createLane,
  type DeliveryOutcome,
  type LaneOptions,
  type Settled,
} from "#src/sync/delivery.ts";
import { seededRandom } from "../../support/seeded-random.ts";
import { flush, simClock } from "./sim-clock.ts";

type Item = { id: string };

/** A source of items and a recorder of deliveries, the deliveries answered from a script. */
function harness(ids: string[], answer: (id: string, call: number) => DeliveryOutcome | Promise<DeliveryOutcome>) {
  const pending = ids.map((id) => ({ id }));
  const clock = simClock();
  const delivered: Array<{ id: string; at: number }> = [];
  const settled: Array<{ id: string; settled: Settled }> = [];
  const calls = new Map<string, number>();
  let active = 0;
  let maxActive = 0;
  const options: LaneOptions<Item> = {
    key: "test",
    mode: "ordered",
    next: async () => [...pending],
    idOf: (i) => i.id,
    clock,
    random: seededRandom(7),
    async deliver(item) {
      const call = (calls.get(item.id) ?? 0) + 1;
      calls.set(item.id, call);
      delivered.push({ id: item.id, at: clock.now() });
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        return await answer(item.id, call);
      } finally {
        active--;
      }
    },
    settled(item, s) {
      settled.push({ id: item.id, settled: s });
      if (s.outcome === "delivered" || s.outcome === "failed") pending.splice(pending.indexOf(item), 1);
    },
  };
  return { pending, clock, delivered, settled, options, maxActive: () => maxActive };
}

const ok = (): DeliveryOutcome => ({ outcome: "delivered" });

describe("backoffDelayMs", () => {
  it("doubles from the base and stops at the cap, within the jitter", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 10].map((n) => backoffDelayMs(n, mid))).toEqual([
      2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    expect(backoffDelayMs(1, () => 0)).toBe(1_500);
    expect(backoffDelayMs(1, () => 0.999999)).toBe(2_500);
    expect(backoffDelayMs(20, () => 0.999999)).toBeLessThanOrEqual(DELIVERY_BACKOFF.maxMs * 1.25);
  });

  it("never goes sooner than the server's retry_after", () => {
    expect(backoffDelayMs(1, () => 0.5, 30_000)).toBe(30_000);
    expect(backoffDelayMs(6, () => 0.5, 30_000)).toBe(60_000);
  });

  it("is repeatable with a seeded random", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});

describe("an ordered lane", () => {
  it("delivers one at a time, in order", async () => {
    const h = harness(["a", "b", "c"], async () => {
      await new Promise((r) => h.clock.setTimeout(() => r(undefined), 10));
      return ok();
    });
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(100);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "b", "c"]);
    expect(h.maxActive()).toBe(1);
  });

  it("holds the lane behind a failing head, backing off with growth up to the cap", async () => {
    const h = harness(["a", "b"], (id, call) => (id === "a" && call <= 7 ? { outcome: "retry" } : ok()));
    h.options.random = () => 0.5; // no jitter: the delays are exact
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(1);
    expect(lane.status()).toMatchObject({ state: "backingOff", waiting: null, until: h.clock.now() - 1 + 2_000 });
    await h.clock.advance(10 * 60_000 - 1);
    expect(lane.status()).toMatchObject({ state: "idle", until: null, inFlight: 0 });
    const tries = h.delivered.filter((d) => d.id === "a").map((d) => d.at);
    const gaps = tries.slice(1).map((t, i) => t - tries[i]);
    expect(gaps).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    // b waited for a: the order is kept.
    expect(h.delivered.map((d) => d.id)).toEqual([..."aaaaaaaa", "b"]);
    const retries = h.settled.filter((s) => s.settled.outcome === "retry").map((s) => s.settled);
    expect(retries[0]).toEqual({ outcome: "retry", at: tries[0] + 2_000, attempts: 1 });
  });

  it("keeps its own backoff for a source with no settled callback", async () => {
    const h = harness(["a"], (_id, call) => (call === 1 ? { outcome: "retry" } : ok()));
    const lane = createLane({ ...h.options, settled: undefined });
    lane.wake();
    await lane.idle();
    expect(h.delivered.map((d) => d.id)).toEqual(["a"]); // held, not sent again at once
    await h.clock.advance(DELIVERY_BACKOFF.baseMs * (1 + DELIVERY_BACKOFF.jitter));
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "a"]);
    lane.stop();
  });

  it("honours retry_after as a floor on the backoff", async () => {
    const h = harness(["a"], (_, call) => (call === 1 ? { outcome: "retry", retryAfterMs: 45_000 } : ok()));
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(44_999);
    expect(h.delivered).toHaveLength(1);
    await h.clock.advance(1);
    expect(h.delivered).toHaveLength(2);
  });

  it("moves on past a permanent failure", async () => {
    const h = harness(["a", "b"], (id) => (id === "a" ? { outcome: "failed" } : ok()));
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(0);
    expect(h.settled.map((s) => [s.id, s.settled.outcome])).toEqual([
      ["a", "failed"],
      ["b", "delivered"],
    ]);
  });

  it("uses a persisted due time and attempt count when the source keeps them", async () => {
    const h = harness(["a"], ok);
    const due = h.clock.now() + 5_000;
    const lane = createLane({ ...h.options, dueAt: () => due, attemptsOf: () => 3 });
    lane.wake();
    await h.clock.advance(4_999);
    expect(h.delivered).toHaveLength(0);
    await h.clock.advance(1);
    expect(h.delivered).toHaveLength(1);
  });
});

describe("a source that throws", () => {
  it("settles a delivery that throws at once as a retry, and the lane goes on", async () => {
    const h = harness(["a", "b"], ok);
    const errors: unknown[] = [];
    const deliver = h.options.deliver;
    const lane = createLane({
      ...h.options,
      mode: "concurrent",
      limit: 2,
      onError: (e) => errors.push(e),
      deliver: (item) => {
        if (item.id === "a" && !errors.length) throw new Error("broken at once");
        return deliver(item);
      },
    });
    lane.wake();
    await h.clock.advance(0);
    expect(h.settled.map((s) => [s.id, s.settled.outcome])).toEqual([
      ["a", "retry"],
      ["b", "delivered"],
    ]);
    await h.clock.advance(60_000);
    expect(h.delivered.map((d) => d.id)).toEqual(["b", "a"]);
    expect(lane.status().state).toBe("idle");
  });
});

describe("a concurrent lane", () => {
  it("delivers up to its limit at once, and no more", async () => {
    const h = harness(["a", "b", "c", "d", "e"], async () => {
      await new Promise((r) => h.clock.setTimeout(() => r(undefined), 100));
      return ok();
    });
    const lane = createLane({ ...h.options, mode: "concurrent", limit: 2 });
    lane.wake();
    await h.clock.advance(0);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "b"]);
    await h.clock.advance(1_000);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "b", "c", "d", "e"]);
    expect(h.maxActive()).toBe(2);
  });

  it("lets others pass an item that backs off", async () => {
    const h = harness(["a", "b"], (id, call) => (id === "a" && call === 1 ? { outcome: "retry" } : ok()));
    const lane = createLane({ ...h.options, mode: "concurrent", limit: 1 });
    lane.wake();
    await h.clock.advance(0);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "b"]);
    await h.clock.advance(3_000);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "b", "a"]);
  });
});

describe("a delivery the source started itself (follow)", () => {
  /** A concurrent lane whose deliveries wait until the test ends them; ends them by id. */
  function handing(ids: string[], limit: number) {
    const ends = new Map<string, (o: DeliveryOutcome) => void>();
    const h = harness(ids, (id) => new Promise<DeliveryOutcome>((resolve) => ends.set(id, resolve)));
    const lane = createLane({ ...h.options, mode: "concurrent", limit });
    const end = async (id: string) => {
      ends.get(id)!(ok());
      await flush();
    };
    return { h, lane, end };
  }

  it("counts it in flight at once, so no look of the lane's starts it, and settles it like its own", async () => {
    const { h, lane, end } = handing(["a", "b", "c"], 1);
    lane.wake();
    await flush();
    expect(h.delivered.map((d) => d.id)).toEqual(["a"]);
    let endB!: (o: DeliveryOutcome) => void;
    lane.follow(h.pending[1]!, new Promise((resolve) => (endB = resolve)));
    expect(lane.status()).toMatchObject({ state: "sending", inFlight: 2 });
    await end("a");
    // b holds the slot a left: the lane's look after a starts nothing, and never b a second time.
    expect(h.delivered.map((d) => d.id)).toEqual(["a"]);
    expect(lane.status().inFlight).toBe(1);
    endB(ok());
    await flush();
    expect(h.settled.map((s) => [s.id, s.settled.outcome])).toEqual([
      ["a", "delivered"],
      ["b", "delivered"],
    ]);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "c"]);
  });

  it("never passes its limit when the source starts one while the lane reads its source", async () => {
    const { h, lane } = handing(["a"], 2);
    const next = h.options.next;
    let reading: (() => void) | undefined;
    h.options.next = () => new Promise((resolve) => (reading = () => void next().then(resolve)));
    const slow = createLane({ ...h.options, mode: "concurrent", limit: 2 });
    slow.wake();
    reading!();
    await flush();
    expect(h.delivered.map((d) => d.id)).toEqual(["a"]);
    h.pending.push({ id: "b" });
    slow.wake(); // one slot is free as the lane starts to read...
    expect(slow.status().state).toBe("looking");
    slow.follow({ id: "x" }, new Promise(() => undefined)); // ...and is taken meanwhile
    reading!();
    await flush();
    expect(h.delivered.map((d) => d.id)).toEqual(["a"]); // b waits: a and x fill the limit
    expect(slow.status()).toMatchObject({ state: "sending", inFlight: 2 });
    lane.stop();
  });

  it("settles nothing for a withdrawn one, and frees its slot for the lane's own look", async () => {
    const { h, lane, end } = handing(["a", "b"], 1);
    lane.wake();
    await flush();
    lane.follow({ id: "b" }, Promise.resolve({ outcome: "withdrawn" }));
    await end("a");
    expect(h.settled.map((s) => s.id)).toEqual(["a"]);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "b"]);
  });

  it("settles one it follows after stop(), and starts nothing more", async () => {
    const { h, lane } = handing(["a", "b"], 2);
    lane.stop();
    lane.follow({ id: "a" }, Promise.resolve(ok()));
    expect(await lane.idle()).toMatchObject({ state: "stopped", inFlight: 0 });
    expect(h.settled.map((s) => s.id)).toEqual(["a"]);
    expect(h.delivered).toEqual([]);
  });
});

describe("waits", () => {
  it("waits for the connection until released by 'online', not by another release", async () => {
    let online = false;
    const h = harness(["a"], ok);
    const lane = createLane({ ...h.options, isOnline: () => online });
    lane.wake();
    await h.clock.advance(0);
    expect(lane.status()).toMatchObject({ state: "waitingForNetwork", waiting: "online" });
    lane.release("session");
    lane.wake();
    await h.clock.advance(60_000);
    expect(h.delivered).toHaveLength(0);
    online = true;
    lane.release("online");
    await h.clock.advance(0);
    expect(h.delivered).toHaveLength(1);
  });

  it("sees a connection that came back without an 'online' event at its next wake", async () => {
    let online = false;
    const h = harness(["a"], ok);
    const lane = createLane({ ...h.options, isOnline: () => online });
    lane.wake();
    await h.clock.advance(0);
    expect(lane.status().waiting).toBe("online");
    online = true;
    await h.clock.advance(60_000);
    expect(h.delivered).toHaveLength(0);
    lane.wake();
    await h.clock.advance(0);
    expect(h.delivered).toHaveLength(1);
    expect(lane.status().waiting).toBeNull();
  });

  it("parks for a session until a session is renewed", async () => {
    const h = harness(["a", "b"], (id, call) =>
      id === "a" && call === 1 ? { outcome: "wait", for: "session" } : ok(),
    );
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(0);
    expect(h.settled[0].settled).toEqual({ outcome: "wait", for: "session" });
    expect(lane.status()).toMatchObject({ state: "waitingForSession", waiting: "session", until: null });
    lane.release("online");
    lane.release("quota");
    await h.clock.advance(10 * 60_000);
    expect(h.delivered.map((d) => d.id)).toEqual(["a"]);
    lane.release("session");
    await h.clock.advance(0);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "a", "b"]);
  });

  it("waits for the quota reset time, or an earlier quota release", async () => {
    const h = harness(["a"], (_, call) =>
      call === 1 ? { outcome: "wait", for: "quota", until: h.clock.now() + 3_600_000 } : ok(),
    );
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(0);
    const reset = h.clock.now() + 3_600_000;
    expect(lane.status()).toMatchObject({ state: "waitingForQuota", waiting: "quota", until: reset });
    lane.release("online");
    await h.clock.advance(3_599_999);
    expect(h.delivered).toHaveLength(1);
    await h.clock.advance(1);
    expect(h.delivered).toHaveLength(2);

    const early = harness(["x"], (_, call) =>
      call === 1 ? { outcome: "wait", for: "quota", until: early.clock.now() + 3_600_000 } : ok(),
    );
    const other = createLane(early.options);
    other.wake();
    await early.clock.advance(0);
    other.release("quota");
    await early.clock.advance(0);
    expect(early.delivered).toHaveLength(2);
  });
});

describe("wakes and stop", () => {
  it("never delivers an item twice when two triggers fire at once", async () => {
    const h = harness(["a", "b"], async () => {
      await new Promise((r) => h.clock.setTimeout(() => r(undefined), 50));
      return ok();
    });
    const lane = createLane({ ...h.options, mode: "concurrent", limit: 4 });
    lane.wake();
    lane.wake();
    lane.release("online");
    await flush();
    lane.wake();
    await h.clock.advance(1_000);
    expect(h.delivered.map((d) => d.id)).toEqual(["a", "b"]);
  });

  it("settles idle once nothing more can go, for a drain", async () => {
    const h = harness(["a", "b"], ok);
    const lane = createLane(h.options);
    lane.wake();
    const status = await lane.idle();
    expect(h.delivered).toHaveLength(2);
    expect(status).toMatchObject({ waiting: null, inFlight: 0 });
  });

  it("starts nothing after stop(), and lets the delivery on the wire settle", async () => {
    const h = harness(["a", "b"], async () => {
      await new Promise((r) => h.clock.setTimeout(() => r(undefined), 100));
      return ok();
    });
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(10);
    lane.stop();
    await h.clock.advance(10_000);
    lane.wake();
    await h.clock.advance(10_000);
    expect(h.delivered.map((d) => d.id)).toEqual(["a"]);
    expect(h.settled.map((s) => s.id)).toEqual(["a"]);
  });

  it("leaves no timer behind after stop()", async () => {
    const h = harness(["a"], () => ({ outcome: "retry" }));
    const lane = createLane(h.options);
    lane.wake();
    await h.clock.advance(0);
    expect(h.clock.pending()).toBe(1);
    lane.stop();
    expect(h.clock.pending()).toBe(0);
  });
});

describe("coalesced runs", () => {
  it("runs once more after the run under way however often asked meanwhile, never two at once", async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const gates: Array<() => void> = [];
    const runner = coalesced(
      async () => {
        runs++;
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise<void>((resolve) => gates.push(resolve));
        active--;
      },
      () => undefined,
    );
    runner.request();
    runner.request();
    runner.request();
    await flush();
    expect(runs).toBe(1);
    gates.shift()!();
    await flush();
    expect(runs).toBe(2);
    gates.shift()!();
    await flush();
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
  });

  it("lets the job take a pending request to start over early, and starts nothing after stop()", async () => {
    const seen: boolean[] = [];
    let release!: () => void;
    const runner = coalesced(
      async (takeRequest) => {
        await new Promise<void>((resolve) => (release = resolve));
        seen.push(takeRequest());
      },
      () => undefined,
    );
    runner.request();
    runner.request(); // asked during the run: the job sees it and takes it
    await flush();
    release();
    await flush();
    expect(seen).toEqual([true]); // taken by the job, so no second run
    runner.stop();
    runner.request();
    await flush();
    expect(seen).toEqual([true]);
  });

  it("hands a failing job's error to onError and runs again when asked", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const runner = coalesced(
      async () => {
        calls++;
        if (calls === 1) throw new Error("boom");
      },
      (e) => errors.push(e),
    );
    runner.request();
    await flush();
    runner.request();
    await flush();
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });
});
