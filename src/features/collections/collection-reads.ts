// What a collection's page reads, first screen first (issue 46 point 5: its first screen in <= 100 ms with
// 10,000 generations on the device). The whole list of a collection takes a while to read (a hand-made one's
// records one key at a time, a smart one's filter over every record), so the page draws first from a small
// read: the person's newest few hundred records, kept where they belong to the collection, which are the
// collection's newest too, in order. The whole list is read once those are on screen (as History does,
// bench/collections-bench.mjs has the figures). Opened from its card on /collections, whose preview read
// the whole list a moment before, the page draws from that list at once (decision 166) and reads the
// collection itself alone before the whole list again.
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useMemo, useState } from "react";
import { collectionGenerations } from "../../db/collections";
import { db as appDb, type AppDb } from "../../db/db";
import { newestGenerations } from "../../db/queries";
import type { CollectionRecord, GenerationRecord } from "../../db/schema";
import { filterGenerations, toGenerationFilter } from "../../db/search";
import { whenIdle } from "../../lib/schedule";
import { afterTileImagesPainted, readTileImagesAhead } from "../../sync/use-tile-image";

/** How many of the person's newest records the first screen is drawn from. */
const HEAD_READ = 400;

/** The person's collection with this id, or null (gone, or not theirs). */
export async function ownCollection(userId: string, id: string, db: AppDb = appDb): Promise<CollectionRecord | null> {
  const found = await db.collections.get(id);
  return found && found.userId === userId ? found : null;
}

/** A first screen: its records, the collection's size when known, and whether the records are all of it. */
type Head = { items: GenerationRecord[]; total?: number; whole?: boolean };

/** How long a card's list stays held once its card is gone: long enough for the page its link opened. */
const HELD_AFTER_CARD_MS = 2000;

/** Each card's whole list as last read, by collection id, while the card shows (and briefly after). */
const cardLists = new Map<string, { userId: string; collection: CollectionRecord; items: GenerationRecord[] }>();

/**
 * A collection's whole list, newest first, as its card on /collections reads it for its preview: held, so
 * the collection's page opened from the card draws it without reading it again.
 */
export async function readCardList(userId: string, collection: CollectionRecord): Promise<GenerationRecord[]> {
  const items = await collectionGenerations(userId, collection);
  cardLists.set(collection.id, { userId, collection, items });
  return items;
}

/** The card is gone: its list is let go once the page it opened has taken it. */
export function releaseCardList(id: string): void {
  const entry = cardLists.get(id);
  setTimeout(() => {
    if (cardLists.get(id) === entry) cardLists.delete(id);
  }, HELD_AFTER_CARD_MS);
}

/** The whole list a card holds of this person's collection, as a first screen. */
function heldHead(userId: string | undefined, id: string): CollectionWithHead | undefined {
  const entry = cardLists.get(id);
  if (!entry || entry.userId !== userId) return undefined;
  return { collection: entry.collection, head: { items: entry.items, total: entry.items.length, whole: true } };
}

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

/**
 * readCollectionHead, live, with the first screen's pictures asked for at once: undefined while it reads.
 * When the card the page was opened from holds the whole list, that list is the first screen, shown at
 * once, and the collection alone is read live (renamed, its filter changed, or deleted).
 */
export function useCollectionHead(userId: string | undefined, id: string): CollectionWithHead | null | undefined {
  const fromCard = useMemo(() => heldHead(userId, id), [userId, id]);
  return useLiveQuery(
    () => {
      if (!userId) return undefined;
      // The card's list holds while the collection's filter is the one it was read with.
      if (fromCard) {
        return ownCollection(userId, id).then((collection) =>
          collection && JSON.stringify(collection.filter) !== JSON.stringify(fromCard.collection.filter)
            ? readCollectionHead(userId, id)
            : collection && { ...fromCard, collection },
        );
      }
      return readCollectionHead(userId, id).then((read) => {
        if (read) readTileImagesAhead(firstScreenIds(read.head.items));
        return read;
      });
    },
    [userId, id, fromCard],
    fromCard,
  );
}

/** The ids of a first screen's records, whose pictures are read together. */
export const firstScreenIds = (items: readonly GenerationRecord[]) => items.slice(0, 60).map((r) => r.id);

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
  // A whole list from the card is read again (to follow changes) once the page is idle: the first screen's
  // pictures and the rows around it come first.
  const whole = head.whole === true;
  useEffect(() => {
    let cancelIdle: (() => void) | undefined;
    const cancel = afterTileImagesPainted(() => {
      if (whole) cancelIdle = whenIdle(() => setReadAllFor(key), { timeoutMs: 2000 });
      else setReadAllFor(key);
    });
    return () => {
      cancel();
      cancelIdle?.();
    };
  }, [key, whole]);
  const all = useLiveQuery(
    () => (readAllFor === key ? collectionGenerations(userId, collection) : undefined),
    [userId, key, readAllFor],
  );
  if (all) return { items: all, total: all.length, complete: true };
  if (head.whole) return { items: head.items, total: head.items.length, complete: true };
  // A first screen with nothing in it may only mean its images are older: it waits for the whole list.
  if (head.items.length > 0 || head.total === 0) return { ...head, complete: false };
  return undefined;
}
