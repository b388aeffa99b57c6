// The person's collections (decision 157) on this device: made, renamed and deleted here at once, images
// added and removed at once (offline too), each write adding its outbox entry in the same transaction (as
// src/db/custom-styles.ts does), so the server hears it when the device is online. A hand-made collection
// holds items; a smart one is a saved filter over the recipe, evaluated over the records this device holds.
// Server rows arriving later (pull, realtime) are laid under the entries still waiting (src/db/pending.ts).
import {
  COLLECTION_ITEMS_MAX,
  COLLECTIONS_PER_PERSON_MAX,
  validateCollectionFilter,
  validateCollectionName,
  type CollectionFilter,
  type CollectionItemRow,
  type CollectionRow,
} from "#shared/vocabulary/collections.ts";
import { db as appDb, type AppDb } from "./db";
import { addOutboxEntry, pendingEntries } from "./outbox";
import { layUnderPending, pendingRows, type PendingChange, type WholeRows } from "./pending";
import { listGenerations } from "./queries";
import type { CollectionItemRecord, CollectionRecord, GenerationRecord, OutboxOp } from "./schema";
import { filterGenerations, toGenerationFilter } from "./search";

/** What the collection form gives: a name, and for a smart collection its filter (null: hand-made). */
export type CollectionDraft = { name: string; filter: CollectionFilter | null };

type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string };

function toCollectionRecord(row: CollectionRow): CollectionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    filter: row.filter ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toItemRecord(row: CollectionItemRow): CollectionItemRecord {
  return {
    collectionId: row.collection_id,
    generationId: row.generation_id,
    userId: row.user_id,
    addedAt: row.added_at,
  };
}

/** The filter as the form set it, its text trimmed: a field left unset or blank is absent (not undefined). */
function cleanFilter(filter: CollectionFilter): CollectionFilter {
  const trimmed = Object.entries(filter).map(([k, v]): [string, unknown] => [k, typeof v === "string" ? v.trim() : v]);
  return Object.fromEntries(trimmed.filter(([, v]) => v !== undefined && v !== "")) as CollectionFilter;
}

const isHandMade = (c: Pick<CollectionRecord, "filter">) => c.filter === null;

/**
 * Makes a collection (no `id`) or changes one the device holds (a rename is a save with its id): Dexie and
 * the outbox in one transaction. A hand-made collection stays hand-made and a smart one smart.
 */
export async function saveCollection(
  userId: string,
  draft: CollectionDraft,
  id?: string,
  db: AppDb = appDb,
  now: number = Date.now(),
): Promise<Outcome<{ collection: CollectionRecord }>> {
  const filter = draft.filter === null ? null : cleanFilter(draft.filter);
  const invalid = validateCollectionName(draft.name) ?? (filter === null ? null : validateCollectionFilter(filter));
  if (invalid) return { ok: false, message: invalid };
  const at = new Date(now).toISOString();
  return db.transaction("rw", [db.collections, db.outbox], async () => {
    const held = id ? await db.collections.get(id) : undefined;
    if (id && (!held || held.userId !== userId)) {
      return { ok: false as const, message: "This collection is not on this device" };
    }
    if (held && isHandMade(held) !== (filter === null)) {
      const message = isHandMade(held)
        ? "A collection of chosen images cannot become a smart one"
        : "A smart collection cannot become one of chosen images";
      return { ok: false as const, message };
    }
    if (!held && (await db.collections.where("userId").equals(userId).count()) >= COLLECTIONS_PER_PERSON_MAX) {
      return { ok: false as const, message: `You can have at most ${COLLECTIONS_PER_PERSON_MAX} collections` };
    }
    const collection: CollectionRecord = {
      id: held?.id ?? crypto.randomUUID(),
      userId,
      name: draft.name.trim(),
      filter,
      createdAt: held?.createdAt ?? at,
      updatedAt: at,
    };
    await db.collections.put(collection);
    await addOutboxEntry(db, userId, { kind: "collection.save", payload: { collection } }, now);
    return { ok: true as const, collection };
  });
}

/** The collection an outbox entry names, if it is about one. */
function collectionOf(op: OutboxOp): string | undefined {
  switch (op.kind) {
    case "collection.save":
      return op.payload.collection.id;
    case "collection.delete":
    case "collection.add":
    case "collection.remove":
      return op.payload.collectionId;
    default:
      return undefined;
  }
}

/**
 * Deletes a collection here at once, and its items; its saves, adds and removes still waiting are dropped
 * (the collection they would write is going).
 */
export async function deleteCollection(userId: string, id: string, db: AppDb = appDb): Promise<boolean> {
  return db.transaction("rw", [db.collections, db.collectionItems, db.outbox], async () => {
    const held = await db.collections.get(id);
    if (!held || held.userId !== userId) return false;
    await db.collections.delete(id);
    await db.collectionItems.where("collectionId").equals(id).delete();
    const moot = (await pendingEntries(db, userId)).filter(
      (e) => collectionOf({ kind: e.kind, payload: e.payload } as OutboxOp) === id,
    );
    await db.outbox.bulkDelete(moot.map((e) => e.seq!));
    await addOutboxEntry(db, userId, { kind: "collection.delete", payload: { collectionId: id } });
    return true;
  });
}

