// The gallery's pages for one search: the first page loads when the query changes, "Load more"
// appends the next one after the cursor. A response for an older query is dropped, so quick
// typing never shows the results of a search the person already replaced.
import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import type { PublishedRow } from "../../api/gallery";

export const GALLERY_PAGE_SIZE = 24;

export type GalleryState = {
  rows: PublishedRow[];
  next?: string;
  status: "loading" | "ready" | "error";
  error?: string;
};

export function useGallery(q: string, enabled: boolean) {
  const [state, setState] = useState<GalleryState>({ rows: [], status: "loading" });
  const request = useRef(0);

  const load = useCallback(
    async (before: string | undefined) => {
      const id = ++request.current;
      setState((s) => ({
        ...s,
        status: "loading",
        error: undefined,
        ...(before ? {} : { rows: [], next: undefined }),
      }));
      // The API client loads after the page has drawn, keeping it out of the prerendered page's first load.
      const { listPublished } = await import("../../api/gallery");
      const result = await listPublished({ q: q || undefined, before, limit: GALLERY_PAGE_SIZE });
      if (id !== request.current) return;
      if (!result.ok) {
        setState((s) => ({ ...s, status: "error", error: result.error.message }));
        return;
      }
      const { rows, next } = result.value;
      // A transition: a page of tiles is drawn in short slices, keeping the page responsive meanwhile.
      startTransition(() =>
        setState((s) => ({
          rows: before ? [...s.rows, ...rows.filter((r) => !s.rows.some((o) => o.id === r.id))] : rows,
          next,
          status: "ready",
        })),
      );
    },
    [q],
  );

  useEffect(() => {
    if (enabled) void load(undefined);
  }, [enabled, load]);

  const loadMore = useCallback(() => {
    if (state.next && state.status !== "loading") void load(state.next);
  }, [load, state.next, state.status]);

  /** Tries again from where it failed: the next page when some rows are in, else the first. */
  const retry = useCallback(
    () => void load(state.rows.length ? state.next : undefined),
    [load, state.rows.length, state.next],
  );

  return { ...state, loadMore, retry };
}
