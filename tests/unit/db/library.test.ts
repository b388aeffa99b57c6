import Dexie, { liveQuery } from "dexie";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { defineSchema } from "#src/db/schema.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import {
  answerSettled,
  applyServerPreferences,
  applyServerRows,
  awaitAnswer,
  cacheImage,
  deleteGeneration,
  reconcileGenerations,
  setPublished,
  setSaved,
  updatePreferences,
} from "#src/db/library.ts";
import { listConflicts, pendingOutboxCount, unsyncedWork } from "#src/db/queries.ts";
import { pendingEntries } from "#src/db/outbox.ts";
import { generationRow } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const row = (id: string, over: Partial<GenerationRow> = {}): GenerationRow =>
  generationRow(id, "alice", { prompt: "A red fox in the snow", seed: 7, ...over });

describe("library writes", () => {
  it("apply to Dexie and add their outbox entry together", async () => {
    db = openAppDb("lib-flags");
    await db.generations.put(toGenerationRecord(row("g1")));
    expect(await setSaved("alice", "g1", true, db)).toBe(true);
    expect(await setPublished("alice", "g1", true, db)).toBe(true);
    const record = await db.generations.get("g1");
    expect([record?.isSaved, record?.isPublic]).toEqual([1, 1]);
    const entries = await pendingEntries(db, "alice");
    expect(entries.map((e) => [e.kind, e.payload])).toEqual([
      ["generation.flags", { generationId: "g1", isSaved: true }],
      ["generation.flags", { generationId: "g1", isPublic: true }],
    ]);
    expect(entries.every((e) => e.status === "pending" && /^[0-9a-f-]{36}$/.test(e.id))).toBe(true);
  });

  it("refuse a record the device does not hold or that belongs to someone else", async () => {
    db = openAppDb("lib-refuse");
    await db.generations.put(toGenerationRecord(row("g1", { user_id: "bob", image_path: "bob/g1.png" })));
    expect(await setSaved("alice", "g1", true, db)).toBe(false);
    expect(await deleteGeneration("alice", "missing", db)).toBe(false);
    expect(await pendingOutboxCount("alice", db)).toBe(0);
    expect((await db.generations.get("g1"))?.isSaved).toBe(0);
  });

  it("delete removes the record at once, drops moot flag changes and carries the image path", async () => {
    db = openAppDb("lib-delete");
    await db.generations.bulkPut([toGenerationRecord(row("g1")), toGenerationRecord(row("g2"))]);
    await setSaved("alice", "g1", true, db);
    await setSaved("alice", "g2", true, db);
    expect(await deleteGeneration("alice", "g1", db)).toBe(true);
    expect(await db.generations.get("g1")).toBeUndefined();
    const entries = await pendingEntries(db, "alice");
    expect(entries.map((e) => [e.kind, e.payload])).toEqual([
      ["generation.flags", { generationId: "g2", isSaved: true }],
      ["generation.delete", { generationId: "g1", imagePath: "alice/g1.png" }],
    ]);
  });

  it("preferences apply at once and send only the changed fields", async () => {
    db = openAppDb("lib-prefs");
    await updatePreferences("alice", { defaultStyle: "anime", timezone: undefined }, db);
    expect((await db.preferences.get("alice"))?.defaultStyle).toBe("anime");
    expect((await db.preferences.get("alice"))?.defaultQuality).toBe("high");
    const [entry] = await pendingEntries(db, "alice");
    expect(entry.payload).toEqual({ patch: { defaultStyle: "anime" } });
    await updatePreferences("alice", {}, db);
    expect(await pendingOutboxCount("alice", db)).toBe(1);
    expect(await unsyncedWork("alice", db)).toEqual({ outbox: 1, tasks: 0 });
  });

  it("server data goes under pending changes and keeps cached bytes", async () => {
    db = openAppDb("lib-overlay");
    await db.generations.bulkPut([toGenerationRecord(row("g1")), toGenerationRecord(row("g2"))]);
    await cacheImage("g1", new Blob(["png"]), db);
    await setPublished("alice", "g1", true, db);
    await deleteGeneration("alice", "g2", db);
    await updatePreferences("alice", { publicGalleryOptIn: true }, db);
    // An older server copy arrives (pull or realtime) before the outbox reached the server.
    const stored = await applyServerRows(db, "alice", [row("g1"), row("g2"), row("g3", { user_id: "bob" })]);
    expect(stored).toBe(1);
    const g1 = await db.generations.get("g1");
    expect(g1?.isPublic).toBe(1);
    // The bytes live apart from the record, so the server's copy of the row leaves them be.
    // (fake-indexeddb clones a jsdom Blob to a plain object: what matters is that it was kept.)
    expect((await db.images.get("g1"))?.image).toBeDefined();
    expect(await db.images.get("g2")).toBeUndefined();
    expect(await db.generations.get("g2")).toBeUndefined();
    expect(await db.generations.get("g3")).toBeUndefined();
    await applyServerPreferences(db, {
      userId: "alice",
      defaultStyle: "photorealistic",
      defaultQuality: "ultra",
      defaultAspectRatio: "16:9",
      notificationsEnabled: true,
      publicGalleryOptIn: false,
      timezone: "Europe/Paris",
      updatedAt: "2026-11-22T10:00:00.000Z",
    });
    const prefs = await db.preferences.get("alice");
    expect([prefs?.publicGalleryOptIn, prefs?.defaultQuality]).toEqual([true, "ultra"]);
  });

  it("reconciliation removes records whose row is gone and takes flags changed elsewhere", async () => {
    db = openAppDb("lib-reconcile");
    await db.generations.bulkPut([
      toGenerationRecord(row("g1", { created_at: "2026-11-22T10:00:01.000Z" })),
      toGenerationRecord(row("g2", { created_at: "2026-11-22T10:00:02.000Z" })),
      toGenerationRecord(row("g3", { created_at: "2026-11-22T10:00:03.000Z" })),
      // Newer than the cursor: the reconciliation does not judge it.
      toGenerationRecord(row("g4", { created_at: "2026-11-22T10:00:09.000Z" })),
    ]);
    await setSaved("alice", "g3", true, db);
    const server = new Map([
      ["g1", { isSaved: true, isPublic: true }],
      ["g3", { isSaved: false, isPublic: false }],
    ]);
    expect(await reconcileGenerations(db, "alice", server, "2026-11-22T10:00:05.000Z")).toEqual({
      removed: 1,
      updated: 1,
    });
    expect((await db.generations.toArray()).map((r) => [r.id, r.isSaved, r.isPublic])).toEqual([
      ["g1", 1, 1],
      ["g3", 1, 0],
      ["g4", 0, 0],
    ]);
    expect(await listConflicts("alice", db)).toEqual([]);
  });

  it("reconciliation reads without a write lock, and writes only when something changes", async () => {
    db = openAppDb("lib-reconcile-read");
    await db.generations.bulkPut([
      toGenerationRecord(row("g1", { created_at: "2026-11-22T10:00:01.000Z" })),
      toGenerationRecord(row("g2", { created_at: "2026-11-22T10:00:02.000Z", is_saved: true })),
    ]);
    const modes: string[] = [];
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => unknown;
    vi.spyOn(db, "transaction").mockImplementation(((...args: unknown[]) => {
      modes.push(String(args[0]));
      return transaction(...args);
    }) as typeof db.transaction);
    const upTo = "2026-11-22T10:00:05.000Z";
    type Flags = { isSaved: boolean; isPublic: boolean; removed: { at: string; reason: string } | null };
    const same = new Map<string, Flags>([
      ["g1", { isSaved: false, isPublic: false, removed: null }],
      ["g2", { isSaved: true, isPublic: false, removed: null }],
    ]);
    expect(await reconcileGenerations(db, "alice", same, upTo)).toEqual({ removed: 0, updated: 0 });
    expect(modes).toEqual(["r"]);
    // The gallery's moderators removed g2 meanwhile: one short write follows the read.
    const removed = new Map<string, Flags>([
      ...same,
      ["g2", { isSaved: true, isPublic: false, removed: { at: upTo, reason: "spam" } }],
    ]);
    expect(await reconcileGenerations(db, "alice", removed, upTo)).toEqual({ removed: 0, updated: 1 });
    expect(modes).toEqual(["r", "r", "rw"]);
    expect((await db.generations.get("g2"))?.removedReason).toBe("spam");
    expect(await reconcileGenerations(db, "alice", removed, upTo)).toEqual({ removed: 0, updated: 0 });
    expect(modes.at(-1)).toBe("r");
  });
});