/** The person's hand-made collection the device holds, or the message why images cannot go into it. */
async function handMade(
  db: AppDb,
  userId: string,
  collectionId: string,
): Promise<Outcome<{ collection: CollectionRecord }>> {
  const collection = await db.collections.get(collectionId);
  if (!collection || collection.userId !== userId)
    return { ok: false, message: "This collection is not on this device" };
  if (!isHandMade(collection)) return { ok: false, message: "A smart collection picks its images by its filter" };
  return { ok: true, collection };
}

/**
 * Adds the person's images (those this device holds) to a hand-made collection; those already in it are
 * left. Answers how many were added, or why none could be (not held, smart, or it would grow past its limit).
 */
export async function addToCollection(
  userId: string,
  collectionId: string,
  generationIds: string[],
  db: AppDb = appDb,
  now: number = Date.now(),
): Promise<Outcome<{ added: number }>> {
  return db.transaction("rw", [db.collections, db.collectionItems, db.generations, db.outbox], async () => {
    const target = await handMade(db, userId, collectionId);
    if (!target.ok) return target;
    const unique = [...new Set(generationIds)];
    const records = await db.generations.bulkGet(unique);
    const inIt = await db.collectionItems.bulkGet(unique.map((g): [string, string] => [collectionId, g]));
    const fresh = unique.filter((_, i) => records[i]?.userId === userId && !inIt[i]);
    if (!fresh.length) return { ok: true as const, added: 0 };
    const count = await db.collectionItems.where("collectionId").equals(collectionId).count();
    if (count + fresh.length > COLLECTION_ITEMS_MAX) {
      return {
        ok: false as const,
        message: `A collection can hold at most ${COLLECTION_ITEMS_MAX.toLocaleString("en-US")} images`,
      };
    }
    const addedAt = new Date(now).toISOString();
    await db.collectionItems.bulkAdd(fresh.map((generationId) => ({ collectionId, generationId, userId, addedAt })));
    await addOutboxEntry(db, userId, { kind: "collection.add", payload: { collectionId, generationIds: fresh } }, now);
    return { ok: true as const, added: fresh.length };
  });
}

/** Takes images out of a hand-made collection here at once; answers how many were in it. */
export async function removeFromCollection(
  userId: string,
  collectionId: string,
  generationIds: string[],
  db: AppDb = appDb,
): Promise<number> {
  return db.transaction("rw", [db.collectionItems, db.outbox], async () => {
    const keys = [...new Set(generationIds)].map((g): [string, string] => [collectionId, g]);
    const held = await db.collectionItems.bulkGet(keys);
    const gone = held.filter((item): item is CollectionItemRecord => item?.userId === userId);
    if (!gone.length) return 0;
    await db.collectionItems.bulkDelete(gone.map((i): [string, string] => [i.collectionId, i.generationId]));
    const ids = gone.map((i) => i.generationId);
    await addOutboxEntry(db, userId, { kind: "collection.remove", payload: { collectionId, generationIds: ids } });
    return gone.length;
  });
}

/** The person's collections, by name. */
export function listCollections(userId: string, db: AppDb = appDb): Promise<CollectionRecord[]> {
  return db.collections.where("[userId+name]").between([userId, ""], [userId, "\uffff"]).toArray();
}

/** The ids of the person's hand-made collections that hold this image. */
export async function collectionsHolding(userId: string, generationId: string, db: AppDb = appDb): Promise<string[]> {
  const items = await db.collectionItems.where("generationId").equals(generationId).toArray();
  return items.filter((i) => i.userId === userId).map((i) => i.collectionId);
}

/**
 * A collection's images this device holds, newest first: a hand-made one's items, or a smart one's filter
 * run over the person's list at `now` (its days are the viewer's).
 */
export async function collectionGenerations(
  userId: string,
  collection: CollectionRecord,
  db: AppDb = appDb,
  now: number = Date.now(),
): Promise<GenerationRecord[]> {
  if (collection.filter !== null) {
    return filterGenerations(await listGenerations(userId, db), userId, toGenerationFilter(collection.filter, now));
  }
  const ids = (await db.collectionItems.where("[userId+collectionId]").equals([userId, collection.id]).toArray()).map(
    (i) => i.generationId,
  );
  const records = (await db.generations.bulkGet(ids)).filter((r): r is GenerationRecord => r?.userId === userId);
  return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** How many images each of the person's hand-made collections holds on this device, by collection id. */
export async function collectionCounts(userId: string, db: AppDb = appDb): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await db.collectionItems
    .where("userId")
    .equals(userId)
    .each((i) => counts.set(i.collectionId, (counts.get(i.collectionId) ?? 0) + 1));
  return counts;
}

