import { describe, expect, it } from "vitest";
import { createActor, fromPromise, SimulatedClock } from "xstate";
import { limitsMachine } from "#src/features/quota/limits-machine.ts";

const flush = () => new Promise((r) => setTimeout(r, 0));

function start(visible = true) {
  const clock = new SimulatedClock();
  const reads: number[] = [];
  const machine = limitsMachine.provide({
    actors: {
      readLimits: fromPromise<void, void>(async () => {
        reads.push(clock.now());
      }),
    },
  });
  const actor = createActor(machine, { input: { visible }, clock }).start();
  /** Moves the clock on by `ms` and lets the reads it starts settle. */
  const advance = async (ms: number) => {
    clock.increment(ms);
    await flush();
  };
  return { actor, clock, reads, advance };
}

describe("limitsMachine", () => {
  it("reads at once, then every 30 s while visible", async () => {
    const { reads, advance } = start();
    await flush();
    expect(reads).toEqual([0]);
    await advance(29_999);
    expect(reads).toHaveLength(1);
    await advance(1);
    expect(reads).toEqual([0, 30_000]);
  });

  it("re-reads 500 ms after a generation", async () => {
    const { actor, clock, reads, advance } = start();
    await flush();
    clock.increment(1_000);
    actor.send({ type: "generation.finished" });
    await advance(499);
    expect(reads).toHaveLength(1);
    await advance(1);
    expect(reads).toEqual([0, 1_500]);
  });

  it("stops polling while hidden and reads again on return", async () => {
    const { actor, reads, advance } = start();
    await flush();
    actor.send({ type: "visibility.hidden" });
    await advance(120_000);
    expect(reads).toHaveLength(1);
    actor.send({ type: "visibility.visible" });
    await flush();
    expect(reads).toEqual([0, 120_000]);
  });
});
