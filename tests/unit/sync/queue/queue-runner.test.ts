// The generation queue as a concurrent lane of the delivery mechanism (decision 117), on a simulated clock:
// real Dexie (fake-indexeddb), the real sends (src/sync/run-task.ts), and a backend whose answers the test
// gives one send at a time. Dexie's work runs on real (zero-delay) timers, so the test waits for it with
// vi.waitFor; time for the waits moves only when the test advances the clock.
import { Blob as NodeBlob } from "node:buffer";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GenerateAnswer } from "#src/api/generate.ts";
import { appErrorOf, type AppError } from "#src/api/errors.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import type { TaskWait } from "#src/db/schema.ts";
import { enqueueTasks, retryTask, type ClaimDue } from "#src/db/tasks.ts";
import { err, ok, type Result } from "#src/lib/result.ts";
import {
  drainUserQueue,
  startQueueRunner,
  type QueueRunner,
  type QueueRunnerOptions,
} from "#src/sync/queue/queue-runner.ts";
import { WORKER_DRAIN_WAIT_MS, WorkLeftForLater } from "#src/sync/delivery.ts";
import { foregroundCount } from "#src/sync/foreground.ts";
import type { RunOutcome, RunTaskDeps } from "#src/sync/run-task.ts";
import { generationRow, limitsRecord, newTask } from "../../../support/records.ts";
import { simClock } from "../sim-clock.ts";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const USER = "alice";

let db: AppDb | undefined;
let runner: QueueRunner | undefined;
let dbs = 0;
afterEach(async () => {
  runner?.stop();
  runner = undefined;
  await db?.delete();
  db = undefined;
});

type Answer = Result<GenerateAnswer, AppError>;

const made = (id: string): Answer =>
  ok({
    generation: { ...generationRow(id, USER), image_url: `https://backend.test/storage/v1/object/sign/${id}.png` },
    quota: { remaining: 3, daily_limit: 5, reset_at: "2026-11-23T00:00:00.000Z" },
    replayed: false,
  });

const refused = (code: AppError["code"], retryAfterMs?: number): Answer => {
  const error = appErrorOf(code, "refused in the test");
  return err(retryAfterMs === undefined ? error : { ...error, retryAfterMs });
};

