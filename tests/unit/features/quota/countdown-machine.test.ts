import { describe, expect, it } from "vitest";
import { createActor, SimulatedClock } from "xstate";
import { countdownLabel, countdownMachine } from "#src/features/quota/countdown-machine.ts";

describe("countdownLabel", () => {
  const now = Date.parse("2026-11-22T21:00:00Z");
  it("shows hours, minutes and seconds to the reset, rounded up", () => {
    expect(countdownLabel("2026-11-23T00:00:00Z", now)).toEqual({ label: "03:00:00", past: false });
    expect(countdownLabel("2026-11-22T21:01:05.200Z", now).label).toBe("00:01:06");
  });
  it("says Resetting... at and after the reset", () => {
    expect(countdownLabel("2026-11-22T21:00:00Z", now)).toEqual({ label: "Resetting...", past: true });
    expect(countdownLabel("not a date", now).label).toBe("Resetting...");
  });
});

describe("countdownMachine", () => {
  it("counts down each second and reaches Resetting...", () => {
    const clock = new SimulatedClock();
    clock.set(Date.parse("2026-11-22T23:59:57Z"));
    const actor = createActor(countdownMachine, {
      input: { resetAt: "2026-11-23T00:00:00Z", now: () => clock.now() },
      clock,
    }).start();
    expect(actor.getSnapshot().context.label).toBe("00:00:03");
    clock.increment(1_000);
    expect(actor.getSnapshot().context.label).toBe("00:00:02");
    clock.increment(1_000);
    clock.increment(1_000);
    expect(actor.getSnapshot().context.label).toBe("Resetting...");
    expect(actor.getSnapshot().value).toBe("resetting");
    actor.send({ type: "countdown.set", resetAt: "2026-11-24T00:00:00Z" });
    expect(actor.getSnapshot().context.label).toBe("24:00:00");
  });
});
