// The gallery's pages for one search: the first page loads when the query changes, "Load more"
// appends the next one after the cursor. A response for an older query is dropped, so quick
// typing never shows the results of a search the person already replaced.
import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import type { PublishedRow } from "../../api/gallery";

export const GALLERY_PAGE_SIZE = 24;

type FirstPage = ReturnType<typeof import("../../api/gallery").listPublished>;

// The first page is asked for as soon as this module runs, which is while a prerendered /gallery
// hydrates (the page waits for its code first), not once the page has drawn and its effect runs: on a
// slow line that is the API client's download and a round trip earlier. The page takes it if it asks
// for the same search within a few seconds; otherwise it asks again.
const EARLY_PAGE_MAX_AGE_MS = 10_000;
let early: { q: string; at: number; page: FirstPage } | null = null;

function askEarly() {
  if (typeof window === "undefined" || window.location.pathname.replace(/\/+$/, "") !== "/gallery") return;
  const q = new URLSearchParams(window.location.search).get("q")?.trim() ?? "";
  const page = import("../../api/gallery").then(({ listPublished }) =>
    listPublished({ q: q || undefined, limit: GALLERY_PAGE_SIZE }),
  );
  // A failure here (offline, the chunk missing) is the page's to report when it takes this answer.
  page.catch(() => undefined);
  early = { q, at: Date.now(), page };
}
askEarly();

/** The early answer for the first page of `q`, once. */
function takeEarly(q: string): FirstPage | null {
  const found = early;
  early = null;
  return found && found.q === q && Date.now() - found.at < EARLY_PAGE_MAX_AGE_MS ? found.page : null;
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
      // The API client is a chunk of its own, kept out of the home page's first load (the prerendered
      // /gallery preloads it). Its failing to load (offline before it was cached) reads as a network error.
      const result = await (
        (!before && takeEarly(q)) ||
        import("../../api/gallery").then(({ listPublished }) =>
          listPublished({ q: q || undefined, before, limit: GALLERY_PAGE_SIZE }),
        )
      ).catch(() => ({ ok: false as const, error: { message: ERROR_CATALOGUE.network_error.message } }));
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
