// Image bytes in their own table (schema 4; thumbnails are data: URLs): moved there from version 3 records, kept only for
// records the device holds, removed with their record, and stored without re-running live lists.
import { Blob as NodeBlob } from "node:buffer";
import Dexie, { liveQuery } from "dexie";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { defineSchema } from "#src/db/schema.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { getImage, storeImage } from "#src/db/images.ts";
import { applyServerDelete, deleteGeneration, reconcileGenerations } from "#src/db/library.ts";
import { listGenerations } from "#src/db/queries.ts";
import { filterGenerations } from "#src/db/search.ts";
import { clearOtherUsersCache, clearUserData } from "#src/db/user-data.ts";
import { generationRow } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

// jsdom's Blob cannot cross fake-indexeddb's structured clone; the browser's (like Node's) can.
const bytes = (...values: number[]) => new NodeBlob([new Uint8Array(values)], { type: "image/png" }) as unknown as Blob;
const read = async (blob: Blob | undefined) => (blob ? [...new Uint8Array(await blob.arrayBuffer())] : undefined);

const row = (id: string, over: Partial<GenerationRow> = {}): GenerationRow =>
  generationRow(id, "alice", {
    prompt: "a red fox in the snow",
    model: "procedural",
    created_at: `2026-11-22T10:00:0${id.slice(-1)}.000Z`,
    ...over,
  });

describe("images table", () => {
  it("moves the bytes of version 3 records into images and leaves the records without them", async () => {
    const name = "images-upgrade";
    const old = new Dexie(name);
    defineSchema(old, 3);
    await old
      .table("generations")
      .bulkPut([
        { ...toGenerationRecord(row("g1")), image: bytes(1, 2), thumbnail: bytes(3) },
        { ...toGenerationRecord(row("g2")), image: bytes(4) },
        toGenerationRecord(row("g3")),
      ]);
    old.close();

    db = openAppDb(name);
    const records = (await db.generations.toArray()) as Array<Record<string, unknown>>;
    expect(records.map((r) => [r.id, "image" in r, "thumbnail" in r])).toEqual([
      ["g1", false, false],
      ["g2", false, false],
      ["g3", false, false],
    ]);
    // The Blob thumbnail of version 3 moves too, but reads as none: thumbnails are data: URLs now.
    const g1 = await getImage("g1", db);
    expect([
      g1?.userId,
      await read(g1?.image),
      await read((await db.images.get("g1"))?.thumbnail as unknown as Blob),
    ]).toEqual(["alice", [1, 2], [3]]);
    expect(g1 && "thumbnail" in g1).toBe(false);
    expect(await read((await getImage("g2", db))?.image)).toEqual([4]);
    expect(await getImage("g3", db)).toBeUndefined();
    // The records keep their words after the move, and History's search still finds them.
    expect((await db.generations.get("g1"))?.words).toEqual(["a", "red", "fox", "in", "the", "snow"]);
    const history = await listGenerations("alice", db);
    expect(filterGenerations(history, "alice", { text: "fox" }).map((r) => r.id)).toEqual(["g3", "g2", "g1"]);
  });

  it("reads a thumbnail kept as a Blob by an earlier version as none, and replaces it with a data: URL", async () => {
    db = openAppDb("images-old-thumbnail");
    await db.generations.put(toGenerationRecord(row("g1")));
    await db.images.put({ id: "g1", userId: "alice", image: bytes(1), thumbnail: bytes(2) as unknown as string });
    const held = await getImage("g1", db);
    expect([await read(held?.image), held && "thumbnail" in held]).toEqual([[1], false]);
    expect(await storeImage("g1", { thumbnail: "data:image/webp;base64,Ag==" }, db)).toBe(true);
    expect((await getImage("g1", db))?.thumbnail).toBe("data:image/webp;base64,Ag==");
  });

  it("keeps bytes only for records the device holds, merging a thumbnail into a held image", async () => {
    db = openAppDb("images-store");
    await db.generations.put(toGenerationRecord(row("g1")));
    expect(await storeImage("missing", { image: bytes(9) }, db)).toBe(false);
    expect(await db.images.count()).toBe(0);
    expect(await storeImage("g1", { image: bytes(1) }, db)).toBe(true);
    expect(await storeImage("g1", { thumbnail: "data:image/webp;base64,Ag==" }, db)).toBe(true);
    const held = await getImage("g1", db);
    expect([await read(held?.image), held?.thumbnail]).toEqual([[1], "data:image/webp;base64,Ag=="]);
  });

  it("removes the bytes with the record: a delete here, a delete elsewhere, a reconcile, a sign-out", async () => {
    db = openAppDb("images-remove");
    const ids = ["g1", "g2", "g3", "g4"];
    await db.generations.bulkPut([
      ...ids.map((id) => toGenerationRecord(row(id))),
      toGenerationRecord(row("b5", { user_id: "bob" })),
    ]);
    for (const id of [...ids, "b5"]) await storeImage(id, { image: bytes(7) }, db);

    await deleteGeneration("alice", "g1", db);
    await applyServerDelete(db, "alice", "g2");
    // The server lists only g4 up to its creation time: g3 is gone there.
    await reconcileGenerations(
      db,
      "alice",
      new Map([["g4", { isSaved: false, isPublic: false }]]),
      row("g4").created_at,
    );
    expect((await db.images.toArray()).map((i) => i.id).sort()).toEqual(["b5", "g4"]);

    await clearOtherUsersCache(db, "alice");
    expect((await db.images.toArray()).map((i) => i.id)).toEqual(["g4"]);
    await clearUserData(db, { includeQueuedWork: false });
    expect(await db.images.count()).toBe(0);
  });

  it("stores bytes without re-running a live list of generations", async () => {
    db = openAppDb("images-live");
    await db.generations.bulkPut([toGenerationRecord(row("g1")), toGenerationRecord(row("g2"))]);
    let runs = 0;
    const subscription = liveQuery(() => listGenerations("alice", db)).subscribe(() => runs++);
    // A re-run that should come is waited for; one that should not is given a moment to show up.
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await vi.waitFor(() => expect(runs).toBe(1));
    await storeImage("g1", { thumbnail: "data:image/webp;base64,AQ==" }, db);
    await settle();
    expect(runs).toBe(1);
    // A change to the records themselves does re-run it (the control for the line above).
    await db.generations.update("g2", { isSaved: 1 });
    await vi.waitFor(() => expect(runs).toBe(2));
    await settle();
    expect(runs).toBe(2);
    subscription.unsubscribe();
  });
});
