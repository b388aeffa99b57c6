// Image bytes kept on this device (schema 4's `images` table): the full image of a generation (made,
// opened or kept for offline here, see offline-library.ts), and a small thumbnail for grids. Each
// change of bytes also writes the generation's `imageUse` row (schema 5: sizes and last view, no bytes). They live apart from the generation records, so list
// reads never load a Blob and storing bytes never re-runs a live list of generations; a tile's or a
// dialog's live read of one id re-runs only when that id's bytes change.
import { db as appDb, type AppDb } from "./db";
import type { ImageRecord, ImageUseRecord } from "./schema";

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
 * Puts new bytes for a generation and its `imageUse` row; call inside a transaction over `images`
 * and `imageUse`.
 */
export async function putImage(db: AppDb, id: string, userId: string, bytes: ImageBytes): Promise<void> {
  const next = mergedImage(await getImage(id, db), id, userId, bytes);
  await db.images.put(next);
  const use = await db.imageUse.get(id);
  await db.imageUse.put({
    id,
    userId,
    size: next.image?.size ?? 0,
    thumbnail: next.thumbnail ? 1 : 0,
    viewedAt: use?.viewedAt ?? 0,
  });
}

/**
 * Keeps bytes for a generation this device holds (false, and nothing kept, when it holds no such
 * record: the generation was deleted meanwhile, or belongs to nobody signed in here).
 */
export async function storeImage(id: string, bytes: ImageBytes, db: AppDb = appDb): Promise<boolean> {
  if (!bytes.image && !bytes.thumbnail) return false;
  return db.transaction("rw", [db.generations, db.images, db.imageUse], async () => {
    const record = await db.generations.get(id);
    if (!record) return false;
    await putImage(db, id, record.userId, bytes);
    return true;
  });
}

/**
 * Removes the bytes of these generations and their `imageUse` rows; call inside the transaction that
 * removes the records (over `images` and `imageUse`).
 */
export async function removeImages(db: AppDb, ids: readonly string[]): Promise<void> {
  await db.images.bulkDelete([...ids]);
  await db.imageUse.bulkDelete([...ids]);
}

/** The large view showed this generation now: it is the last to go when space is short. */
export async function touchImage(id: string, db: AppDb = appDb, now: number = Date.now()): Promise<void> {
  await db.transaction("rw", [db.generations, db.imageUse], async () => {
    const record = await db.generations.get(id);
    if (!record) return;
    const use = await db.imageUse.get(id);
    await db.imageUse.put(
      use ? { ...use, viewedAt: now } : { id, userId: record.userId, size: 0, thumbnail: 0, viewedAt: now },
    );
  });
}

/** Lets the full images of these generations go (their thumbnails stay). */
export async function dropFullImages(db: AppDb, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await db.transaction("rw", [db.images, db.imageUse], async () => {
    for (const id of ids) {
      const held = await db.images.get(id);
      if (held?.image) {
        const { image: _dropped, ...rest } = held;
        await db.images.put(rest);
      }
      await db.imageUse.update(id, { size: 0 });
    }
  });
}

/** What this device keeps of the user's images (no bytes are read). */
export function listImageUse(userId: string, db: AppDb = appDb): Promise<ImageUseRecord[]> {
  return db.imageUse.where("userId").equals(userId).toArray();
}