/** A queue for alice whose sends wait until the test answers them; records each send, in order. */
async function harness(options: { concurrency?: number; online?: boolean; renews?: boolean; start?: boolean } = {}) {
  db = openAppDb(`queue-runner-${++dbs}`);
  const clock = simClock(NOW);
  const sent: string[] = [];
  const waiting = new Map<string, (answer: Answer) => void>();
  /** How each send hears that the server has drawn its image (decision 123). */
  const drawnOf = new Map<string, () => void>();
  let onWire = 0;
  let mostOnWire = 0;
  const state = { online: options.online ?? true, concurrency: options.concurrency ?? 2 };
  const outcomes: RunOutcome[] = [];
  /** For each send, the outcomes the runner had heard when it went out. */
  const heardAtSend = new Map<string, string[]>();
  const deps: RunTaskDeps = {
    db,
    generate: (request, listeners) => {
      sent.push(request.requestId);
      if (listeners?.onDrawn) drawnOf.set(request.requestId, listeners.onDrawn);
      heardAtSend.set(
        request.requestId,
        outcomes.map((o) => `${o.taskId}:${o.status}`),
      );
      mostOnWire = Math.max(mostOnWire, ++onWire);
      return new Promise((resolve) =>
        waiting.set(request.requestId, (answer) => {
          onWire--;
          waiting.delete(request.requestId);
          resolve(answer);
        }),
      );
    },
    fetchImage: async () => new NodeBlob([new Uint8Array([1, 2, 3])], { type: "image/png" }) as unknown as Blob,
    track: async () => undefined,
    refreshSession: async () => options.renews ?? false,
    isOnline: () => state.online,
    now: () => clock.now(),
    random: () => 0.5,
  };
  const runnerOptions: QueueRunnerOptions = {
    db,
    userId: USER,
    concurrency: () => state.concurrency,
    onOutcome: (outcome) => outcomes.push(outcome),
    deps,
    clock,
  };
  const h = {
    db,
    clock,
    sent,
    state,
    outcomes,
    heardAtSend,
    options: runnerOptions,
    mostOnWire: () => mostOnWire,
    onWire: () => [...waiting.keys()],
    /** Deliveries the lane made (each is a run), sent or not: a lane that spins makes many. */
    deliveries: 0,
    async start() {
      runner = await startQueueRunner(runnerOptions);
      let before: readonly string[] = [];
      runner.subscribe(() => {
        const now = runner?.running() ?? [];
        h.deliveries += now.filter((id) => !before.includes(id)).length;
        before = now;
      });
      return runner;
    },
    /** Queues tasks in this order, each a second after the one before (createdAt says who is older). */
    async enqueue(ids: string[], wait?: TaskWait, at = clock.now()) {
      for (const [i, id] of ids.entries()) {
        await enqueueTasks(db!, [newTask(id, USER, wait ? { wait } : {})], null, at + i * 1_000);
      }
    },
    /** Answers the send of `id` (it must be on the wire) and waits until its task is settled. */
    async answer(id: string, answer: Answer = made(id)) {
      await vi.waitFor(() => expect(waiting.has(id), `${id} is on the wire`).toBe(true));
      const told = outcomes.length;
      waiting.get(id)!(answer);
      // The runner hears the outcome once the send has settled the task in Dexie.
      await vi.waitFor(() => expect(outcomes.slice(told).some((o) => o.taskId === id)).toBe(true));
    },
    /** The server says it has drawn the image of `id` (on the wire), before its answer. */
    async drawn(id: string) {
      await vi.waitFor(() => expect(drawnOf.has(id), `${id} listens for drawn`).toBe(true));
      drawnOf.get(id)!();
    },
    async sentBecomes(ids: string[]) {
      await vi.waitFor(() => expect(sent).toEqual(ids));
    },
    /** Real time for Dexie and the lane to do what they would (nothing, in a test of what must not happen). */
    quiet: () => new Promise((resolve) => setTimeout(resolve, 60)),
    async task(id: string) {
      return db!.tasks.get(id);
    },
    /** A trigger the runner hears (src/sync/runner.ts passes it the ones its lane declares). */
    fire(event: "online" | "offline") {
      runner?.heard({ on: event });
    },
    renewSession() {
      runner?.heard({ on: "session" });
    },
  };
  if (options.start !== false) await h.start();
  return h;
}

