import { describe, expect, it } from "vitest";
import { createActor, fromPromise, SimulatedClock } from "xstate";
import { queueMachine, type QueueEntry, type QueueInput } from "#src/sync/queue/queue-machine.ts";
import { reportingRunMachine, type GenerateTaskOutput } from "#src/sync/queue/run-machine.ts";

const flush = () => new Promise((r) => setTimeout(r, 0));

/** A queue whose sends wait until the test settles them; records what started, in order. */
function harness(input: QueueInput = {}) {
  const clock = new SimulatedClock();
  clock.set(Date.parse("2026-11-22T10:00:00Z"));
  const started: string[] = [];
  const pending = new Map<string, (output: GenerateTaskOutput) => void>();
  let running = 0;
  let maxRunning = 0;
  const released: number[] = [];
  const machine = queueMachine.provide({
    actors: {
      run: reportingRunMachine.provide({
        actors: {
          generateTask: fromPromise<GenerateTaskOutput, { taskId: string }>(({ input: { taskId } }) => {
            started.push(taskId);
            maxRunning = Math.max(maxRunning, ++running);
            return new Promise((resolve) =>
              pending.set(taskId, (output) => {
                running--;
                pending.delete(taskId);
                resolve(output);
              }),
            );
          }),
        },
      }),
      releaseAuthWaits: fromPromise<void, void>(async () => {
        released.push(clock.now());
      }),
    },
  });
  const actor = createActor(machine, { input: { now: () => clock.now(), ...input }, clock });
  actor.start();
  const finish = async (taskId: string, output: GenerateTaskOutput = { status: "done" }) => {
    pending.get(taskId)!(output);
    await flush();
  };
  return { actor, clock, started, pending, finish, released, maxRunning: () => maxRunning };
}

const entry = (id: string, second: number, wait?: QueueEntry["wait"]): QueueEntry => ({
  id,
  createdAt: `2026-11-22T09:00:${String(second).padStart(2, "0")}.000Z`,
  wait,
});

describe("queueMachine", () => {
  it("starts queued tasks oldest first, never more than the concurrency at once", async () => {
    const q = harness({ concurrency: 2 });
    q.actor.send({ type: "tasks.changed", tasks: [entry("c", 3), entry("a", 1), entry("d", 4), entry("b", 2)] });
    await flush();
    expect(q.started).toEqual(["a", "b"]);
    await q.finish("b");
    expect(q.started).toEqual(["a", "b", "c"]);
    await q.finish("a");
    await q.finish("c");
    await q.finish("d");
    expect(q.started).toEqual(["a", "b", "c", "d"]);
    expect(q.maxRunning()).toBe(2);
  });

  it("never starts a task already in flight when the queue is reported again", async () => {
    const q = harness({ concurrency: 4 });
    const tasks = [entry("a", 1), entry("b", 2)];
    q.actor.send({ type: "tasks.changed", tasks });
    q.actor.send({ type: "tasks.changed", tasks });
    q.actor.send({ type: "task.added", task: entry("a", 1) });
    await flush();
    expect(q.started).toEqual(["a", "b"]);
  });

  it("clamps the concurrency to 1–4 and uses a raised one at once", async () => {
    const q = harness({ concurrency: 9 });
    expect(q.actor.getSnapshot().context.concurrency).toBe(4);
    q.actor.send({ type: "concurrency.set", value: 0 });
    expect(q.actor.getSnapshot().context.concurrency).toBe(1);
    q.actor.send({ type: "tasks.changed", tasks: [entry("a", 1), entry("b", 2), entry("c", 3)] });
    await flush();
    expect(q.started).toEqual(["a"]);
    q.actor.send({ type: "concurrency.set", value: 3 });
    await flush();
    expect(q.started).toEqual(["a", "b", "c"]);
  });

  it("holds everything offline and starts on reconnect", async () => {
    const q = harness({ online: false });
    q.actor.send({ type: "tasks.changed", tasks: [entry("a", 1, { reason: "offline" })] });
    await flush();
    expect(q.started).toEqual([]);
    q.actor.send({ type: "connectivity.online" });
    await flush();
    expect(q.started).toEqual(["a"]);
  });

  it("wakes a backed-off task when its wait ends, not before", async () => {
    const q = harness();
    const until = new Date(q.clock.now() + 5_000).toISOString();
    q.actor.send({ type: "tasks.changed", tasks: [entry("a", 1, { reason: "backoff", until })] });
    await flush();
    q.clock.increment(4_999);
    await flush();
    expect(q.started).toEqual([]);
    q.clock.increment(1);
    await flush();
    expect(q.started).toEqual(["a"]);
  });

  it("re-queues a run that ends waiting and starts it again after its backoff", async () => {
    const q = harness();
    q.actor.send({ type: "tasks.changed", tasks: [entry("a", 1)] });
    await flush();
    const until = new Date(q.clock.now() + 2_000).toISOString();
    await q.finish("a", { status: "waiting", wait: { reason: "backoff", until } });
    expect(q.started).toEqual(["a"]);
    q.clock.increment(2_000);
    await flush();
    expect(q.started).toEqual(["a", "a"]);
  });

  it("waits for a session: nothing starts signed out, and a sign-in lifts the auth waits", async () => {
    const q = harness({ signedIn: false });
    q.actor.send({ type: "tasks.changed", tasks: [entry("a", 1)] });
    await flush();
    expect(q.started).toEqual([]);
    q.actor.send({ type: "auth.changed", signedIn: true });
    await flush();
    expect(q.started).toEqual(["a"]);
    expect(q.released).toHaveLength(1);
  });

  it("in drain mode finishes once nothing is due and nothing runs", async () => {
    const q = harness({ drain: true });
    expect(q.actor.getSnapshot().status).toBe("active");
    const later = new Date(q.clock.now() + 60_000).toISOString();
    q.actor.send({ type: "tasks.changed", tasks: [entry("a", 1), entry("b", 2, { reason: "quota", until: later })] });
    await flush();
    expect(q.started).toEqual(["a"]);
    expect(q.actor.getSnapshot().status).toBe("active");
    await q.finish("a");
    expect(q.actor.getSnapshot().status).toBe("done");
    expect(q.started).toEqual(["a"]);
  });
});
