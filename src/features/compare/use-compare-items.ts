// The images a comparison names, each found where it lives: the person's own generations in this
// device's library (Dexie, read live by id, so they compare offline and one arriving from the server
// shows as soon as the library has it), anything else in the public gallery (online only, read as the
// current role, so a visitor compares published images too). Only these few rows are read: the size of
// the library does not slow the page (bench/compare-bench.mjs).
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import type { PublishedRow } from "../../api/gallery";
import { getGeneration } from "../../db/queries";
import type { GenerationRecord } from "../../db/schema";
import { recipeFromRow } from "../../lib/generation-recipe";
import { useOnline } from "../../lib/use-online";
import type { ComparedRecipe } from "./recipe-diff";

export type CompareItem =
  | { id: string; status: "loading" }
  | { id: string; status: "missing"; message: string }
  | { id: string; status: "ready"; source: "library"; recipe: ComparedRecipe; record: GenerationRecord }
  | { id: string; status: "ready"; source: "gallery"; recipe: ComparedRecipe; row: PublishedRow };

export type ReadyItem = Extract<CompareItem, { status: "ready" }>;

type Found = { row: PublishedRow | null } | { error: string };

const NOT_FOUND = "Not in your library on this device, nor in the gallery.";
const NEEDS_CONNECTION = "Not on this device: it can be looked up in the gallery when you are back online.";

/** Each id's rows from the gallery, asked for once per id while online. */
function useGalleryRows(ids: readonly string[], online: boolean): Record<string, Found> {
  const [found, setFound] = useState<Record<string, Found>>({});
  const wanted = ids.filter((id) => !(id in found));
  const key = wanted.join(",");
  useEffect(() => {
    if (!key || !online) return;
    let live = true;
    const asked = key.split(",");
    void import("../../api/gallery")
      .then(({ getPublished }) => Promise.all(asked.map((id) => getPublished(id))))
      .then((results) => results.map((r): Found => (r.ok ? { row: r.value } : { error: r.error.message })))
      .catch(() => asked.map((): Found => ({ error: ERROR_CATALOGUE.network_error.message })))
      .then((results) => {
        if (live) setFound((prev) => ({ ...prev, ...Object.fromEntries(asked.map((id, i) => [id, results[i]])) }));
      });
    return () => {
      live = false;
    };
  }, [key, online]);
  return found;
}

/** A published row's recipe, with what it varies when it is a variation. */
function galleryRecipe(row: PublishedRow): ComparedRecipe {
  const recipe = recipeFromRow(row);
  return row.parent_id && row.variation ? { ...recipe, variation: { of: row.parent_id, kind: row.variation } } : recipe;
}

export function useCompareItems(ids: readonly string[], userId: string | undefined): CompareItem[] {
  const key = ids.join(",");
  // One read by primary key per id; null for an id this device's library does not hold for this person.
  const own = useLiveQuery(
    () =>
      Promise.all(key.split(",").map((id) => (id ? getGeneration(id) : undefined))).then((records) =>
        records.map((r) => (r && userId && r.userId === userId ? r : null)),
      ),
    [key, userId],
  );
  const online = useOnline();
  const elsewhere = own ? ids.filter((_, i) => !own[i]) : [];
  const gallery = useGalleryRows(elsewhere, online);
  return ids.map((id, i): CompareItem => {
    const record = own?.[i];
    if (own === undefined) return { id, status: "loading" };
    if (record) return { id, status: "ready", source: "library", recipe: record, record };
    const found = gallery[id];
    if (!found) return online ? { id, status: "loading" } : { id, status: "missing", message: NEEDS_CONNECTION };
    if ("error" in found) return { id, status: "missing", message: found.error };
    return found.row
      ? { id, status: "ready", source: "gallery", recipe: galleryRecipe(found.row), row: found.row }
      : { id, status: "missing", message: NOT_FOUND };
  });
}