describe("the queue's lane", () => {
  it("sends queued tasks oldest first, never more than the concurrency at once", async () => {
    const h = await harness({ concurrency: 2, start: false });
    await h.enqueue(["a", "b", "c", "d"]);
    await h.db.tasks.update("c", { createdAt: "2026-11-22T09:00:00.000Z" }); // c is the oldest now
    await h.start();
    await h.sentBecomes(["c", "a"]);
    await h.quiet();
    expect(h.sent).toEqual(["c", "a"]);
    await h.answer("a");
    await h.sentBecomes(["c", "a", "b"]);
    await h.answer("c");
    await h.sentBecomes(["c", "a", "b", "d"]);
    await h.answer("b");
    await h.answer("d");
    expect(h.mostOnWire()).toBe(2);
    expect((await h.db.tasks.toArray()).map((t) => t.status)).toEqual(["done", "done", "done", "done"]);
  });

  it("follows the concurrency live: a raised one starts more at once, a lowered one starts none until below it", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a", "b", "c", "d", "e"]);
    const runner = await h.start();
    await h.sentBecomes(["a"]);
    h.state.concurrency = 3;
    runner.wake();
    await h.sentBecomes(["a", "b", "c"]);
    h.state.concurrency = 1;
    runner.wake();
    await h.answer("a");
    await h.answer("b");
    await h.quiet();
    expect(h.sent).toEqual(["a", "b", "c"]); // c alone is on the wire: that is the limit
    await h.answer("c");
    await h.sentBecomes(["a", "b", "c", "d"]);
    await h.answer("d");
    await h.sentBecomes(["a", "b", "c", "d", "e"]);
    await h.answer("e");
    expect(h.mostOnWire()).toBe(3);
  });

  it("honours a backoff wait to the millisecond, and the server's retry_after as its floor", async () => {
    const h = await harness();
    await h.enqueue(["a"]);
    await h.sentBecomes(["a"]);
    await h.answer("a", refused("server_error"));
    // The first backoff: 2 s (random 0.5: no jitter).
    expect((await h.task("a"))?.wait).toEqual({ reason: "backoff", until: new Date(NOW + 2_000).toISOString() });
    await h.quiet();
    await h.clock.advance(1_999);
    await h.quiet();
    expect(h.sent).toEqual(["a"]);
    expect(h.deliveries, "the lane leaves a waiting task alone").toBe(1);
    await h.clock.advance(1);
    await h.sentBecomes(["a", "a"]);
    // The second would be 4 s; the server asks for 30 s, and 30 s it is.
    await h.answer("a", refused("rate_limit", 30_000));
    const resent = h.clock.now();
    expect((await h.task("a"))?.wait).toEqual({ reason: "backoff", until: new Date(resent + 30_000).toISOString() });
    await h.quiet();
    await h.clock.advance(29_999);
    await h.quiet();
    expect(h.sent).toEqual(["a", "a"]);
    await h.clock.advance(1);
    await h.sentBecomes(["a", "a", "a"]);
    await h.answer("a");
    expect((await h.task("a"))?.status).toBe("done");
  });

  it("holds everything offline, and sends it all when the connection is back", async () => {
    const h = await harness({ online: false, start: false });
    await h.enqueue(["a", "b"], { reason: "offline" });
    await h.start();
    await h.quiet();
    await h.clock.advance(60_000);
    await h.quiet();
    expect(h.sent).toEqual([]);
    h.state.online = true;
    h.fire("online");
    await h.sentBecomes(["a", "b"]);
    // The connection drops while a is out: its send fails and it waits; nothing else goes meanwhile.
    h.state.online = false;
    h.fire("offline");
    await h.answer("a", refused("network_error"));
    expect((await h.task("a"))?.wait).toEqual({ reason: "offline" });
    await h.enqueue(["c"], undefined, NOW + 10_000);
    await h.answer("b");
    await h.quiet();
    expect(h.sent).toEqual(["a", "b"]);
    h.state.online = true;
    h.fire("online");
    await h.sentBecomes(["a", "b", "a", "c"]);
  });

  it("wakes a task held for the quota reset at that time; one with no known time waits for the person", async () => {
    const h = await harness({ start: false });
    const reset = NOW + 3_600_000;
    await h.enqueue(["held"], { reason: "quota", until: new Date(reset).toISOString() });
    await h.enqueue(["untimed"], { reason: "quota" }, NOW + 5_000);
    await h.start();
    await h.quiet();
    await h.clock.advance(3_600_000 - 1);
    await h.quiet();
    expect(h.sent).toEqual([]);
    expect(h.deliveries).toBe(0);
    await h.clock.advance(1);
    await h.sentBecomes(["held"]);
    await h.answer("held");
    await h.clock.advance(86_400_000);
    await h.quiet();
    expect(h.sent).toEqual(["held"]);
    expect((await h.task("untimed"))?.status).toBe("queued");
    // Retry (the person's choice) lifts its wait, and the live query wakes the lane.
    await retryTask(h.db, "untimed", h.clock.now());
    await h.sentBecomes(["held", "untimed"]);
  });

  it("lifts the waits for a session when it starts: a reload with a valid session sends them", async () => {
    const h = await harness({ start: false });
    await h.enqueue(["a", "b"], { reason: "auth" });
    await h.start();
    await h.sentBecomes(["a", "b"]);
    await h.answer("a");
    await h.answer("b");
    expect((await h.db.tasks.toArray()).map((t) => t.status)).toEqual(["done", "done"]);
  });

  it("waits for a session once a send needs one, and goes on when it is renewed", async () => {
    const h = await harness({ renews: false });
    await h.enqueue(["a"]);
    await h.answer("a", refused("auth_required"));
    expect((await h.task("a"))?.wait).toEqual({ reason: "auth" });
    // The lane holds: a new task waits too, and no time lifts it.
    await h.enqueue(["b"], undefined, NOW + 10_000);
    await h.quiet();
    await h.clock.advance(3_600_000);
    await h.quiet();
    expect(h.sent).toEqual(["a"]);
    expect(h.deliveries).toBe(1);
    h.renewSession();
    await h.sentBecomes(["a", "a", "b"]);
    await h.answer("a");
    await h.answer("b");
    expect((await h.db.tasks.toArray()).map((t) => t.status)).toEqual(["done", "done"]);
  });

  it("sends again a task whose send ended waiting for a session renewed while it was out", async () => {
    const h = await harness({ renews: false });
    await h.enqueue(["a"]);
    await h.sentBecomes(["a"]);
    h.renewSession();
    await h.answer("a", refused("auth_required"));
    await h.sentBecomes(["a", "a"]);
    await h.answer("a");
    expect((await h.task("a"))?.status).toBe("done");
  });

  it("never sends one task twice at once, however many wakes come together", async () => {
    const h = await harness({ concurrency: 4 });
    await h.enqueue(["a", "b"]);
    for (let i = 0; i < 5; i++) runner!.wake();
    h.fire("online");
    h.renewSession();
    runner!.wake();
    await h.sentBecomes(["a", "b"]);
    for (let i = 0; i < 5; i++) runner!.wake();
    await h.db.tasks.update("b", { updatedAt: new Date(h.clock.now()).toISOString() }); // a live-query round
    await h.quiet();
    expect(h.sent).toEqual(["a", "b"]);
    await h.answer("a");
    await h.answer("b");
    await h.quiet();
    expect(h.sent).toEqual(["a", "b"]);
    expect(h.outcomes.map((o) => `${o.taskId}:${o.status}`)).toEqual(["a:done", "b:done"]);
  });

  it("sends the next task from the transaction that stores an answer, before the answer is even heard", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a", "b", "c"]);
    await h.start();
    await h.sentBecomes(["a"]);
    await h.answer("a");
    await h.sentBecomes(["a", "b"]);
    // b went out as a's answer was stored: the page (onOutcome) heard of a only after.
    expect(h.heardAtSend.get("b")).toEqual([]);
    expect((await h.task("a"))?.status).toBe("done");
    expect((await h.task("b"))?.status).toBe("running");
    await h.answer("b");
    await h.sentBecomes(["a", "b", "c"]);
    expect(h.heardAtSend.get("c")).toEqual(["a:done"]);
    await h.answer("c");
    await h.quiet();
    expect(h.sent).toEqual(["a", "b", "c"]);
    expect(h.mostOnWire()).toBe(1);
    expect(h.outcomes.map((o) => `${o.taskId}:${o.status}`)).toEqual(["a:done", "b:done", "c:done"]);
  });

  it("sends the next task once the server has drawn the image, while that answer is still on its way", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a", "b", "c"]);
    const runner = await h.start();
    const shown: string[] = [];
    runner.subscribe(() => shown.push(runner.running().join(",")));
    await h.sentBecomes(["a"]);
    await h.drawn("a");
    await h.sentBecomes(["a", "b"]);
    expect(h.onWire()).toEqual(["a", "b"]);
    // One run is shown at concurrency 1: b's starts as a's image is answered, in the same step.
    expect(runner.running()).toEqual(["a"]);
    // a is finishing: stored as drawn, so only b counts as running against the concurrency.
    expect((await h.task("a"))?.drawnAt).toBe(new Date(NOW).toISOString());
    expect((await h.task("b"))?.drawnAt).toBeUndefined();
    // a's answer hands on nothing more: its slot went to b already.
    await h.answer("a");
    await h.quiet();
    expect(h.sent).toEqual(["a", "b"]);
    expect(runner.running()).toEqual(["b"]);
    expect(shown.filter((s) => s.includes(","))).toEqual([]);
    await h.drawn("b");
    await h.sentBecomes(["a", "b", "c"]);
    await h.answer("b");
    await h.answer("c");
    await h.quiet();
    expect(h.sent).toEqual(["a", "b", "c"]);
    expect(h.outcomes.map((o) => `${o.taskId}:${o.status}`)).toEqual(["a:done", "b:done", "c:done"]);
    for (const id of ["a", "b", "c"]) expect((await h.task(id))?.status).toBe("done");
  });

  it("ends a run for the person as its image is answered, before the task is stored", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a"]);
    const runner = await h.start();
    await h.sentBecomes(["a"]);
    expect(runner.running()).toEqual(["a"]);
    // Read the task the moment its run ends: a read begun then sees it before the answer's transaction.
    let whenEnded: Promise<string | undefined> | undefined;
    runner.subscribe(() => {
      if (!whenEnded && !runner.running().includes("a")) whenEnded = h.task("a").then((t) => t?.status);
    });
    await h.answer("a");
    expect(await whenEnded).toBe("running");
    expect((await h.task("a"))?.status).toBe("done");
  });

  it("counts each send as foreground work while it is out: the background fill waits for it (decision 160)", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a"]);
    // Counted from here: a send an earlier test of this file left unanswered is still counted.
    const before = foregroundCount();
    await h.start();
    await h.sentBecomes(["a"]);
    expect(foregroundCount()).toBe(before + 1);
    await h.answer("a");
    await vi.waitFor(() => expect(foregroundCount()).toBe(before));
  });

  it("with nothing to send at drawn, a task queued before the answer goes from the answer's transaction", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a"]);
    await h.start();
    await h.sentBecomes(["a"]);
    await h.drawn("a");
    await h.quiet();
    await h.enqueue(["b"]);
    await h.quiet();
    expect(h.sent).toEqual(["a"]);
    await h.answer("a");
    await h.sentBecomes(["a", "b"]);
    expect(h.heardAtSend.get("b")).toEqual([]);
    expect((await h.task("a"))?.drawnAt).toBeUndefined();
    await h.answer("b");
    expect(h.outcomes.map((o) => `${o.taskId}:${o.status}`)).toEqual(["a:done", "b:done"]);
  });

  it("sends nothing early that today's known quota cannot cover: the answer says what is left", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.db.limits.put(limitsRecord(USER, { remaining: 1, checkedAt: new Date(NOW).toISOString() }));
    await h.enqueue(["a", "b"]);
    await h.start();
    await h.sentBecomes(["a"]);
    await h.drawn("a");
    await h.quiet();
    expect(h.sent).toEqual(["a"]);
    const spent = made("a");
    if (spent.ok && "generation" in spent.value) spent.value.quota = { ...spent.value.quota, remaining: 0 };
    await h.answer("a", spent);
    await vi.waitFor(async () => expect((await h.task("b"))?.status).toBe("error"));
    expect(h.sent).toEqual(["a"]);
  });

  it("gives the slot back when the answer after drawn is a failure, and still sends the task it handed on", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a", "b"]);
    await h.start();
    await h.sentBecomes(["a"]);
    await h.drawn("a");
    await h.sentBecomes(["a", "b"]);
    await h.answer("a", refused("server_error"));
    expect((await h.task("a"))?.status).toBe("queued");
    await h.answer("b");
    expect((await h.task("b"))?.status).toBe("done");
    // a goes again after its backoff, alone.
    await h.clock.advance(60_000);
    await h.sentBecomes(["a", "b", "a"]);
    await h.answer("a");
    expect((await h.task("a"))?.status).toBe("done");
  });

  it("sends a new task from the transaction that writes it, within the concurrency, oldest first", async () => {
    const h = await harness({ concurrency: 2 });
    const write = (ids: string[]) => (claimDue: ClaimDue) =>
      enqueueTasks(
        h.db,
        ids.map((id) => newTask(id, USER)),
        null,
        h.clock.now(),
        claimDue,
      );
    await runner!.enqueue(write(["a"]));
    // On the wire as the write resolves: no look of the lane's and no transaction of its own between.
    expect(h.sent).toEqual(["a"]);
    await runner!.enqueue(write(["b", "c"]));
    expect(h.sent).toEqual(["a", "b"]); // two at once is the limit; c waits its turn
    await h.quiet();
    expect(h.sent).toEqual(["a", "b"]);
    await h.answer("a");
    await h.sentBecomes(["a", "b", "c"]);
    await h.answer("b");
    await h.answer("c");
    expect(h.mostOnWire()).toBe(2);
    expect((await h.db.tasks.toArray()).map((t) => t.status)).toEqual(["done", "done", "done"]);
  });

  it("claims nothing from a write that fails, and sends nothing offline from one", async () => {
    const h = await harness({ concurrency: 1 });
    await expect(
      runner!.enqueue(async (claimDue) => {
        await h.db.transaction("rw", [h.db.tasks, h.db.limits, h.db.promptHistory], async () => {
          await enqueueTasks(h.db, [newTask("x", USER)], null, h.clock.now(), claimDue);
          throw new Error("the write fails after the claim");
        });
      }),
    ).rejects.toThrow("the write fails");
    expect(await h.task("x")).toBeUndefined();
    h.state.online = false;
    await runner!.enqueue((claimDue) => enqueueTasks(h.db, [newTask("y", USER)], null, h.clock.now(), claimDue));
    await h.quiet();
    expect(h.sent).toEqual([]);
    expect((await h.task("y"))?.status).toBe("queued");
    h.state.online = true;
    h.fire("online");
    await h.sentBecomes(["y"]); // the slot the failed write reserved was given back
    await h.answer("y");
  });

  it("chains a task queued (in Dexie, by any tab) while the queue looked empty", async () => {
    const h = await harness({ concurrency: 1 });
    await h.enqueue(["a"]);
    await h.sentBecomes(["a"]);
    await h.quiet(); // the lane's last look found nothing more queued
    await h.enqueue(["b"]);
    await h.quiet(); // the live query has told the runner
    await h.answer("a");
    await h.sentBecomes(["a", "b"]);
    expect(h.heardAtSend.get("b")).toEqual([]);
    await h.answer("b");
  });

  it("does not send the next task on a quota the answer used up", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["a", "b"]);
    await h.start();
    await h.sentBecomes(["a"]);
    const spent = made("a");
    if (spent.ok && "generation" in spent.value) spent.value.quota = { ...spent.value.quota, remaining: 0 };
    await h.answer("a", spent);
    await vi.waitFor(async () => expect((await h.task("b"))?.status).toBe("error"));
    expect((await h.task("b"))?.error?.code).toBe("daily_limit");
    expect(h.sent).toEqual(["a"]);
  });

  it("once stopped, sends nothing more from an answer's transaction", async () => {
    const h = await harness({ concurrency: 1, start: false });
    await h.enqueue(["x", "y"]);
    const stopping = await h.start();
    await h.sentBecomes(["x"]);
    stopping.stop();
    await h.answer("x");
    await h.quiet();
    expect(h.sent).toEqual(["x"]);
    expect((await h.task("y"))?.status).toBe("queued");
  });

  it("shows each send's progress on the clock while it is on the wire", async () => {
    const h = await harness({ concurrency: 2 });
    const seen: string[][] = [];
    runner!.subscribe(() => seen.push([...runner!.running()]));
    await h.enqueue(["a", "b"]);
    await h.sentBecomes(["a", "b"]);
    expect(runner!.running()).toEqual(["a", "b"]);
    await h.clock.advance(600);
    expect(runner!.runOf("b")?.getSnapshot().context.progress).toBe(30);
    await h.clock.advance(10_000);
    expect(runner!.runOf("b")?.getSnapshot().context.progress).toBe(90);
    await h.answer("b");
    await vi.waitFor(() => expect(runner!.running()).toEqual(["a"]));
    expect(runner!.runOf("b")).toBeUndefined();
    await h.answer("a");
    await vi.waitFor(() => expect(runner!.running()).toEqual([]));
    expect(seen).toEqual([["a"], ["a", "b"], ["a"], []]);
  });
});

