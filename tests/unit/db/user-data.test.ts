import { afterEach, describe, expect, it } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { clearOtherUsersCache, clearUserData } from "#src/db/user-data.ts";
import { saveEngines } from "#src/db/engines.ts";
import { OPENED_IMAGE_KEY, keepOpenedImage } from "#src/db/opened-image.ts";
import type { GenerationRecord } from "#src/db/schema.ts";
import { newTask } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

function generation(id: string, userId: string): GenerationRecord {
  return {
    id,
    userId,
    prompt: "a lighthouse",
    negativePrompt: "",
    style: "photorealistic",
    quality: "high",
    aspectRatio: "1:1",
    width: 1024,
    height: 1024,
    seed: null,
    provider: "builtin",
    model: "procedural",
    imagePath: `${userId}/${id}.png`,
    isPublic: 0,
    isSaved: 0,
    createdAt: new Date().toISOString(),
  };
}

async function seed(name: string) {
  db = openAppDb(name);
  await db.generations.bulkAdd([generation("g1", "alice"), generation("g2", "bob")]);
  await db.tasks.add({
    ...newTask("t1", "alice", { prompt: "queued" }),
    status: "queued",
    attempts: 0,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
  });
  await db.outbox.add({
    id: "o1",
    userId: "alice",
    kind: "generation.flags",
    payload: {},
    attempts: 0,
    createdAt: "x",
    status: "pending",
  });
  await db.promptHistory.add({ id: "p1", prompt: "queued", timestamp: 1, style: "anime", quality: "standard" });
  await db.meta.put({ key: "pull.generations.alice", value: "2026-01-01" });
  for (const userId of ["alice", "bob"]) await seedOwnRows(userId);
}

/** A custom style and a collection holding the person's image: cached server rows, like generations. */
async function seedOwnRows(userId: string) {
  const at = "2026-01-01T00:00:00Z";
  await db.customStyles.add({
    id: `s-${userId}`,
    userId,
    name: "Film",
    prompt: "35mm grain",
    negativePrompt: "",
    baseStyle: "photorealistic",
    quality: "high",
    aspectRatio: "1:1",
    preview: null,
    createdAt: at,
    updatedAt: at,
  });
  await db.collections.add({
    id: `c-${userId}`,
    userId,
    name: "Moodboard",
    filter: null,
    createdAt: at,
    updatedAt: at,
  });
  await db.collectionItems.add({ collectionId: `c-${userId}`, generationId: `g-${userId}`, userId, addedAt: at });
}

const ownedTables = () => [db.customStyles, db.collections, db.collectionItems];

describe("clearing local data on sign-out", () => {
  it("removes everything, queued work included, when the person signs out", async () => {
    await seed("clear-choice");
    await clearUserData(db, { includeQueuedWork: true });
    for (const table of [db.generations, db.tasks, db.outbox, db.promptHistory, db.meta, ...ownedTables()]) {
      expect(await table.count()).toBe(0);
    }
  });

  it("keeps queued work parked when the session merely ended", async () => {
    await seed("clear-expired");
    await clearUserData(db, { includeQueuedWork: false });
    expect(await db.generations.count()).toBe(0);
    expect(await db.meta.count()).toBe(0);
    for (const table of ownedTables()) expect(await table.count()).toBe(0);
    expect(await db.tasks.count()).toBe(1);
    expect(await db.outbox.count()).toBe(1);
  });

  it("drops other accounts' cached rows when someone else signs in", async () => {
    await seed("clear-switch");
    await clearOtherUsersCache(db, "bob");
    expect((await db.generations.toArray()).map((g) => g.id)).toEqual(["g2"]);
    for (const table of ownedTables()) expect((await table.toArray()).map((r) => r.userId)).toEqual(["bob"]);
    expect(await db.meta.count()).toBe(0);
  });

  it("keeps the signed-in person's own sync cursor and buffered telemetry at a session start", async () => {
    await seed("clear-same");
    await db.meta.bulkPut([
      { key: "telemetry:alice", value: [] },
      { key: "pull.generations.bob", value: "2026-02-02" },
      { key: "telemetry:bob", value: [] },
    ]);
    await clearOtherUsersCache(db, "alice");
    expect((await db.meta.toArray()).map((m) => m.key).sort()).toEqual(["pull.generations.alice", "telemetry:alice"]);
  });

  it("keeps the device's own entries at a session start: a shared image waiting for the generator, the engines", async () => {
    await seed("clear-device");
    await keepOpenedImage(db, new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "shared.png");
    await saveEngines(db, { available: ["builtin"], default: "builtin", checkedAt: "2026-01-01T00:00:00Z" });
    await clearOtherUsersCache(db, "bob");
    expect((await db.meta.toArray()).map((m) => m.key).sort()).toEqual(["engines", "opened-image"]);
    expect(((await db.meta.get(OPENED_IMAGE_KEY))?.value as { name?: string }).name).toBe("shared.png");
    // Signing out still clears them: the next person starts from an empty device.
    await saveEngines(db, { available: ["builtin"], default: "builtin", checkedAt: "2026-01-01T00:00:00Z" });
    await clearUserData(db, { includeQueuedWork: true });
    expect(await db.meta.count()).toBe(0);
  });
});