describe("schema version 3", () => {
  it("does not rewrite a row that comes again unchanged, so live lists are not re-read", async () => {
    db = openAppDb("lib-unchanged");
    await applyServerRows(db, "alice", [row("g1"), row("g2")]);
    let runs = 0;
    const subscription = liveQuery(() => db.generations.toArray()).subscribe(() => runs++);
    // A re-run that should come is waited for; one that should not is given a moment to show up.
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await vi.waitFor(() => expect(runs).toBe(1));
    // The pull's cursor row and a realtime echo arrive again as they are.
    expect(await applyServerRows(db, "alice", [row("g1"), row("g2")])).toBe(2);
    await settle();
    expect(runs).toBe(1);
    // A changed row is written (the control for the line above).
    await applyServerRows(db, "alice", [row("g2", { is_saved: true })]);
    await vi.waitFor(() => expect(runs).toBe(2));
    await settle();
    expect(runs).toBe(2);
    expect((await db.generations.get("g2"))?.isSaved).toBe(1);
    subscription.unsubscribe();
  });

  it("gives existing generations their search words and existing outbox entries a status", async () => {
    const name = "lib-upgrade";
    const old = new Dexie(name);
    defineSchema(old, 2);
    const legacy = { ...toGenerationRecord(row("g1", { prompt: "Café at Dusk" })) } as Record<string, unknown>;
    delete legacy.words;
    await old.table("generations").put(legacy);
    await old
      .table("outbox")
      .add({ id: "o1", userId: "alice", kind: "generation.flags", payload: {}, attempts: 0, createdAt: "x" });
    old.close();

    db = openAppDb(name);
    expect((await db.generations.get("g1"))?.words).toEqual(["cafe", "at", "dusk"]);
    expect(await db.generations.where("words").startsWith("caf").primaryKeys()).toEqual(["g1"]);
    expect((await db.outbox.toArray())[0].status).toBe("pending");
    expect(await pendingOutboxCount("alice", db)).toBe(1);
  });
});

