// /history: everything the person generated, newest first, read live from this device (so it
// works offline), searchable by prompt words and filterable; a tile opens the large view. The whole
// list (records only, never image bytes) is read once and again only when it changes; search and
// filters run over it in memory, so a keystroke costs no database read (bench/history-bench.mjs).
import { useLiveQuery } from "dexie-react-hooks";
import { useDeferredValue, useEffect, useMemo, useState } from "react";
import { Link } from "wouter";
import { getPullFailure } from "../../db/pull-status";
import { countGenerations, listGenerations, newestGenerations } from "../../db/queries";
import { filterGenerations } from "../../db/search";
import { useSession } from "../../state/session-store";
import { clearUnseenFinished } from "../../state/toasts";
import { PageHeader } from "../../ui/page-header";
import { ConflictList } from "./conflict-list";
import { GenerationGrid } from "./generation-grid";
import { EMPTY_FILTERS, toSearchOptions, type HistoryFilters } from "./history-filters";
import { LibraryFilters } from "./library-filters";
import { OpenGeneration } from "./open-generation";
import { afterTileImagesPainted, readTileImagesAhead } from "../../sync/use-tile-image";
import { loadSafely, type Loaded } from "./load-safely";
import { useCompareSelection } from "../../lib/use-compare-selection";
import { CompareBar } from "../../ui/compare-bar";
import { useSelectionTools } from "../../ui/selection-tools";

/** How many of the newest are drawn first, from a small read, while the whole list is read. */
const FIRST_SCREENS = 60;

export default function HistoryPage() {
  const userId = useSession().user?.id;
  useEffect(clearUnseenFinished, []); // finished work is seen here: the tab count and app badge go
  const [filters, setFilters] = useState<HistoryFilters>(EMPTY_FILTERS);
  // Typing stays responsive: the search re-runs on the deferred value, never blocking a keystroke.
  const deferred = useDeferredValue(filters);
  const options = useMemo(() => toSearchOptions(deferred), [deferred]);
  const key = JSON.stringify(options);
  const filtered = key !== "{}";
  // The first screen comes from the newest few and an index count, read in one query (so they draw
  // together) before the whole list: IndexedDB answers one read after another, so a small read queued
  // behind the big one would wait for it. The head's thumbnails are asked for as soon as it is read, so
  // that read runs while the head renders. The whole list is read once the first screen and its
  // pictures are painted: its result is a long task to take in, which the first paint need not wait
  // for. Search and filters run over the whole list once it is in.
  const head = useLiveQuery(
    () =>
      userId
        ? Promise.all([
            loadSafely(() =>
              newestGenerations(userId, FIRST_SCREENS).then((items) => {
                readTileImagesAhead(items.map((r) => r.id));
                return items;
              }),
            ),
            // Without a count the head waits for the whole list, which counts itself.
            countGenerations(userId).catch(() => undefined),
          ]).then(([loaded, total]): Loaded & { total?: number } => ({ ...loaded, total }))
        : undefined,
    [userId],
  );
  const headRead = head !== undefined;
  const [readAll, setReadAll] = useState(false);
  useEffect(() => (headRead ? afterTileImagesPainted(() => setReadAll(true)) : undefined), [headRead]);
  const all = useLiveQuery(
    () => (userId && readAll ? loadSafely(() => listGenerations(userId)) : undefined),
    [userId, readAll],
  );
  const loaded = useMemo((): (Loaded & { total?: number }) | undefined => {
    if (all?.items && userId) return { items: filterGenerations(all.items, userId, options) };
    if (all) return all;
    if (filtered || !head || (head.items && head.total === undefined)) return undefined;
    return head;
  }, [all, userId, options, filtered, head]);
  const shown = loaded?.total ?? loaded?.items?.length ?? 0;
  const [openId, setOpenId] = useState<string | null>(null);
  // "Select to compare" (decision 156): ticking tiles for /compare; a tile's click still opens it.
  const compare = useCompareSelection();
  // What the app adds for the images picked (add them to a collection).
  const tools = useSelectionTools();
  // The server's copy could not be read (docs/spec.md §8: a history load failure is shown): said above the
  // list, which still shows everything this device holds.
  const pullFailure = useLiveQuery(() => (userId ? getPullFailure(userId) : null), [userId]);

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="History"
        lead="Everything you generated, newest first, on every device you sign in on. Thumbnails, saved images and your newest images stay on this device for offline use."
      />
      {userId && <ConflictList userId={userId} />}
      {pullFailure && (
        <div role="alert" className="alert alert-warning alert-soft mb-4 text-base-content">
          {pullFailure.message}
        </div>
      )}
      <LibraryFilters value={filters} onChange={setFilters} />
      <div className="mt-4">
        {loaded === undefined ? (
          <p role="status" className="py-10 text-center text-base-content/80">
            Loading your generations…
          </p>
        ) : loaded.error !== undefined ? (
          <div role="alert" className="alert alert-error alert-soft text-base-content">
            {loaded.error}
          </div>
        ) : (
          <>
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <p role="status" className="text-sm text-base-content/80">
                {shown === 1 ? "1 generation" : `${shown.toLocaleString()} generations`}
                {filtered ? " match" : ""}
              </p>
              {shown > 1 && !compare.selecting && (
                <button type="button" className="btn btn-ghost btn-sm" onClick={compare.start}>
                  Select to compare
                </button>
              )}
            </div>
            {compare.selecting && (
              <CompareBar ids={compare.ids} onCancel={compare.stop}>
                {tools.map((Tool, i) => (
                  <Tool key={i} generationIds={compare.ids} />
                ))}
              </CompareBar>
            )}
            {loaded.items.length > 0 ? (
              <GenerationGrid
                items={loaded.items}
                total={shown}
                label="Your generations"
                onOpen={setOpenId}
                selection={compare.grid}
              />
            ) : (
              <div className="rounded-box border border-dashed border-base-300 p-10 text-center">
                <p className="font-medium">{filtered ? "No generations match." : "Nothing here yet."}</p>
                {filtered ? (
                  <button type="button" className="btn btn-sm btn-ghost mt-3" onClick={() => setFilters(EMPTY_FILTERS)}>
                    Clear search and filters
                  </button>
                ) : (
                  <Link to="/generate" className="btn btn-sm btn-primary mt-3">
                    Generate your first image
                  </Link>
                )}
              </div>
            )}
          </>
        )}
      </div>
      {openId && <OpenGeneration id={openId} userId={userId} onClose={() => setOpenId(null)} />}
    </div>
  );
}
