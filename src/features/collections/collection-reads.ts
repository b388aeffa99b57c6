// What a collection's page reads, first screen first (issue 46 point 5: its first screen in <= 100 ms with
// 10,000 generations on the device). The whole list of a collection takes a while to read (a hand-made one's
// records one key at a time, a smart one's filter over every record), so the page draws first from a small
// read: the person's newest few hundred records, kept where they belong to the collection, which are the
// collection's newest too, in order. The whole list is read once those are on screen (as History does,
// bench/collections-bench.mjs has the figures).
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { collectionGenerations } from "../../db/collections";
import { db as appDb, type AppDb } from "../../db/db";
import { newestGenerations } from "../../db/queries";
import type { CollectionRecord, GenerationRecord } from "../../db/schema";
import { filterGenerations, toGenerationFilter } from "../../db/search";
import { afterTileImagesPainted, readTileImagesAhead } from "../../sync/use-tile-image";

/** How many of the person's newest records the first screen is drawn from. */
const HEAD_READ = 400;

/** The person's collection with this id, or null (gone, or not theirs). */
export async function ownCollection(userId: string, id: string, db: AppDb = appDb): Promise<CollectionRecord | null> {
  const found = await db.collections.get(id);
  return found && found.userId === userId ? found : null;
}

type Head = { items: GenerationRecord[]; total?: number };

/** The collection's newest among the person's HEAD_READ newest, and a hand-made one's size (its items counted). */
async function readHead(userId: string, collection: CollectionRecord, db: AppDb = appDb): Promise<Head> {
  if (collection.filter) {
    const newest = await newestGenerations(userId, HEAD_READ, db);
    return { items: filterGenerations(newest, userId, toGenerationFilter(collection.filter)) };
  }
  const [newest, keys] = await Promise.all([
    newestGenerations(userId, HEAD_READ, db),
    db.collectionItems.where("[userId+collectionId]").equals([userId, collection.id]).primaryKeys(),
  ]);
  const held = new Set(keys.map(([, generationId]) => generationId));
  return { items: newest.filter((r) => held.has(r.id)), total: held.size };
}

export type CollectionImages = {
  /** Newest first: the first screen's, then the whole list. */
  items: GenerationRecord[];
  /** How many it holds, when known before the whole list is read. */
  total?: number;
  /** Whether `items` is the whole list. */
  complete: boolean;
};

/** The collection's images, read live: undefined until there is something to draw. */
export function useCollectionImages(userId: string, collection: CollectionRecord): CollectionImages | undefined {
  // Read again when what it holds changes, or its filter does (a rename alone leaves the list as it is).
  const key = `${collection.id} ${JSON.stringify(collection.filter)}`;
  const head = useLiveQuery(
    () =>
      readHead(userId, collection).then((h) => {
        readTileImagesAhead(h.items.slice(0, 60).map((r) => r.id));
        return h;
      }),
    [userId, key],
  );
  const [readAllFor, setReadAllFor] = useState<string | null>(null);
  const headRead = head !== undefined;
  useEffect(() => (headRead ? afterTileImagesPainted(() => setReadAllFor(key)) : undefined), [headRead, key]);
  const all = useLiveQuery(
    () => (readAllFor === key ? collectionGenerations(userId, collection) : undefined),
    [userId, key, readAllFor],
  );
  if (all) return { items: all, total: all.length, complete: true };
  // A first screen with nothing in it may only mean its images are older: it waits for the whole list.
  if (head && (head.items.length > 0 || head.total === 0)) return { ...head, complete: false };
  return undefined;
}
