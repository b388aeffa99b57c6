// The gallery's first screen, fetched before the app's code arrives. The prerendered /gallery carries
// `startFirstScreen` as an inline script (scripts/prerender.mjs writes it in): as soon as the runtime
// configuration is in, it asks the backend for the first page of published rows, and when they come it
// asks for the thumbnails of the tiles that fit on this screen, at the size the prerendered placeholder
// tiles are drawn. Each thumbnail is drawn into its placeholder tile as soon as it arrives, so the
// visitor sees the pictures while the app's code is still on its way; the page then takes these answers
// once (firstPage, firstImageUrl, firstImage) instead of asking again, and its tiles show the same object
// URLs, so the pictures stay where they are when the page goes live. The largest paint waits for two
// round trips, not for the app's code and hydration as well.
//
// The requests are the ones supabase-js makes (see listPublished and loadPublishedImage), as a visitor:
// the anon key, so the same policies decide (published rows and their images only; an unpublished image
// is refused). Nothing here is required: whatever fails or does not match is simply asked for again. A
// page with a session stored asks nothing here: a visitor's answer would show the person images they
// reported, which their own reads leave out.
import type { PublishedRow } from "../../api/gallery";

/** The prerendered placeholder tiles, in order: the first screen measures them to size its thumbnails. */
export const FIRST_SCREEN_PLACEHOLDERS = "#root [data-gallery-placeholder]";

/** What the inline script leaves on window for the page. */
export type FirstScreen = {
  /** The search it answered (the URL's `q`, trimmed), and when it started (Date.now()). */
  q: string;
  at: number;
  /** The first `limit` rows (one more than a page, to tell whether another exists); null on any failure. */
  rows: Promise<PublishedRow[] | null>;
  /** Thumbnails by image path: the side asked for, the bytes (null on failure) and, once they are in, their object URL. */
  images: Record<string, FirstImage>;
};

export type FirstImage = { side: number; blob: Promise<Blob | null>; url?: string };

declare global {
  interface Window {
    __GALLERY_FIRST_SCREEN__?: FirstScreen;
  }
}

export type FirstScreenOptions = {
  /** The backend the build was made for (the runtime /app-config.js wins when it names one). */
  supabaseUrl: string;
  supabaseAnonKey: string;
  columns: string;
  bucket: string;
  /** Rows to ask for: a page and one more. */
  limit: number;
  /** The Accept header of a thumbnail request (THUMBNAIL_ACCEPT: WebP where the Storage API can). */
  accept: string;
  /** The thumbnail sides the Storage API is asked for (TILE_SIDES), smallest first. */
  sides: readonly number[];
  /** Selects the prerendered placeholder tiles, in order. */
  placeholders: string;
};

/**
 * Runs in the page as an inline script, so it must be self-contained: it uses nothing but its argument
 * and the browser (it is serialized with Function.prototype.toString).
 */
