// Collections on the device (decision 157): writes go to Dexie and the outbox together, a deleted collection
// takes its items and its waiting writes with it, a deleted image leaves its collections, smart collections
// filter the recipe (each key of the filter), and schema 10 opens a version 9 database with its data kept.
import { Dexie } from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import type { CollectionFilter } from "#shared/vocabulary/collections.ts";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import {
  addToCollection,
  collectionCounts,
  collectionGenerations,
  collectionsHolding,
  deleteCollection,
  listCollections,
  removeFromCollection,
  saveCollection,
} from "#src/db/collections.ts";
import { applyServerDelete, applyServerRows, deleteGeneration } from "#src/db/library.ts";
import { pendingEntries } from "#src/db/outbox.ts";
import { defineSchema, type CollectionRecord } from "#src/db/schema.ts";
import { dayBoundary } from "#src/db/search.ts";
import { generationRow } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const NOW = Date.parse("2026-11-27T12:00:00.000Z");

async function made(name: string, filter: CollectionFilter | null = null, who = "alice"): Promise<CollectionRecord> {
  const r = await saveCollection(who, { name, filter }, undefined, db, NOW);
  if (!r.ok) throw new Error(r.message);
  return r.collection;
}

/** The person's generations on this device, g1 oldest. */
async function held(...rows: GenerationRow[]) {
  await applyServerRows(db, "alice", rows);
}

const kinds = async () => (await pendingEntries(db, "alice")).map((e) => [e.kind, e.payload]);

describe("collections on the device", () => {
  it("are made, renamed and deleted here at once, each with its outbox entry, and listed by name", async () => {
    db = openAppDb("collections-writes");
    const trips = await made(" Trips ");
    const smart = await made("Foxes", { text: " fox ", style: undefined, engine: " " });
    expect([trips.name, smart.filter]).toEqual(["Trips", { text: "fox" }]);
    const renamed = await saveCollection("alice", { name: "Journeys", filter: null }, trips.id, db, NOW + 1);
    expect(renamed.ok && [renamed.collection.createdAt, renamed.collection.updatedAt]).toEqual([
      trips.createdAt,
      new Date(NOW + 1).toISOString(),
    ]);
    expect((await listCollections("alice", db)).map((c) => c.name)).toEqual(["Foxes", "Journeys"]);
    expect((await kinds()).map(([k]) => k)).toEqual(["collection.save", "collection.save", "collection.save"]);
    expect(await deleteCollection("alice", smart.id, db)).toBe(true);
    expect((await listCollections("alice", db)).map((c) => c.name)).toEqual(["Journeys"]);
    expect((await kinds()).slice(-1)).toEqual([["collection.delete", { collectionId: smart.id }]]);
  });

  it("refuse a bad name or filter, a change of kind, another person's collection and the 201st", async () => {
    db = openAppDb("collections-refusals");
    const save = (draft: { name: string; filter: CollectionFilter | null }, id?: string) =>
      saveCollection("alice", draft, id, db, NOW);
    expect(await save({ name: "  ", filter: null })).toEqual({ ok: false, message: "Give the collection a name" });
    expect(await save({ name: "Smart", filter: {} })).toMatchObject({ ok: false });
    expect(await save({ name: "Smart", filter: { withinDays: 0 } })).toMatchObject({ ok: false });
    const hand = await made("Hand");
    expect(await save({ name: "Hand", filter: { saved: true } }, hand.id)).toMatchObject({ ok: false });
    const bobs = await made("Bob's", null, "bob");
    expect(await save({ name: "Mine now", filter: null }, bobs.id)).toMatchObject({ ok: false });
    expect(await deleteCollection("alice", bobs.id, db)).toBe(false);
    await db.collections.bulkPut(
      Array.from({ length: 199 }, (_, i) => ({ ...hand, id: `c${i}`, name: `C${String(i).padStart(3, "0")}` })),
    );
    expect(await save({ name: "One too many", filter: null })).toEqual({
      ok: false,
      message: "You can have at most 200 collections",
    });
    expect((await kinds()).length).toBe(1);
  });

  it("hold the person's images, several collections each; an image is added once and removed at once", async () => {
    db = openAppDb("collections-items");
    await held(generationRow("g1", "alice"), generationRow("g2", "alice", { created_at: "2026-11-23T10:00:00.000Z" }));
    await applyServerRows(db, "bob", [generationRow("b1", "bob")]);
    const trips = await made("Trips");
    const best = await made("Best");
    const smart = await made("Smart", { saved: true });
    expect(await addToCollection("alice", trips.id, ["g1", "g2", "g1", "b1", "nowhere"], db, NOW)).toEqual({
      ok: true,
      added: 2,
    });
    expect(await addToCollection("alice", trips.id, ["g1"], db, NOW)).toEqual({ ok: true, added: 0 });
    expect(await addToCollection("alice", best.id, ["g1"], db, NOW)).toEqual({ ok: true, added: 1 });
    expect(await addToCollection("alice", smart.id, ["g1"], db, NOW)).toMatchObject({ ok: false });
    expect((await collectionsHolding("alice", "g1", db)).sort()).toEqual([best.id, trips.id].sort());
    expect((await collectionGenerations("alice", trips, db)).map((g) => g.id)).toEqual(["g2", "g1"]);
    expect(await collectionCounts("alice", db)).toEqual(
      new Map([
        [trips.id, 2],
        [best.id, 1],
      ]),
    );
    expect(await removeFromCollection("alice", trips.id, ["g2", "b1"], db)).toBe(1);
    expect((await kinds()).slice(3)).toEqual([
      ["collection.add", { collectionId: trips.id, generationIds: ["g1", "g2"] }],
      ["collection.add", { collectionId: best.id, generationIds: ["g1"] }],
      ["collection.remove", { collectionId: trips.id, generationIds: ["g2"] }],
    ]);
  });

  it("refuse an add past 10,000 images", async () => {
    db = openAppDb("collections-full");
    await held(generationRow("g1", "alice"));
    const full = await made("Full");
    await db.collectionItems.bulkAdd(
      Array.from({ length: 10_000 }, (_, i) => ({
        collectionId: full.id,
        generationId: `x${i}`,
        userId: "alice",
        addedAt: "",
      })),
    );
    expect(await addToCollection("alice", full.id, ["g1"], db, NOW)).toEqual({
      ok: false,
      message: "A collection can hold at most 10,000 images",
    });
  });

  it("deleted, take their items and the writes still waiting for them; a deleted image leaves its collections", async () => {
    db = openAppDb("collections-delete");
    await held(generationRow("g1", "alice"), generationRow("g2", "alice"), generationRow("g3", "alice"));
    const gone = await made("Gone");
    const kept = await made("Kept");
    await addToCollection("alice", gone.id, ["g1"], db, NOW);
    await addToCollection("alice", kept.id, ["g1", "g2", "g3"], db, NOW);
    await deleteCollection("alice", gone.id, db);
    expect(await db.collectionItems.where("collectionId").equals(gone.id).count()).toBe(0);
    // Its save and add are dropped: only its delete is left to send (the other collection's stay).
    expect((await kinds()).map(([k, p]) => `${k} ${(p as { collectionId?: string }).collectionId ?? ""}`)).toEqual([
      "collection.save ",
      `collection.add ${kept.id}`,
      `collection.delete ${gone.id}`,
    ]);
    // Deleted here, deleted on the server (realtime): the image leaves every collection.
    await deleteGeneration("alice", "g1", db);
    await applyServerDelete(db, "alice", "g2");
    expect((await collectionGenerations("alice", kept, db)).map((g) => g.id)).toEqual(["g3"]);
    expect(await collectionCounts("alice", db)).toEqual(new Map([[kept.id, 1]]));
  });
});