describe("the queue's states (its lane's machine), on the simulated clock", () => {
  const state = () => runner!.status().state;
  const becomes = (expected: string) => vi.waitFor(() => expect(state()).toBe(expected));

  it("idle with nothing queued; offline, waitingForNetwork; online again, sending", async () => {
    const h = await harness({ online: false });
    await becomes("waitingForNetwork"); // a look offline finds the device offline
    h.state.online = true;
    h.fire("online");
    await becomes("idle");
    h.state.online = false;
    h.fire("offline");
    await h.enqueue(["a"], { reason: "offline" });
    await h.clock.advance(60_000);
    await becomes("waitingForNetwork");
    expect(runner!.status()).toMatchObject({ waiting: "online", until: null, inFlight: 0 });
    h.state.online = true;
    h.fire("online");
    await h.sentBecomes(["a"]);
    expect(runner!.status()).toMatchObject({ state: "sending", waiting: null, inFlight: 1 });
    await h.answer("a");
    await becomes("idle");
  });

  it("a 429 backs off until the server's retry_after, its floor, then sends", async () => {
    const h = await harness();
    await h.enqueue(["a"]);
    await h.answer("a", refused("rate_limit", 30_000));
    await becomes("backingOff");
    expect(runner!.status()).toMatchObject({ waiting: null, until: NOW + 30_000, inFlight: 0 });
    await h.clock.advance(29_999);
    expect(state()).toBe("backingOff");
    await h.clock.advance(1);
    await h.sentBecomes(["a", "a"]);
    expect(state()).toBe("sending");
  });

  it("holds for the quota until its reset, then sends", async () => {
    const h = await harness({ start: false });
    const reset = NOW + 3_600_000;
    await h.enqueue(["a"], { reason: "quota", until: new Date(reset).toISOString() });
    await h.start();
    await becomes("holdingForQuota");
    expect(runner!.status()).toMatchObject({ until: reset, inFlight: 0 });
    await h.clock.advance(3_600_000 - 1);
    expect(state()).toBe("holdingForQuota");
    await h.clock.advance(1);
    await h.sentBecomes(["a"]);
    expect(state()).toBe("sending");
  });

  it("a quota rise (a plan bought, on any device) sends the tasks held for the reset at once, still held", async () => {
    const h = await harness({ start: false });
    const reset = NOW + 3_600_000;
    const resetAt = new Date(reset).toISOString();
    await h.db.limits.put(limitsRecord(USER, { remaining: 0, resetAt, checkedAt: new Date(NOW).toISOString() }));
    await h.enqueue(["a"], { reason: "quota", until: resetAt });
    await h.start();
    await becomes("holdingForQuota");
    await h.db.limits.update(USER, { dailyLimit: 999, remaining: 999, tier: "pro" });
    runner!.heard({ on: "quota" });
    await h.sentBecomes(["a"]);
    // Refused again (the plan ended meanwhile): it waits for the reset again, as the person chose.
    await h.answer("a", refused("daily_limit"));
    expect((await h.task("a"))?.wait).toMatchObject({ reason: "quota", until: resetAt });
  });

  it("waits for a session once a send finds it expired, and sends when it is renewed", async () => {
    const h = await harness({ renews: false });
    await h.enqueue(["a"]);
    await h.answer("a", refused("auth_required"));
    await becomes("waitingForSession");
    expect(runner!.status()).toMatchObject({ waiting: "session", until: null });
    await h.clock.advance(3_600_000);
    expect(state()).toBe("waitingForSession");
    runner!.heard({ on: "session" });
    await h.sentBecomes(["a", "a"]);
    expect(state()).toBe("sending");
  });

  it("at concurrency 2 sends two at once, and the third when one ends", async () => {
    const h = await harness({ concurrency: 2, start: false });
    await h.enqueue(["a", "b", "c"]);
    await h.start();
    await h.sentBecomes(["a", "b"]);
    expect(runner!.status()).toMatchObject({ state: "sending", inFlight: 2 });
    await h.answer("a");
    await h.sentBecomes(["a", "b", "c"]);
    expect(runner!.status()).toMatchObject({ state: "sending", inFlight: 2 });
    await h.answer("b");
    await h.answer("c");
    await becomes("idle");
    runner!.stop();
    expect(state()).toBe("stopped");
  });
});

