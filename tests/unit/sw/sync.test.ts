// The service worker's Background Sync (sw/sync.ts): whichever lane's tag fires, the worker drains every
// declared lane once, through the runner, for the user whose session the page left, and the sync event
// lasts until that one drain ends. The lanes are stand-ins here (their drains have tests of their own).
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Lane, WorkerDrain } from "#src/sync/runner.ts";

const drained: Array<{ lane: string; userId: string; deadline: number }> = [];
let user: { id: string } | null = { id: "alice" };
let finish: () => void = () => undefined;

vi.mock("#src/api/client.ts", () => ({
  storedBackendConfig: async () => ({ supabaseUrl: "https://backend.test", supabaseAnonKey: "anon" }),
  createBackendClient: () => ({}),
  setBackendClient: () => undefined,
}));
vi.mock("#src/api/auth.ts", () => ({ storedUser: async () => user, sessionRenewals: () => () => () => undefined }));
vi.mock("#src/sync/lanes.ts", () => {
  const lane = (name: Lane["name"], syncTag?: string): Lane => ({
    name,
    syncTag,
    wakeOn: [],
    drain: (ctx: WorkerDrain) => {
      drained.push({ lane: name, userId: ctx.userId, deadline: ctx.deadline });
      return name === "queue" ? new Promise<void>((resolve) => (finish = resolve)) : Promise.resolve();
    },
  });
  return { LANES: [lane("queue", "promptcanvas-queue"), lane("outbox", "promptcanvas-outbox"), lane("telemetry")] };
});

const { listenForBackgroundWork } = await import("../../../sw/sync.ts");
listenForBackgroundWork();

/** Fires a sync event of `tag` at the worker's global; answers the promises handed to waitUntil. */
function sync(tag: string): Promise<unknown>[] {
  const kept: Promise<unknown>[] = [];
  self.dispatchEvent(Object.assign(new Event("sync"), { tag, waitUntil: (p: Promise<unknown>) => kept.push(p) }));
  return kept;
}

afterEach(() => {
  drained.length = 0;
  user = { id: "alice" };
});

describe("the worker's Background Sync", () => {
  it("drains every lane once on either lane's tag, keeping the event until the last drain ends", async () => {
    for (const tag of ["promptcanvas-outbox", "promptcanvas-queue"]) {
      const kept = sync(tag);
      expect(kept).toHaveLength(1);
      let ended = false;
      void kept[0].then(() => (ended = true));
      await vi.waitFor(() => expect(drained.map((d) => d.lane)).toEqual(["queue", "outbox", "telemetry"]));
      expect(new Set(drained.map((d) => d.userId))).toEqual(new Set(["alice"]));
      expect(new Set(drained.map((d) => d.deadline)).size).toBe(1); // one loop, one bound
      await Promise.resolve();
      expect(ended).toBe(false); // the queue is still draining
      finish();
      await kept[0];
      drained.length = 0;
    }
  });

  it("ignores a tag no lane registers, and drains nothing with no stored user", async () => {
    expect(sync("someone-else")).toHaveLength(0);
    user = null;
    await Promise.all(sync("promptcanvas-outbox"));
    expect(drained).toEqual([]);
  });
});
