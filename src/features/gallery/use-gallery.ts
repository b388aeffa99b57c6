// The gallery's pages for one search: the first page loads when the query changes, "Load more"
// appends the next one after the cursor. A response for an older query is dropped, so quick
// typing never shows the results of a search the person already replaced.
import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import type { PublishedRow } from "../../api/gallery";
import { pageOf } from "../../api/gallery-pages";
import { isOnline } from "../../lib/online";
import { holdSettled } from "../../lib/page-settled";
import { useOnline } from "../../lib/use-online";
import { ok } from "../../lib/result";
import { firstPage, firstPageUsed } from "./first-screen";

export const GALLERY_PAGE_SIZE = 24;

type PageResult = Awaited<ReturnType<typeof import("../../api/gallery").listPublished>>;

/** The first page as the prerendered page's inline script fetched it, when it did (see first-screen.ts). */
function firstScreenPage(q: string): Promise<PageResult> | null {
  const rows = firstPage(q);
  return rows && rows.then((found) => (found ? ok(pageOf(found, GALLERY_PAGE_SIZE)) : askFor(q, undefined)));
}

function askFor(q: string, before: string | undefined): Promise<PageResult> {
  return import("../../api/gallery").then(({ listPublished }) =>
    listPublished({ q: q || undefined, before, limit: GALLERY_PAGE_SIZE }),
  );
}

export type GalleryState = {
  rows: PublishedRow[];
  next?: string;
  status: "loading" | "ready" | "error";
  error?: string;
};

/** What the page shows: "offline" while there is no connection to ask the backend with. */
export type GalleryStatus = GalleryState["status"] | "offline";

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
      // The API client is a chunk of its own, kept out of the home page's first load (a prerendered
      // /gallery's first page comes from its inline script instead). Its failing to load (offline before it
      // was cached) reads as a network error.
      const asked = ((!before && firstScreenPage(q)) || askFor(q, before)).catch(() => ({
        ok: false as const,
        error: { message: ERROR_CATALOGUE.network_error.message },
      }));
      // The first page is what the visitor came for: the page has not settled until it is in.
      if (!before) holdSettled(asked);
      const result = await asked;
      if (id !== request.current) return;
      if (!before) firstPageUsed();
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

  // Published rows are not kept on the device: offline, the first page waits for the connection (a
  // request then is certain to fail) and is asked for once it is back; pages already shown stay.
  const online = useOnline();
  const asked = useRef<typeof load | null>(null);
  useEffect(() => {
    // The hook's first value during hydration is the server's (online): ask the browser itself too.
    if (!enabled || !online || !isOnline() || asked.current === load) return;
    asked.current = load;
    void load(undefined);
  }, [enabled, online, load]);

  const loadMore = useCallback(() => {
    if (online && state.next && state.status !== "loading") void load(state.next);
  }, [load, online, state.next, state.status]);

  /** Tries again from where it failed: the next page when some rows are in, else the first. */
  const retry = useCallback(() => {
    if (online) void load(state.rows.length ? state.next : undefined);
  }, [load, online, state.rows.length, state.next]);

  /** Takes a row off the page at once (the person reported it; the server leaves it out of their reads from now on). */
  const hide = useCallback((id: string) => {
    setState((s) => ({ ...s, rows: s.rows.filter((r) => r.id !== id) }));
  }, []);

  // Nothing asked for yet (or the last ask failed) and no connection: the page says it needs one.
  const status: GalleryStatus = !online && state.status !== "ready" ? "offline" : state.status;
  return { ...state, status, online, loadMore, retry, hide };
}
