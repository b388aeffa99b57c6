import { describe, expect, it } from "vitest";
import { createActor, fromPromise, SimulatedClock } from "xstate";
import { runMachine, type GenerateTaskOutput } from "#src/sync/queue/run-machine.ts";

function deferred() {
  let resolve!: (value: GenerateTaskOutput) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<GenerateTaskOutput>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** SimulatedClock fires each timer once per increment; step so timers set on the way fire too. */
function advance(clock: SimulatedClock, ms: number) {
  for (let t = 0; t < ms; t += 50) clock.increment(Math.min(50, ms - t));
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function start(pending: Promise<GenerateTaskOutput>) {
  const clock = new SimulatedClock();
  const machine = runMachine.provide({ actors: { generateTask: fromPromise(() => pending) } });
  const actor = createActor(machine, { input: { taskId: "t1" }, clock });
  actor.start();
  return { actor, clock };
}

describe("runMachine", () => {
  it("raises progress by 10 every 200 ms while generating and stops at 90", () => {
    const { actor, clock } = start(deferred().promise);
    expect(actor.getSnapshot().value).toBe("idle");
    actor.send({ type: "run.start" });
    expect(actor.getSnapshot().context.progress).toBe(0);
    clock.increment(199);
    expect(actor.getSnapshot().context.progress).toBe(0);
    clock.increment(1);
    expect(actor.getSnapshot().context.progress).toBe(10);
    advance(clock, 4000);
    expect(actor.getSnapshot().context.progress).toBe(90);
    expect(actor.getSnapshot().matches("generating")).toBe(true);
  });

  it("jumps to 100 when the task is done", async () => {
    const send = deferred();
    const { actor, clock } = start(send.promise);
    actor.send({ type: "run.start" });
    advance(clock, 600);
    expect(actor.getSnapshot().context.progress).toBe(30);
    send.resolve({ status: "done" });
    await flush();
    expect(actor.getSnapshot().value).toBe("success");
    expect(actor.getSnapshot().context.progress).toBe(100);
  });

  it("returns to idle at 0 when the send fails or the task goes back to wait", async () => {
    for (const settle of [
      (d: ReturnType<typeof deferred>) => d.resolve({ status: "waiting", wait: { reason: "offline" } }),
      (d: ReturnType<typeof deferred>) => d.reject(new Error("IndexedDB unavailable")),
    ]) {
      const send = deferred();
      const { actor, clock } = start(send.promise);
      actor.send({ type: "run.start" });
      advance(clock, 1000);
      settle(send);
      await flush();
      expect(actor.getSnapshot().value).toBe("idle");
      expect(actor.getSnapshot().context.progress).toBe(0);
    }
  });
});
