// /history: everything the person generated, newest first, read live from this device (so it
// works offline), searchable by prompt words and filterable; a tile opens the large view. The whole
// list (records only, never image bytes) is read once and again only when it changes; search and
// filters run over it in memory, so a keystroke costs no database read (bench/history-bench.mjs).
import { useLiveQuery } from "dexie-react-hooks";
import { useDeferredValue, useMemo, useState } from "react";
import { Link } from "wouter";
import { listGenerations } from "../../db/queries";
import { filterGenerations } from "../../db/search";
import { useSession } from "../../state/session-store";
import { PageHeader } from "../../ui/page-header";
import { ConflictList } from "./conflict-list";
import { GenerationGrid } from "./generation-grid";
import { EMPTY_FILTERS, toSearchOptions, type HistoryFilters } from "./history-filters";
import { LibraryFilters } from "./library-filters";
import { OpenGeneration } from "./open-generation";
import { loadSafely } from "./load-safely";

export default function HistoryPage() {
  const userId = useSession().user?.id;
  const [filters, setFilters] = useState<HistoryFilters>(EMPTY_FILTERS);
  // Typing stays responsive: the search re-runs on the deferred value, never blocking a keystroke.
  const deferred = useDeferredValue(filters);
  const options = useMemo(() => toSearchOptions(deferred), [deferred]);
  const key = JSON.stringify(options);
  const all = useLiveQuery(() => (userId ? loadSafely(() => listGenerations(userId)) : undefined), [userId]);
  const loaded = useMemo(
    () => (all?.items && userId ? { items: filterGenerations(all.items, userId, options) } : all),
    [all, userId, options],
  );
  const [openId, setOpenId] = useState<string | null>(null);
  const filtered = key !== "{}";

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="History"
        lead="Everything you generated, newest first. It stays on this device for offline use."
      />
      {userId && <ConflictList userId={userId} />}
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
            <p role="status" className="mb-3 text-sm text-base-content/80">
              {loaded.items.length === 1 ? "1 generation" : `${loaded.items.length.toLocaleString()} generations`}
              {filtered ? " match" : ""}
            </p>
            {loaded.items.length > 0 ? (
              <GenerationGrid items={loaded.items} label="Your generations" onOpen={setOpenId} />
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
