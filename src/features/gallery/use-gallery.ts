// The gallery's pages for one search: the first page loads when the query changes, "Load more"
// appends the next one after the cursor. A response for an older query is dropped, so quick
// typing never shows the results of a search the person already replaced.
import { useCallback, useEffect, useRef, useState } from "react";
import type { GalleryPage, PublishedRow } from "../../api/gallery";
import type { AppError } from "../../api/errors";
import type { Result } from "../../lib/result";

export const GALLERY_PAGE_SIZE = 24;

type PageResult = Result<GalleryPage, AppError>;

const firstPage = (q: string): Promise<PageResult> =>
  import("../../api/gallery").then((api) => api.listPublished({ q: q || undefined, limit: GALLERY_PAGE_SIZE }));

/**
 * When this module loads on /gallery itself (the page's code is loaded before it hydrates), the first
 * page is asked for at once: the list then arrives while the page hydrates instead of after it, which
 * on a slow phone is most of the wait for the first pictures. The first load of the same query takes
 * it, once, while it is fresh; a failed early request is simply made again.
 */
let early: { q: string; at: number; page: Promise<PageResult | null> } | null = null;
if (typeof window !== "undefined" && window.location.pathname.replace(/\/+$/, "") === "/gallery") {
  const q = new URLSearchParams(window.location.search).get("q")?.trim() ?? "";
  early = { q, at: Date.now(), page: firstPage(q).catch(() => null) };
}
const EARLY_FRESH_MS = 30_000;

async function takeEarly(q: string): Promise<PageResult | null> {
  const taken = early;
  early = null;
  if (!taken || taken.q !== q || Date.now() - taken.at >= EARLY_FRESH_MS) return null;
  const page = await taken.page;
  return page?.ok ? page : null;
}

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
      // The API client loads after the page has drawn (or, on /gallery itself, while it hydrates: see
      // `early`), keeping it out of the prerendered page's first load.
      const prefetched = before ? null : await takeEarly(q);
      const result: PageResult =
        prefetched ??
        (await (
          await import("../../api/gallery")
        ).listPublished({ q: q || undefined, before, limit: GALLERY_PAGE_SIZE }));
      if (id !== request.current) return;
      if (!result.ok) {
        setState((s) => ({ ...s, status: "error", error: result.error.message }));
        return;
      }
      const { rows, next } = result.value;
      setState((s) => ({
        rows: before ? [...s.rows, ...rows.filter((r) => !s.rows.some((o) => o.id === r.id))] : rows,
        next,
        status: "ready",
      }));
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
