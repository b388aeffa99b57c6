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

/** A collection read with its first screen: the collection's newest among the person's HEAD_READ newest. */
export type CollectionWithHead = { collection: CollectionRecord; head: Head };

/**
 * The person's collection with this id and its first screen, read together (the collection, the person's
 * newest records and a hand-made collection's item keys in one go, none waiting for another), or null when
 * there is no such collection of theirs. A hand-made one's size comes with it (its items counted).
 */
export async function readCollectionHead(
  userId: string,
  id: string,
  db: AppDb = appDb,
): Promise<CollectionWithHead | null> {
  const [collection, newest, keys] = await Promise.all([
    ownCollection(userId, id, db),
    newestGenerations(userId, HEAD_READ, db),
    db.collectionItems.where("[userId+collectionId]").equals([userId, id]).primaryKeys(),
  ]);
  if (!collection) return null;
  if (collection.filter) {
    return { collection, head: { items: filterGenerations(newest, userId, toGenerationFilter(collection.filter)) } };
  }
  const held = new Set(keys.map(([, generationId]) => generationId));
  return { collection, head: { items: newest.filter((r) => held.has(r.id)), total: held.size } };
}

/** readCollectionHead, live, with the first screen's pictures asked for at once: undefined while it reads. */
export function useCollectionHead(userId: string | undefined, id: string): CollectionWithHead | null | undefined {
  return useLiveQuery(
    () =>
      userId
        ? readCollectionHead(userId, id).then((read) => {
            if (read) readTileImagesAhead(read.head.items.slice(0, 60).map((r) => r.id));
            return read;
          })
        : undefined,
    [userId, id],
  );
}

export type CollectionImages = {
  /** Newest first: the first screen's, then the whole list. */
  items: GenerationRecord[];
  /** How many it holds, when known before the whole list is read. */
  total?: number;
  /** Whether `items` is the whole list. */
  complete: boolean;
};

/**
 * The collection's images, read live: its first screen (`head`, read with the collection), then, once those
 * pictures are painted, its whole list; undefined until there is something to draw.
 */
export function useCollectionImages(
  userId: string,
  { collection, head }: CollectionWithHead,
): CollectionImages | undefined {
  // Read again when what it holds changes, or its filter does (a rename alone leaves the list as it is).
  const key = `${collection.id} ${JSON.stringify(collection.filter)}`;
  const [readAllFor, setReadAllFor] = useState<string | null>(null);
  useEffect(() => afterTileImagesPainted(() => setReadAllFor(key)), [key]);
  const all = useLiveQuery(
    () => (readAllFor === key ? collectionGenerations(userId, collection) : undefined),
    [userId, key, readAllFor],
  );
  if (all) return { items: all, total: all.length, complete: true };
  // A first screen with nothing in it may only mean its images are older: it waits for the whole list.
  if (head.items.length > 0 || head.total === 0) return { ...head, complete: false };
  return undefined;
}