/**
 * The images are gone from this device (deleted here or elsewhere): so are their places in collections.
 * Call it inside the transaction that removes them, with `collectionItems` in its tables.
 */
export async function forgetItemsOf(db: AppDb, generationIds: readonly string[]): Promise<void> {
  if (generationIds.length) await db.collectionItems.where("generationId").anyOf(generationIds).delete();
}

// --- Server rows under the writes still waiting (pull, realtime) ---

const itemId = (collectionId: string, generationId: string) => `${collectionId}/${generationId}`;

function pendingCollections(db: AppDb, userId: string) {
  return pendingRows(db, userId, (op): PendingChange<CollectionRecord>[] =>
    op.kind === "collection.save"
      ? [{ save: op.payload.collection.id, value: op.payload.collection }]
      : op.kind === "collection.delete"
        ? [{ delete: op.payload.collectionId }]
        : [],
  );
}

function pendingItems(db: AppDb, userId: string) {
  return pendingRows(db, userId, (op): PendingChange<true>[] => {
    if (op.kind === "collection.add") {
      return op.payload.generationIds.map((g) => ({ save: itemId(op.payload.collectionId, g), value: true as const }));
    }
    if (op.kind === "collection.remove") {
      return op.payload.generationIds.map((g) => ({ delete: itemId(op.payload.collectionId, g) }));
    }
    return [];
  });
}

const collectionRows = (db: AppDb): WholeRows<CollectionRecord, string> => ({
  table: db.collections,
  keyOf: (c) => c.id,
  idOf: (id) => id,
});

const itemRows = (db: AppDb): WholeRows<CollectionItemRecord, [string, string]> => ({
  table: db.collectionItems,
  keyOf: (i) => [i.collectionId, i.generationId],
  idOf: ([c, g]) => itemId(c, g),
});

const TABLES = (db: AppDb) => [db.collections, db.collectionItems, db.outbox];

/** Server collections (realtime), by id, under the writes still waiting: a pending save or delete wins. */
export async function applyServerCollections(db: AppDb, userId: string, rows: CollectionRow[]): Promise<number> {
  const own = rows.filter((r) => r.user_id === userId).map(toCollectionRecord);
  if (!own.length) return 0;
  return db.transaction("rw", TABLES(db), async () =>
    layUnderPending(collectionRows(db), await pendingCollections(db, userId), own),
  );
}

/** A collection deleted on the server: gone here too with its items, unless this device is saving it. */
export async function applyServerCollectionDelete(db: AppDb, userId: string, id: string): Promise<boolean> {
  return db.transaction("rw", TABLES(db), async () => {
    const held = await db.collections.get(id);
    if (!held || held.userId !== userId) return false;
    if ((await pendingCollections(db, userId)).saved.has(id)) return false;
    await db.collections.delete(id);
    await db.collectionItems.where("collectionId").equals(id).delete();
    return true;
  });
}

/** Server items (realtime): kept unless this device is removing them or deleting their collection. */
export async function applyServerItems(db: AppDb, userId: string, rows: CollectionItemRow[]): Promise<number> {
  const own = rows.filter((r) => r.user_id === userId).map(toItemRecord);
  if (!own.length) return 0;
  return db.transaction("rw", TABLES(db), async () => {
    const { deleted } = await pendingCollections(db, userId);
    const live = own.filter((i) => !deleted.has(i.collectionId));
    return layUnderPending(itemRows(db), await pendingItems(db, userId), live);
  });
}

/** An item removed on the server: gone here too, unless it is the person's own being added here. */
export async function applyServerItemDelete(
  db: AppDb,
  userId: string,
  collectionId: string,
  generationId: string,
): Promise<boolean> {
  return db.transaction("rw", TABLES(db), async () => {
    const held = await db.collectionItems.get([collectionId, generationId]);
    if (!held || held.userId !== userId) return false;
    if ((await pendingItems(db, userId)).saved.has(itemId(collectionId, generationId))) return false;
    await db.collectionItems.delete([collectionId, generationId]);
    return true;
  });
}

/**
 * The catch-up: the server's whole lists of the person's collections and items replace what the device
 * holds, under the writes still waiting. What the server no longer has goes, unless it is being saved here.
 */
export async function reconcileCollections(
  db: AppDb,
  userId: string,
  server: { collections: CollectionRow[]; items: CollectionItemRow[] },
): Promise<void> {
  await db.transaction("rw", TABLES(db), async () => {
    const collections = await pendingCollections(db, userId);
    const heldCollections = (await db.collections.where("userId").equals(userId).primaryKeys()) as string[];
    const own = server.collections.filter((r) => r.user_id === userId).map(toCollectionRecord);
    await layUnderPending(collectionRows(db), collections, own, heldCollections);
    const heldItems = (await db.collectionItems.where("userId").equals(userId).primaryKeys()) as [string, string][];
    const items = server.items
      .filter((r) => r.user_id === userId && !collections.deleted.has(r.collection_id))
      .map(toItemRecord);
    await layUnderPending(itemRows(db), await pendingItems(db, userId), items, heldItems);
  });
}
