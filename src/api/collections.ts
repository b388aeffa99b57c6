// The backend calls of the person's collections (decision 157): the outbox's upsert and delete of a
// collection, its adds and removes of images, and the catch-up's read of both tables whole. A refusal
// for a limit or a rule (the database's triggers, P0001) is `rejected` with the server's words, which the
// drain lists as a conflict; an add whose collection or image is gone on the server (the foreign key,
// 23503) is moot and counts as applied: the intent cannot hold, and nothing is left to tell.
import {
  COLLECTION_COLUMNS,
  COLLECTION_ITEM_COLUMNS,
  type CollectionItemRow,
  type CollectionRow,
} from "#shared/vocabulary/collections.ts";
import type { CollectionRecord } from "../db/schema";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";
import { writeFailure, type WriteFailure } from "./library";

/** What PostgREST answers with a refusal: its status, and the database's code and message. */
type Refusal = { error: { code?: string; message?: string } | null; status: number };

/** A refusal read for the drain; a rule or limit of the database's (P0001) keeps its own words. */
function failureOf({ error, status }: Refusal): WriteFailure {
  const failure = writeFailure(status, error);
  if (failure.kind === "rejected" && error?.code === "P0001" && error.message) {
    failure.error = { ...failure.error, message: error.message };
  }
  return failure;
}

async function guarded(run: () => Promise<Result<null, WriteFailure>>): Promise<Result<null, WriteFailure>> {
  try {
    return await run();
  } catch (e) {
    return err(writeFailure(0, e));
  }
}

/** Writes the collection as the device holds it (insert or update by id; a resend writes the same values). */
export function upsertCollection(collection: CollectionRecord): Promise<Result<null, WriteFailure>> {
  return guarded(async () => {
    const refusal = await supabase()
      .from("collections")
      .upsert(
        { id: collection.id, user_id: collection.userId, name: collection.name, filter: collection.filter },
        { onConflict: "id" },
      );
    return refusal.error ? err(failureOf(refusal)) : ok(null);
  });
}

/** Deletes the collection (its items go with it); one already gone is success (the intent holds). */
export function deleteCollectionRow(id: string): Promise<Result<null, WriteFailure>> {
  return guarded(async () => {
    const refusal = await supabase().from("collections").delete().eq("id", id);
    return refusal.error ? err(failureOf(refusal)) : ok(null);
  });
}

/** Items sent per request (their ids go in the body; a request stays small). */
const ITEMS_PER_REQUEST = 500;

const GONE = "23503";

type ItemInsert = Pick<CollectionItemRow, "collection_id" | "generation_id" | "user_id" | "added_at">;

function insertItems(rows: ItemInsert[]): PromiseLike<Refusal> {
  return supabase()
    .from("collection_items")
    .upsert(rows, { onConflict: "collection_id,generation_id", ignoreDuplicates: true });
}

/**
 * Adds images to a collection (an image already in it is left: a resend adds nothing). When the collection
 * or one of the images is gone on the server, what can still be added is, one by one, and the rest is moot.
 */
export function addCollectionItems(
  userId: string,
  collectionId: string,
  generationIds: readonly string[],
  addedAt: string,
): Promise<Result<null, WriteFailure>> {
  return guarded(async () => {
    const rows = generationIds.map((generation_id): ItemInsert => ({
      collection_id: collectionId,
      generation_id,
      user_id: userId,
      added_at: addedAt,
    }));
    for (let i = 0; i < rows.length; i += ITEMS_PER_REQUEST) {
      const chunk = rows.slice(i, i + ITEMS_PER_REQUEST);
      const refusal = await insertItems(chunk);
      if (!refusal.error) continue;
      if (refusal.error.code !== GONE) return err(failureOf(refusal));
      // Which of them is gone the refusal does not say reliably: each is sent alone, the gone ones left.
      for (const row of chunk.length > 1 ? chunk : []) {
        const alone = await insertItems([row]);
        if (alone.error && alone.error.code !== GONE) return err(failureOf(alone));
      }
    }
    return ok(null);
  });
}

/** Takes images out of a collection; those not in it (or a collection gone) are success. */
export function removeCollectionItems(
  collectionId: string,
  generationIds: readonly string[],
): Promise<Result<null, WriteFailure>> {
  return guarded(async () => {
    for (let i = 0; i < generationIds.length; i += ITEMS_PER_REQUEST) {
      const refusal = await supabase()
        .from("collection_items")
        .delete()
        .eq("collection_id", collectionId)
        .in("generation_id", generationIds.slice(i, i + ITEMS_PER_REQUEST));
      if (refusal.error) return err(failureOf(refusal));
    }
    return ok(null);
  });
}

/** Rows read per request by the catch-up. */
const COLLECTIONS_PAGE_SIZE = 1000;

/** Every row of one of the person's tables, page by page in key order. */
async function readAll<T>(
  page: (from: number, to: number) => PromiseLike<{ data: unknown[] | null; error: unknown }>,
): Promise<Result<T[], AppError>> {
  const rows: T[] = [];
  for (let from = 0; ; from += COLLECTIONS_PAGE_SIZE) {
    const { data, error } = await page(from, from + COLLECTIONS_PAGE_SIZE - 1);
    if (error) return err(toAppError(error));
    rows.push(...((data ?? []) as T[]));
    if ((data ?? []).length < COLLECTIONS_PAGE_SIZE) return ok(rows);
  }
}

/** The person's collections and the items of the hand-made ones, whole (a few hundred and a few thousand rows). */
export async function fetchCollections(
  userId: string,
): Promise<Result<{ collections: CollectionRow[]; items: CollectionItemRow[] }, AppError>> {
  try {
    const collections = await readAll<CollectionRow>((from, to) =>
      supabase().from("collections").select(COLLECTION_COLUMNS).eq("user_id", userId).order("id").range(from, to),
    );
    if (!collections.ok) return collections;
    const items = await readAll<CollectionItemRow>((from, to) =>
      supabase()
        .from("collection_items")
        .select(COLLECTION_ITEM_COLUMNS)
        .eq("user_id", userId)
        .order("collection_id")
        .order("generation_id")
        .range(from, to),
    );
    return items.ok ? ok({ collections: collections.value, items: items.value }) : items;
  } catch (e) {
    return err(toAppError(e));
  }
}
