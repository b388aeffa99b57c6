// The page runtimes start their pipelines through the runner (src/sync/runner.ts) as the lanes declared in
// src/sync/lanes.ts, with a page start each, once per signed-in person, and stop them on sign-out or a
// switch of person. The runner itself is tested in tests/unit/sync/runner.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Lane } from "#src/sync/runner.ts";

type Started = { userId: string; lanes: readonly Lane[]; stopped: boolean };
const started: Started[] = [];

vi.mock("#src/sync/runner.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("#src/sync/runner.ts")>()),
  startLanes: (userId: string, lanes: readonly Lane[]) => {
    const entry: Started = { userId, lanes, stopped: false };
    started.push(entry);
    return () => void (entry.stopped = true);
  },
}));
vi.mock("#src/api/user-rows.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("#src/api/user-rows.ts")>()),
  fetchMyLimits: async () => ({ ok: false, error: { code: "network_error", message: "offline" } }),
}));

const { LANES } = await import("#src/sync/lanes.ts");
const { followLibraryUser } = await import("#src/app/library-runtime.ts");
const { followSignedInUser } = await import("#src/app/queue-runtime.ts");

/** A started lane is its declaration (lock, sync tag, triggers, drain) with the page's start added. */
function expectDeclared(lanes: readonly Lane[], names: Lane["name"][]): void {
  expect(lanes.map((l) => l.name)).toEqual(names);
  for (const lane of lanes) {
    const { start, ...declared } = lane;
    const { start: _declaredStart, ...declaration } = LANES.find((l) => l.name === lane.name)!;
    expect(declared).toEqual(declaration);
    expect(start).toBeTypeOf("function");
  }
}

afterEach(() => {
  followLibraryUser(null);
  followSignedInUser(null);
  started.length = 0;
});

describe("the page runtimes", () => {
  it("start the library's lanes once per person through the runner, and stop them on a switch or sign-out", () => {
    followLibraryUser("alice");
    followLibraryUser("alice");
    expect(started).toHaveLength(1);
    expectDeclared(started[0].lanes, ["outbox", "catch-up", "images", "telemetry", "plan"]);
    followLibraryUser("bob");
    expect(started.map((s) => [s.userId, s.stopped])).toEqual([
      ["alice", true],
      ["bob", false],
    ]);
    followLibraryUser(null);
    expect(started[1].stopped).toBe(true);
  });

  it("start the queue as the runner's queue lane", () => {
    followSignedInUser("alice");
    expect(started.map((s) => s.userId)).toEqual(["alice"]);
    expectDeclared(started[0].lanes, ["queue"]);
    followSignedInUser(null);
    expect(started[0].stopped).toBe(true);
  });
});
