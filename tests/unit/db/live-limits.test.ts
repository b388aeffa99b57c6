// One live read of a person's limits for the whole page (src/db/live-limits.ts): its readers share it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { watchLimits, watchedLimits } from "#src/db/live-limits.ts";
import type { LimitsRecord } from "#src/db/schema.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const limits = (remaining: number): LimitsRecord => ({
  userId: "alice",
  tier: "free",
  dailyLimit: 5,
  remaining,
  generationsToday: 5 - remaining,
  resetAt: "2026-11-29T00:00:00.000Z",
  checkedAt: "2026-11-28T10:00:00.000Z",
});

describe("watchLimits", () => {
  it("reads once a change for all its readers, tells a late reader at once, and stops with the last", async () => {
    db = openAppDb("live-limits");
    await db.limits.put(limits(5));
    const reads = vi.spyOn(db.limits, "get");
    const heard: number[][] = [[], [], []];
    const stops = [0, 1].map((i) => watchLimits("alice", (l) => heard[i].push(l?.remaining ?? -1), db));
    await vi.waitFor(() => expect(heard[0]).toEqual([5]));
    expect(heard[1]).toEqual([5]);
    expect(reads).toHaveBeenCalledTimes(1);
    // A reader that comes later hears what was read, without a read of its own.
    stops.push(watchLimits("alice", (l) => heard[2].push(l?.remaining ?? -1), db));
    expect(heard[2]).toEqual([5]);
    expect(watchedLimits("alice", db)?.remaining).toBe(5);
    await db.limits.put(limits(4));
    await vi.waitFor(() =>
      expect(heard).toEqual([
        [5, 4],
        [5, 4],
        [5, 4],
      ]),
    );
    expect(reads).toHaveBeenCalledTimes(2);
    stops.forEach((stop) => stop());
    expect(watchedLimits("alice", db)).toBeUndefined();
    await db.limits.put(limits(3));
    await new Promise((r) => setTimeout(r, 50));
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