describe("smart collections", () => {
  const at = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, "0")}:00:00`).toISOString();
  const ROWS: GenerationRow[] = [
    generationRow("old", "alice", { prompt: "a red fox at dawn", created_at: at("2026-01-10") }),
    generationRow("saved", "alice", {
      prompt: "a lighthouse",
      style: "watercolor",
      quality: "high",
      is_saved: true,
      created_at: at("2026-11-20"),
    }),
    generationRow("wide", "alice", {
      prompt: "foxglove meadow",
      aspect_ratio: "16:9",
      provider: "openai",
      is_public: true,
      created_at: at("2026-11-26", 23),
    }),
  ];
  const cases: Array<[CollectionFilter, string[]]> = [
    [{ text: "fox" }, ["wide", "old"]],
    [{ style: "watercolor" }, ["saved"]],
    [{ quality: "high" }, ["saved"]],
    [{ aspectRatio: "16:9" }, ["wide"]],
    [{ engine: "openai" }, ["wide"]],
    [{ saved: true }, ["saved"]],
    [{ saved: false }, ["wide", "old"]],
    [{ published: true }, ["wide"]],
    [{ from: "2026-11-20" }, ["wide", "saved"]],
    [{ to: "2026-11-20" }, ["saved", "old"]],
    [{ from: "2026-11-21", to: "2026-11-26" }, ["wide"]],
    [{ withinDays: 10 }, ["wide", "saved"]],
    [{ withinDays: 10, from: "2026-11-25" }, ["wide"]],
    [{ text: "fox", withinDays: 30 }, ["wide"]],
  ];
  it.each(cases)("%j picks %j", async (filter, ids) => {
    db = openAppDb(`smart-${JSON.stringify(filter)}`);
    await held(...ROWS);
    await applyServerRows(db, "bob", [generationRow("b1", "bob", { prompt: "fox" })]);
    const smart = await made("Smart", filter);
    const now = Date.parse(at("2026-11-27", 9));
    expect((await collectionGenerations("alice", smart, db, now)).map((g) => g.id)).toEqual(ids);
  });

  it("reads its days in the viewer's zone, as History does", () => {
    expect(dayBoundary("2026-11-26", true)).toBe(new Date(2026, 10, 26, 23, 59, 59, 999).toISOString());
  });
});

describe("schema version 10", () => {
  it("opens a version 9 database with its records kept, and new tables empty", async () => {
    const name = "collections-upgrade";
    const old = new Dexie(name);
    defineSchema(old, 9);
    await old.table("customStyles").put({ id: "s1", userId: "alice", name: "Film" });
    await old.table("generations").put({ id: "g1", userId: "alice", createdAt: "2026-11-22T10:00:00.000Z" });
    old.close();

    db = openAppDb(name);
    expect(db.verno).toBe(10);
    expect((await db.customStyles.get("s1"))?.name).toBe("Film");
    expect((await db.generations.get("g1"))?.userId).toBe("alice");
    expect(await db.collections.count()).toBe(0);
    expect(await db.collectionItems.count()).toBe(0);
  });
});
