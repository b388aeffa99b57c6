import { describe, expect, it, vi } from "vitest";
import { afterFreshShown, freshShown, showingFresh, withJustMade } from "#src/sync/fresh-images.ts";

const NOW = Date.parse("2026-11-25T10:00:00.000Z");
const rec = (id: string, createdAt: string) => ({ id, createdAt });
const older = rec("g1", "2026-11-25T09:59:00.000Z");
const made = (id = "g2", userId = "alice", until = NOW + 5_000) => ({
  userId,
  record: rec(id, "2026-11-25T10:00:00.000Z"),
  until,
});

describe("withJustMade", () => {
  it("puts the just-made generation in front of a list that has not read it back yet", () => {
    expect(withJustMade([older], made(), "alice", new Set(), NOW).map((g) => g.id)).toEqual(["g2", "g1"]);
    expect(withJustMade([], made(), "alice", new Set(), NOW).map((g) => g.id)).toEqual(["g2"]);
  });

  it("leaves the list alone once it has the generation, or when the list is newer", () => {
    const list = [rec("g2", "2026-11-25T10:00:00.000Z"), older];
    expect(withJustMade(list, made(), "alice", new Set(), NOW)).toBe(list);
    const newer = [rec("g3", "2026-11-25T10:00:05.000Z")];
    expect(withJustMade(newer, made(), "alice", new Set(), NOW)).toBe(newer);
  });

  it("shows nothing of another account's, a stale announcement, or one the list already had (deleted since)", () => {
    const list = [older];
    expect(withJustMade(list, made("g2", "bob"), "alice", new Set(), NOW)).toBe(list);
    expect(withJustMade(list, made("g2", "alice", NOW), "alice", new Set(), NOW)).toBe(list);
    expect(withJustMade(list, made(), undefined, new Set(), NOW)).toBe(list);
    expect(withJustMade(list, made(), "alice", new Set(["g2"]), NOW)).toBe(list);
    expect(withJustMade(list, null, "alice", new Set(), NOW)).toBe(list);
  });
});

describe("afterFreshShown", () => {
  const settled = async (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    return done;
  };

  it("resolves at once when no view is putting the image on screen", async () => {
    expect(await settled(afterFreshShown("none", 1_000))).toBe(true);
  });

  it("waits for the view that shows the image to draw it, or to show something else", async () => {
    showingFresh("g1");
    const waiting = afterFreshShown("g1", 1_000);
    expect(await settled(waiting)).toBe(false);
    freshShown("g1");
    expect(await settled(waiting)).toBe(true);
    // Drawn: the next keeping of it waits for nothing.
    expect(await settled(afterFreshShown("g1", 1_000))).toBe(true);
  });

  it("waits no longer than it is given", async () => {
    vi.useFakeTimers();
    try {
      showingFresh("g2");
      const waiting = afterFreshShown("g2", 1_000);
      await vi.advanceTimersByTimeAsync(999);
      expect(await settled(waiting)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await settled(waiting)).toBe(true);
    } finally {
      freshShown("g2");
      vi.useRealTimers();
    }
  });
});
