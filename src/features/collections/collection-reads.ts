// What a collection's page reads, first screen first (issue 46 point 5: its first screen in <= 100 ms with
// 10,000 generations on the device). The whole list of a collection takes a while to read (a hand-made one's
// records one key at a time, a smart one's filter over every record), so the page draws first from a small
// read: the person's newest few hundred records, kept where they belong to the collection, which are the
// collection's newest too, in order. The whole list is read once those are on screen (as History does,
// bench/collections-bench.mjs has the figures). A click on a collection's link starts that small read at
// once (warmCollectionHead), so it runs while the page's code renders, and the page's first render can
// draw from it; the page's live read follows. A collection's card reads its preview the same small way.
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

/** The person's newest records and a hand-made collection's item keys: what a first screen is drawn from. */
function headReads(userId: string, id: string, db: AppDb) {
  return [
    newestGenerations(userId, HEAD_READ, db),
    db.collectionItems.where("[userId+collectionId]").equals([userId, id]).primaryKeys(),
  ] as const;
}

/** A collection's first screen from its reads: a smart one's filter over the newest, or a hand-made one's items. */
function headOf(
  userId: string,
  collection: CollectionRecord,
  newest: GenerationRecord[],
  keys: [string, string][],
): Head {
  if (collection.filter) return { items: filterGenerations(newest, userId, toGenerationFilter(collection.filter)) };
  const held = new Set(keys.map(([, generationId]) => generationId));
  return { items: newest.filter((r) => held.has(r.id)), total: held.size };
}

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
  const [collection, newest, keys] = await Promise.all([ownCollection(userId, id, db), ...headReads(userId, id, db)]);
  return collection ? { collection, head: headOf(userId, collection, newest, keys) } : null;
}

/**
 * The newest image of a collection (a smart one's newest match), or null when it holds none: from the
 * person's newest records when it has one among them, else from its whole list.
 */
export async function newestInCollection(
  userId: string,
  collection: CollectionRecord,
  db: AppDb = appDb,
): Promise<GenerationRecord | null> {
  const head = headOf(userId, collection, ...(await Promise.all(headReads(userId, collection.id, db))));
  if (head.items.length > 0 || head.total === 0) return head.items[0] ?? null;
  return (await collectionGenerations(userId, collection, db))[0] ?? null;
}

/** readCollectionHead, with the first screen's pictures asked for at once. */
function readHeadAhead(userId: string, id: string): Promise<CollectionWithHead | null> {
  return readCollectionHead(userId, id).then((read) => {
    if (read) readTileImagesAhead(read.head.items.slice(0, 60).map((r) => r.id));
    return read;
  });
}

/** How long a read started by a click waits for its page's own read before it is forgotten. */
const WARM_FOR_MS = 5_000;
/** Reads started by a click on a collection's link, by person and collection, with their answer once in. */
const warm = new Map<string, { read: Promise<CollectionWithHead | null>; value?: CollectionWithHead | null }>();

/** Starts reading a collection's first screen now (a click on its link), for its page to draw from. */
export function warmCollectionHead(userId: string, id: string): Promise<CollectionWithHead | null> {
  const key = `${userId} ${id}`;
  const started = warm.get(key);
  if (started) return started.read;
  const entry: { read: Promise<CollectionWithHead | null>; value?: CollectionWithHead | null } = {
    read: readHeadAhead(userId, id),
  };
  warm.set(key, entry);
  entry.read.then(
    (value) => (entry.value = value),
    () => warm.delete(key),
  );
  setTimeout(() => warm.delete(key), WARM_FOR_MS);
  return entry.read;
}

/** What a click's read answered for this collection, as soon as it answers (undefined until then, or without one). */
function useWarmHead(userId: string | undefined, id: string): CollectionWithHead | null | undefined {
  const entry = userId ? warm.get(`${userId} ${id}`) : undefined;
  const [answered, setAnswered] = useState<{ entry: typeof entry; value: CollectionWithHead | null }>();
  useEffect(() => {
    if (!entry || entry.value !== undefined) return;
    let live = true;
    void entry.read.then(
      (value) => live && setAnswered({ entry, value }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [entry]);
  if (entry?.value !== undefined) return entry.value;
  return answered?.entry === entry ? answered?.value : undefined;
}

/**
 * readCollectionHead, live, with the first screen's pictures asked for at once: undefined while it reads. Until
 * the live read answers, a click's read (warmCollectionHead) stands in for it.
 */
export function useCollectionHead(userId: string | undefined, id: string): CollectionWithHead | null | undefined {
  const warmed = useWarmHead(userId, id);
  const live = useLiveQuery(() => (userId ? readHeadAhead(userId, id) : undefined), [userId, id]);
  // Once the live read answers, the click's read is done with: the next click reads afresh.
  const answered = live !== undefined;
  useEffect(() => {
    if (answered && userId) warm.delete(`${userId} ${id}`);
  }, [answered, userId, id]);
  return live === undefined ? warmed : live;
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
