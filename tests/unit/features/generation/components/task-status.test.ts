import { describe, expect, it } from "vitest";
import { clockTime, countTasks, waitText } from "#src/features/generation/components/task-status.ts";

describe("task status", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");

  it("says why a queued task waits", () => {
    expect(waitText({ status: "queued", wait: { reason: "offline" } }, now)).toBe("Waiting for connection");
    expect(waitText({ status: "queued", wait: { reason: "auth" } }, now)).toBe("Waiting for sign-in");
    const until = "2026-11-22T23:00:00Z";
    expect(waitText({ status: "queued", wait: { reason: "quota", until } }, now)).toBe(
      `Held until ${clockTime(until)} — daily limit`,
    );
    expect(waitText({ status: "queued", wait: { reason: "backoff", until: "2026-11-22T10:00:07.200Z" } }, now)).toBe(
      "Retrying in 8s",
    );
    expect(waitText({ status: "queued" }, now)).toBeNull();
    expect(waitText({ status: "running", wait: { reason: "offline" } }, now)).toBeNull();
  });

  it("counts tasks by status", () => {
    expect(
      countTasks([{ status: "queued" }, { status: "queued" }, { status: "running" }, { status: "error" }]),
    ).toEqual({
      queued: 2,
      running: 1,
      done: 0,
      error: 1,
    });
  });

  it("does not count as running a task whose image is drawn while the next one is sent in its slot", () => {
    expect(
      countTasks([
        { status: "running", drawnAt: "2026-11-26T00:00:00.000Z" },
        { status: "running" },
        { status: "done" },
      ]),
    ).toEqual({ queued: 0, running: 1, done: 1, error: 0 });
  });
});