describe("a row heard while its send is under way", () => {
  it("waits for the answer: dropped when the answer stored the same, written when it did not", async () => {
    db = openAppDb("lib-awaited");
    let runs = 0;
    const subscription = liveQuery(() => db.generations.toArray()).subscribe(() => runs++);
    await vi.waitFor(() => expect(runs).toBe(1));
    const settle = () => new Promise((r) => setTimeout(r, 50));
    // Realtime's echo of the server's insert comes before the answer: held, nothing written yet.
    awaitAnswer(db, "g1");
    expect(await applyServerRows(db, "alice", [row("g1")])).toBe(1);
    await settle();
    expect(await db.generations.get("g1")).toBeUndefined();
    expect(runs).toBe(1);
    // The answer stores the row (as the queue's transaction does) and says so: the echo is not written again.
    const stored = toGenerationRecord(row("g1"));
    await db.generations.put(stored);
    await answerSettled(db, "g1", stored);
    await vi.waitFor(() => expect(runs).toBe(2));
    await settle();
    expect(runs).toBe(2);
    // A send that stored nothing (its answer was lost) leaves the row heard meanwhile to be written.
    awaitAnswer(db, "g2");
    await applyServerRows(db, "alice", [row("g2", { is_saved: true })]);
    expect(await db.generations.get("g2")).toBeUndefined();
    await answerSettled(db, "g2");
    expect((await db.generations.get("g2"))?.isSaved).toBe(1);
    // Once settled, a row for it is news again and is written at once.
    await applyServerRows(db, "alice", [row("g1", { is_public: true })]);
    expect((await db.generations.get("g1"))?.isPublic).toBe(1);
    subscription.unsubscribe();
  });
});