describe("the queue's drain (the service worker)", () => {
  it("sends what is due, then ends once nothing is on the wire and the images are kept", async () => {
    const h = await harness({ start: false });
    await h.enqueue(["a", "b"]);
    let ended = false;
    const drained = drainUserQueue(h.options).then(() => (ended = true));
    await h.sentBecomes(["a", "b"]);
    await h.answer("a");
    await h.quiet();
    expect(ended).toBe(false);
    await h.answer("b");
    await drained;
    expect(h.sent).toEqual(["a", "b"]);
    expect((await h.db.images.toArray()).map((i) => i.id).sort()).toEqual(["a", "b"]);
  });

  it("waits for a retry that comes within its time and sends it: no page may be open to do it later", async () => {
    const h = await harness({ start: false });
    await h.enqueue(["a"]);
    await h.enqueue(["later"], { reason: "backoff", until: new Date(NOW + 60_000).toISOString() }, NOW + 5_000);
    let ended = false;
    const drained = drainUserQueue(h.options).then(() => (ended = true));
    await h.sentBecomes(["a"]);
    await h.answer("a");
    await h.quiet();
    await h.clock.advance(59_000);
    await h.quiet();
    expect(h.sent).toEqual(["a"]);
    expect(ended).toBe(false);
    await h.clock.advance(1_000);
    await h.sentBecomes(["a", "later"]);
    await h.answer("later");
    await drained;
    expect((await h.task("later"))?.status).toBe("done");
  });

  it("leaves a retry past its time to the browser's next sync: it rejects, and no timer of its is left", async () => {
    const h = await harness({ start: false });
    await h.enqueue(["a"]);
    const until = NOW + WORKER_DRAIN_WAIT_MS + 60_000;
    await h.enqueue(["later"], { reason: "backoff", until: new Date(until).toISOString() }, NOW + 5_000);
    const drained = drainUserQueue(h.options).catch((e: unknown) => e);
    await h.sentBecomes(["a"]);
    await h.answer("a");
    const error = await drained;
    expect(error).toBeInstanceOf(WorkLeftForLater);
    expect(String((error as Error).message)).toMatch(/^1 queued task\(s\) wait for a retry/);
    expect((await h.db.images.toArray()).map((i) => i.id)).toEqual(["a"]);
    await h.clock.advance(until - NOW + 60_000);
    await h.quiet();
    expect(h.sent).toEqual(["a"]);
    expect((await h.task("later"))?.status).toBe("queued");
  });

  it("hands a waiting retry to a page that asks for the queue", async () => {
    const h = await harness({ start: false });
    await h.enqueue(["later"], { reason: "backoff", until: new Date(NOW + 30_000).toISOString() });
    let asked = false;
    let ended = false;
    const drained = drainUserQueue({ ...h.options, handOver: async () => asked }).then(() => (ended = true));
    await h.quiet();
    await h.clock.advance(5_000);
    await h.quiet();
    expect(ended).toBe(false);
    asked = true;
    await h.clock.advance(1_000);
    await drained;
    expect(h.sent).toEqual([]);
    expect((await h.task("later"))?.status).toBe("queued");
  });

  it("does not wait for a session or for the day's quota: those are a page's or the next day's", async () => {
    const h = await harness({ start: false });
    await h.enqueue(["spent"], { reason: "quota", until: new Date(NOW + 14 * 3_600_000).toISOString() });
    await drainUserQueue(h.options);
    expect(h.sent).toEqual([]);
    expect((await h.task("spent"))?.status).toBe("queued");
  });

  it("offline, leaves everything queued and rejects, so the browser fires the sync again", async () => {
    const h = await harness({ online: false, start: false });
    await h.enqueue(["a"], { reason: "offline" });
    await expect(drainUserQueue(h.options)).rejects.toBeInstanceOf(WorkLeftForLater);
    expect(h.sent).toEqual([]);
    expect((await h.task("a"))?.status).toBe("queued");
  });
});