export function startFirstScreen(options: FirstScreenOptions): void {
  const w = window;
  // Offline the request is certain to fail: the page asks once the connection is back (use-gallery.ts).
  // This script can import nothing, so it reads navigator.onLine itself rather than src/lib/online.ts.
  if (!w.fetch || !w.Promise || !document.querySelector || !navigator.onLine) return;
  const q = (new URLSearchParams(location.search).get("q") || "").trim();

  function run() {
    const runtime = w.__APP_CONFIG__ || {};
    const url = String(runtime.supabaseUrl || options.supabaseUrl || "").replace(/\/+$/, "");
    const key = String(runtime.supabaseAnonKey || options.supabaseAnonKey || "");
    if (!url || !key) return;
    // Someone signed in on this device sees a gallery without the images they reported, which only a
    // request with their session leaves out: the page asks for it as them (use-gallery.ts). The key is
    // the one supabase-js stores the session (or its hint) under, authStorageKey in api/config.ts,
    // written out here: this script can import nothing.
    try {
      if (w.localStorage.getItem(`sb-${new URL(url).hostname.split(".")[0]}-auth-token`)) return;
    } catch {
      // No storage to read (blocked): ask as a visitor, as before.
    }
    const headers: Record<string, string> = { apikey: key, Authorization: `Bearer ${key}` };
    const columns = encodeURIComponent(options.columns);
    const request = q
      ? fetch(`${url}/rest/v1/rpc/search_gallery?select=${columns}`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({ p_query: q, p_before: null, p_before_id: null, p_limit: options.limit }),
        })
      : fetch(
          `${url}/rest/v1/generations?select=${columns}&is_public=eq.true&order=created_at.desc,id.desc&limit=${options.limit}`,
          { headers },
        );
    const images: FirstScreen["images"] = {};
    const rows = request
      .then((res) => (res.ok ? (res.json() as Promise<PublishedRow[]>) : null))
      .then((found) => {
        if (!Array.isArray(found)) return null;
        // The tiles that fit on this screen: the placeholders still drawn where they will stand.
        const tiles = document.querySelectorAll(options.placeholders);
        const ratio = Math.max(1, w.devicePixelRatio || 1);
        for (let i = 0; i < found.length && i < tiles.length; i++) {
          const box = tiles[i].getBoundingClientRect();
          if (box.width <= 0 || box.top >= w.innerHeight || box.bottom <= 0) continue;
          // tileSide (use-published-image.ts), written out here: this script can import nothing. The
          // width is the one the picture fills (inside the tile's border), as the page's tile measures it,
          // so both ask for the same side and the page can use this answer.
          const needed = Math.ceil((tiles[i] as HTMLElement).clientWidth * ratio);
          let side = options.sides[options.sides.length - 1];
          for (const s of options.sides) {
            if (s >= needed) {
              side = s;
              break;
            }
          }
          const tile = tiles[i] as HTMLElement;
          const path = found[i].image_path;
          const target = `${url}/storage/v1/render/image/authenticated/${options.bucket}/${path
            .split("/")
            .map(encodeURIComponent)
            .join("/")}?width=${side}&height=${side}&resize=cover&quality=75`;
          const image: FirstImage = {
            side,
            blob: fetch(target, { headers: { ...headers, Accept: options.accept } })
              .then((res) => (res.ok ? res.blob() : null))
              .catch(() => null),
          };
          images[path] = image;
          void image.blob.then((blob) => {
            if (!blob) return;
            image.url = URL.createObjectURL(blob);
            // Drawn into the placeholder when React will hydrate this markup (an address with a query
            // string is drawn afresh instead, which would only wipe the picture); React leaves the
            // style attribute alone and removes the placeholder when the tiles take its place.
            if (location.search || !tile.isConnected) return;
            tile.style.backgroundImage = `url("${image.url}")`;
            tile.style.backgroundSize = "cover";
            tile.style.backgroundPosition = "center";
            tile.style.backgroundOrigin = "border-box";
          });
        }
        return found;
      })
      .catch(() => null);
    w.__GALLERY_FIRST_SCREEN__ = { q, at: Date.now(), rows, images };
  }

  // /app-config.js (a deferred script, so it runs once the document is parsed) may name the backend; wait
  // for it when the page has one, as the app does.
  const config = document.querySelector('script[src="/app-config.js"]');
  if (config && !w.__APP_CONFIG__) {
    config.addEventListener("load", run);
    config.addEventListener("error", run);
  } else {
    run();
  }
}

/** How long the first screen's answers stay usable: a page that asks later asks again. */
const MAX_AGE_MS = 10_000;

function current(): FirstScreen | undefined {
  return typeof window === "undefined" ? undefined : window.__GALLERY_FIRST_SCREEN__;
}

// The answers are looked at, and let go of once used, in two steps: React runs a new page's effects twice in
// development, and the first run's answer is dropped, so looking must not use an answer up.

/** The first screen's rows for the search `q`, while they are fresh and not yet used (else null). */
export function firstPage(q: string): Promise<PublishedRow[] | null> | null {
  const found = current();
  return found && found.q === q && Date.now() - found.at <= MAX_AGE_MS ? found.rows : null;
}

/** The page has shown the first page: a later search, or a return to the page, asks the backend again. */
export function firstPageUsed(): void {
  const found = current();
  if (found) found.rows = Promise.resolve(null);
}

/** Whether the first screen asked for a thumbnail of `path` that is still fresh (its tile then loads at once). */
export function hasFirstImage(path: string): boolean {
  const found = current();
  return Boolean(found?.images[path] && Date.now() - found.at <= MAX_AGE_MS);
}

/**
 * The object URL of the first screen's thumbnail of `path` once its bytes are in (and still fresh), so a
 * tile can show it from its first render. The URL lives as long as the page: its placeholder may still
 * be on screen, and there are at most a screenful of them.
 */
export function firstImageUrl(path: string): string | null {
  return (hasFirstImage(path) && current()?.images[path]?.url) || null;
}

/** The first screen's thumbnail of `path`, if it was asked for at least `side` pixels and is still fresh. */
export function firstImage(path: string, side: number): Promise<Blob | null> | null {
  const image = hasFirstImage(path) ? current()?.images[path] : undefined;
  return image && image.side >= side ? image.blob : null;
}

/** A tile has shown (or given up on) the first screen's thumbnail of `path`. */
export function firstImageUsed(path: string): void {
  const found = current();
  if (found) delete found.images[path];
}
