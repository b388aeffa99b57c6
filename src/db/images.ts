// Image bytes kept on this device (schema 4's `images` table): the full image of a generation made or
// opened here, and a small thumbnail for grids. They live apart from the generation records, so list
// reads never load a Blob and storing bytes never re-runs a live list of generations; a tile's or a
// dialog's live read of one id re-runs only when that id's bytes change.
import { db as appDb, type AppDb } from "./db";
import type { ImageRecord } from "./schema";

/** The full image, and the grid thumbnail as a data: URL (see ImageRecord). */
export type ImageBytes = { image?: Blob; thumbnail?: string };

/** A record as read, without a thumbnail kept as a Blob by an earlier version (it is made again). */
function current(record: ImageRecord | undefined): ImageRecord | undefined {
  if (!record || record.thumbnail === undefined || typeof record.thumbnail === "string") return record;
  const { thumbnail: _old, ...rest } = record;
  return rest;
}

export async function getImage(id: string, db: AppDb = appDb): Promise<ImageRecord | undefined> {
  return current(await db.images.get(id));
}

/** The bytes held for several generations at once (undefined where none), in the order asked. */
export async function getImages(ids: readonly string[], db: AppDb = appDb): Promise<Array<ImageRecord | undefined>> {
  return (await db.images.bulkGet([...ids])).map(current);
}

/** The record to put for new bytes, keeping the ones already held that are not replaced. */
export function mergedImage(
  previous: ImageRecord | undefined,
  id: string,
  userId: string,
  bytes: ImageBytes,
): ImageRecord {
  const next: ImageRecord = { ...previous, id, userId };
  if (bytes.image) next.image = bytes.image;
  if (bytes.thumbnail) next.thumbnail = bytes.thumbnail;
  return next;
}

/**
 * Keeps bytes for a generation this device holds (false, and nothing kept, when it holds no such
 * record: the generation was deleted meanwhile, or belongs to nobody signed in here).
 */
export async function storeImage(id: string, bytes: ImageBytes, db: AppDb = appDb): Promise<boolean> {
  if (!bytes.image && !bytes.thumbnail) return false;
  return db.transaction("rw", [db.generations, db.images], async () => {
    const record = await db.generations.get(id);
    if (!record) return false;
    await db.images.put(mergedImage(await getImage(id, db), id, record.userId, bytes));
    return true;
  });
}

/** Removes the bytes of these generations; call inside the transaction that removes the records. */
export function removeImages(db: AppDb, ids: readonly string[]): Promise<void> {
  return db.images.bulkDelete([...ids]);
}
