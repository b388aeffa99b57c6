// An image an operator took out of the gallery (issue 42): the device keeps when and why with the owner's
// record, whichever way the row arrives (the pull and realtime build records from rows; the catch-up after
// a reconnect reconciles flags and removals), and drops them when an operator restores it. Records of rows
// that were never removed keep their shape, so they are not rewritten.
import { afterEach, describe, expect, it } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { applyServerRows, reconcileGenerations } from "#src/db/library.ts";
import { generationRow } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const row = (id: string, over: Partial<GenerationRow> = {}): GenerationRow =>
  generationRow(id, "alice", { created_at: "2026-11-22T10:00:01.000Z", ...over });
const removed = { removed_at: "2026-11-26T12:00:00.000Z", removed_reason: "Graphic violence" };

describe("a removal in the owner's library", () => {
  it("comes with the row, and a row never removed has no removal keys", () => {
    const record = toGenerationRecord({ ...row("g1"), ...removed, is_public: false });
    expect([record.removedAt, record.removedReason, record.isPublic]).toEqual([
      removed.removed_at,
      "Graphic violence",
      0,
    ]);
    const plain = toGenerationRecord({ ...row("g2"), removed_at: null, removed_reason: null });
    expect("removedAt" in plain || "removedReason" in plain).toBe(false);
  });

  it("is written by the pull or realtime, and cleared when the row comes back restored", async () => {
    db = openAppDb("removed-apply");
    await applyServerRows(db, "alice", [{ ...row("g1"), ...removed, is_public: false }]);
    expect((await db.generations.get("g1"))?.removedReason).toBe("Graphic violence");
    await applyServerRows(db, "alice", [{ ...row("g1"), removed_at: null, removed_reason: null, is_public: true }]);
    const restored = await db.generations.get("g1");
    expect(restored && "removedAt" in restored).toBe(false);
    expect(restored?.isPublic).toBe(1);
  });

  it("reaches a device that was away, through the reconnect's reconciliation, and leaves with a restore", async () => {
    db = openAppDb("removed-reconcile");
    await db.generations.bulkPut([toGenerationRecord(row("g1", { is_public: true })), toGenerationRecord(row("g2"))]);
    const upTo = "2026-11-22T10:00:05.000Z";
    const away = new Map([
      ["g1", { isSaved: false, isPublic: false, removed: { at: removed.removed_at, reason: "Graphic violence" } }],
      ["g2", { isSaved: false, isPublic: false, removed: null }],
    ]);
    expect(await reconcileGenerations(db, "alice", away, upTo)).toEqual({ removed: 0, updated: 1 });
    const g1 = await db.generations.get("g1");
    expect([g1?.isPublic, g1?.removedAt, g1?.removedReason]).toEqual([0, removed.removed_at, "Graphic violence"]);
    // Nothing changed since: nothing is written.
    expect(await reconcileGenerations(db, "alice", away, upTo)).toEqual({ removed: 0, updated: 0 });
    const back = new Map([
      ["g1", { isSaved: false, isPublic: true, removed: null }],
      ["g2", { isSaved: false, isPublic: false }],
    ]);
    expect(await reconcileGenerations(db, "alice", back, upTo)).toEqual({ removed: 0, updated: 1 });
    const restored = await db.generations.get("g1");
    expect(restored && "removedAt" in restored).toBe(false);
    expect(restored?.isPublic).toBe(1);
  });
});
