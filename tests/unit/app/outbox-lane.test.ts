// The page's outbox lane (src/app/library-runtime.ts) and the entries parked for a session: it tries them
// again when it starts, and after a drain that parked one while a renewal was heard. The drain itself is
// tested in tests/unit/sync/push.test.ts; here it is a stand-in that says what it saw.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Lane } from "#src/sync/runner.ts";
import type { DrainReport } from "#src/sync/push.ts";

const started: { lanes: readonly Lane[] }[] = [];
vi.mock("#src/sync/runner.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("#src/sync/runner.ts")>()),
  startLanes: (_userId: string, lanes: readonly Lane[]) => {
    started.push({ lanes });
    return () => undefined;
  },
}));

/** Each drain: the parked reason of the outbox's first entry as it began, then what the test's step does. */
const drains: (string | undefined)[] = [];
let duringDrain: (() => Promise<DrainReport>) | null = null;
const EMPTY: DrainReport = { sent: 0, conflicts: 0, stopped: { reason: "empty" } };
vi.mock("#src/sync/push.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("#src/sync/push.ts")>()),
  drainOutbox: async () => {
    const { db } = await import("#src/db/db.ts");
    drains.push((await db.outbox.toArray())[0]?.parkedReason);
    const step = duringDrain;
    duringDrain = null;
    return step ? step() : EMPTY;
  },
}));

const { db } = await import("#src/db/db.ts");
const { addOutboxEntry, parkEntry } = await import("#src/db/outbox.ts");
const { followLibraryUser } = await import("#src/app/library-runtime.ts");

const settle = () => new Promise((r) => setTimeout(r, 100));

/** The page's outbox lane for alice, started with no lock. */
async function startOutbox() {
  followLibraryUser("alice");
  const lane = started.at(-1)!.lanes.find((l) => l.name === "outbox")!;
  return await lane.start!({ userId: "alice", locked: (job) => job(), kept: () => undefined });
}

async function parkedEntry(): Promise<number> {
  const entry = await addOutboxEntry(db, "alice", {
    kind: "generation.flags",
    payload: { generationId: "g1", isSaved: true },
  });
  const seq = (await db.outbox.where("id").equals(entry.id).first())!.seq!;
  await parkEntry(db, seq, "auth");
  return seq;
}

afterEach(async () => {
  followLibraryUser(null);
  started.length = 0;
  drains.length = 0;
  duringDrain = null;
  await db.outbox.clear();
});

describe("the page's outbox lane and entries parked for a session", () => {
  it("tries them again when it starts: a renewal heard before the page listened is not heard again", async () => {
    const seq = await parkedEntry();
    const handle = await startOutbox();
    await settle();
    expect(drains[0]).toBeUndefined();
    expect((await db.outbox.get(seq))?.parkedReason).toBeUndefined();
    handle.stop();
  });

  it("lifts one parked by a drain while a renewal was heard, whose release came before the park", async () => {
    const handle = await startOutbox();
    await settle();
    const entry = await addOutboxEntry(db, "alice", {
      kind: "generation.flags",
      payload: { generationId: "g2", isSaved: true },
    });
    const seq = (await db.outbox.where("id").equals(entry.id).first())!.seq!;
    // The drain sends with an expired session; the page renews it meanwhile, and the renewal's release finds
    // nothing parked. The drain then parks the entry for a session and stops.
    duringDrain = async () => {
      handle.wake!({ on: "session" });
      await settle();
      await parkEntry(db, seq, "auth");
      return { sent: 0, conflicts: 0, stopped: { reason: "auth" } };
    };
    handle.wake!({ on: "visible", hiddenForMs: 0 });
    await settle();
    await settle();
    expect((await db.outbox.get(seq))?.parkedReason).toBeUndefined();
    // A drain ran after the lift, with the entry no longer parked.
    expect(drains.at(-1)).toBeUndefined();
    expect(drains.length).toBeGreaterThanOrEqual(3);
    handle.stop();
  });
});
