// The offline library by budget: what is kept (every thumbnail; full images of saved items and of the
// newest or last viewed within the budget), what goes first (the least recently viewed), the budget
// setting and the imageUse rows that every change of bytes keeps in step (schema 5).
import { Blob as NodeBlob } from "node:buffer";
import Dexie from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { dropFullImages, getImage, storeImage, touchImage } from "#src/db/images.ts";
import { deleteGeneration } from "#src/db/library.ts";
import {
  defaultBudget,
  getOfflineBudget,
  offlineSummary,
  planAndEvict,
  planOfflineLibrary,
  setOfflineBudget,
  type PlanUse,
} from "#src/db/offline-library.ts";
import { defineSchema } from "#src/db/schema.ts";
import { generationRow } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const MB = 1_000_000;
const blob = (size: number) => new NodeBlob([new Uint8Array(size)], { type: "image/png" }) as unknown as Blob;
const row = (n: number, over: Partial<GenerationRow> = {}): GenerationRow =>
  generationRow(`g${n}`, "alice", { created_at: `2026-11-22T10:00:0${n}.000Z`, ...over });
const rec = (n: number, saved = false) => ({
  id: `g${n}`,
  isSaved: (saved ? 1 : 0) as 0 | 1,
  createdAt: `2026-11-22T10:00:0${n}.000Z`,
});
const held = (size: number, thumbnail: 0 | 1 = 1, viewedAt = 0): PlanUse => ({ size, thumbnail, viewedAt });

describe("planOfflineLibrary", () => {
  it("fetches every missing thumbnail newest first, and full images for saved items and the newest within the budget", () => {
    const records = [rec(4), rec(3), rec(2), rec(1, true)];
    const plan = planOfflineLibrary(records, new Map(), 2 * MB, MB);
    expect(plan.fetch).toEqual([
      { id: "g4", full: true },
      { id: "g3", full: true },
      { id: "g2", full: false },
      { id: "g1", full: true },
    ]);
    expect(plan.evict).toEqual([]);
  });

  it("lets the least recently viewed go first, never a saved one, and fetches nothing already held", () => {
    const records = [rec(4), rec(3), rec(2), rec(1, true)];
    const use = new Map([
      ["g4", held(MB)],
      ["g3", held(MB)],
      ["g2", held(0, 1, Date.parse("2026-12-01T00:00:00Z"))], // opened lately: it comes first now
      ["g1", held(5 * MB)],
    ]);
    const plan = planOfflineLibrary(records, use, 2 * MB, MB);
    expect([...plan.wanted].sort()).toEqual(["g1", "g2", "g4"]);
    expect(plan.evict).toEqual(["g3"]);
    expect(plan.fetch).toEqual([{ id: "g2", full: true }]);
  });

  it("keeps only saved full images with a budget of 0", () => {
    const records = [rec(2), rec(1, true)];
    const plan = planOfflineLibrary(records, new Map([["g2", held(MB)]]), 0, MB);
    expect(plan.evict).toEqual(["g2"]);
    expect(plan.fetch).toEqual([{ id: "g1", full: true }]);
  });
});

describe("budget", () => {
  it("defaults to a tenth of the quota within bounds, and keeps what the person sets", async () => {
    db = openAppDb("offline-budget");
    expect(defaultBudget(undefined)).toBe(200 * MB);
    expect(defaultBudget(10_000 * MB)).toBe(1000 * MB);
    expect(defaultBudget(1500 * MB)).toBe(150 * MB);
    expect(defaultBudget(10 * MB)).toBe(100 * MB);
    expect(await getOfflineBudget("alice", db, async () => 3000 * MB)).toEqual({ bytes: 300 * MB, chosen: false });
    await setOfflineBudget("alice", 12.5 * MB, db);
    expect(await getOfflineBudget("alice", db, async () => 3000 * MB)).toEqual({ bytes: 12.5 * MB, chosen: true });
    await expect(setOfflineBudget("alice", -1, db)).rejects.toThrow(/0 or more/);
    await expect(setOfflineBudget("alice", Number.NaN, db)).rejects.toThrow(/0 or more/);
    expect((await getOfflineBudget("alice", db)).bytes).toBe(12.5 * MB);
  });
  it("lets go at once of the full images past a budget the person sets, never a saved one", async () => {
    db = openAppDb("offline-budget-evicts");
    await db.generations.bulkPut([1, 2, 3].map((n) => toGenerationRecord(row(n, { is_saved: n === 1 }))));
    for (const n of [1, 2, 3])
      await storeImage(`g${n}`, { image: blob(200), thumbnail: "data:image/webp;base64,AA" }, db);
    await setOfflineBudget("alice", 250, db);
    // Room for one unsaved image: g3, the newest, stays; g2 goes; the saved g1 stays whatever the budget.
    expect((await getImage("g2", db))?.image).toBeUndefined();
    expect((await getImage("g3", db))?.image).toBeDefined();
    expect((await getImage("g1", db))?.image).toBeDefined();
    expect((await offlineSummary("alice", db)).fullImages).toBe(2);
  });
});

describe("imageUse rows", () => {
  it("follow stored bytes, views, evictions and deletes; planAndEvict lets the full images past the budget go", async () => {
    db = openAppDb("offline-use");
    await db.generations.bulkPut([1, 2, 3].map((n) => toGenerationRecord(row(n, { is_saved: n === 1 }))));
    await storeImage("g1", { image: blob(300), thumbnail: "data:image/webp;base64,AA" }, db);
    await storeImage("g2", { image: blob(200), thumbnail: "data:image/webp;base64,AA" }, db);
    await storeImage("g3", { image: blob(200) }, db);
    await touchImage("g2", db, 5);
    expect(await db.imageUse.get("g2")).toEqual({ id: "g2", userId: "alice", size: 200, thumbnail: 1, viewedAt: 5 });
    expect(await offlineSummary("alice", db)).toEqual({
      generations: 3,
      thumbnails: 2,
      fullImages: 3,
      savedFullImages: 1,
      savedTotal: 1,
      bytes: 700,
    });
    // Room for one unsaved image: g3 is the newest, never viewed (g2's view was at epoch 5 ms).
    const plan = await planAndEvict("alice", 250, db);
    expect(plan.evict).toEqual(["g2"]);
    expect((await getImage("g2", db))?.image).toBeUndefined();
    expect((await getImage("g2", db))?.thumbnail).toBe("data:image/webp;base64,AA");
    expect((await db.imageUse.get("g2"))?.size).toBe(0);
    expect(plan.fetch).toEqual([{ id: "g3", full: false }]);
    await dropFullImages(db, ["g3"]);
    expect((await offlineSummary("alice", db)).bytes).toBe(300);
    await deleteGeneration("alice", "g1", db);
    expect(await db.imageUse.get("g1")).toBeUndefined();
  });

  it("are made for the images a version 4 database held", async () => {
    const name = "offline-upgrade";
    const old = new Dexie(name);
    defineSchema(old, 4);
    await old.table("generations").put(toGenerationRecord(row(1)));
    await old.table("images").put({ id: "g1", userId: "alice", image: blob(42), thumbnail: "data:x" });
    old.close();
    db = openAppDb(name);
    expect(await db.imageUse.toArray()).toEqual([{ id: "g1", userId: "alice", size: 42, thumbnail: 1, viewedAt: 0 }]);
  });
});
