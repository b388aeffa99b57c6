// One published image for display: its bytes are read through the Storage API (never a signed URL,
// which would outlive an unpublish) and shown through an object URL that is revoked when the view goes
// away. An opened item reads the full picture as the current role through the API client; a tile reads
// its thumbnail as the anon role with plain fetch, which any published picture allows, and through the
// API client only when that fails.
//
// A gallery tile asks for a square the Storage API scales on the server, as large as the tile is drawn
// on this screen (one of a few fixed sides, so the server keeps few variants per picture). Tiles in view
// load first; a tile below the fold starts once it nears the viewport, as `loading="lazy"` would for a
// plain URL, and not before the tiles in view have their pictures, so on a slow line the first screen
// does not share its bandwidth with pictures nobody sees yet.
import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { loadPublicThumbnail } from "../../api/public-thumbnail";
import { holdSettled } from "../../lib/page-settled";
import { ok } from "../../lib/result";
import { firstImage, firstImageUrl, firstImageUsed, hasFirstImage } from "./first-screen";

export type PublishedImage = { status: "loading" } | { status: "ready"; url: string } | { status: "error" };

/** How far below the viewport a tile starts loading, so it is usually drawn before it scrolls in. */
const AHEAD = "400px";
/** The longest a tile below the fold waits for the tiles in view (a stalled request must not hold it). */
const FIRST_SCREEN_WAIT_MS = 3000;
/**
 * The sides a tile's picture is scaled to on the server: few enough that the server keeps few variants
 * per picture, close enough that no common screen fetches much more than it draws (a phone's tile is
 * 319 device pixels at a ratio of 1.75 and 513 at 3, which 384 and 768 would overshoot by 45% and 124%
 * in pixels).
 */
export const TILE_SIDES = [256, 320, 384, 512, 640, 768] as const;

/** The smallest side that is sharp in a tile `cssWidth` wide on a screen of `pixelRatio` (the largest if none is). */
export function tileSide(cssWidth: number, pixelRatio: number): number {
  const needed = Math.ceil(cssWidth * Math.max(1, pixelRatio || 1));
  return TILE_SIDES.find((side) => side >= needed) ?? TILE_SIDES[TILE_SIDES.length - 1];
}

// The API client is a chunk of its own, loaded only when a picture cannot be read without it: a tile
// reads its thumbnail with plain fetch first (api/public-thumbnail.ts), so a visitor looking at the
// gallery never loads it. Every caller shares the one import.
let api: Promise<typeof import("../../api/gallery")> | null = null;
const galleryApi = () =>
  (api ??= import("../../api/gallery").catch((e: unknown) => {
    api = null; // a failed chunk load (offline) is tried again by the next tile
    throw e;
  }));

// The tiles in view whose pictures are still loading, and what waits for them all to be done. A tile
// is done once its picture (or its failure) is drawn, and a tile that goes away (a new search) counts
// as done, so it never holds back the tiles that replaced it.
const firstScreen = new Set<object>();
let waiting: (() => void)[] = [];

function firstScreenLoad(): () => void {
  const token = {};
  firstScreen.add(token);
  return () => {
    if (!firstScreen.delete(token) || firstScreen.size > 0) return;
    const done = waiting;
    waiting = [];
    for (const resolve of done) resolve();
  };
}

/** Resolves once the tiles in view have their pictures (or failed, or went away), or after FIRST_SCREEN_WAIT_MS. */
function afterFirstScreen(): Promise<void> {
  if (firstScreen.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    waiting.push(resolve);
    setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
  });
}

function canObserve(): boolean {
  return typeof IntersectionObserver !== "undefined";
}

/** When a tile's picture may load: not yet, now (in view, or nothing to observe with), or after the first screen. */
type Start = "not-yet" | "now" | "after-first-screen";

/**
 * `view`: the full picture, at once (an opened item). `tile`: a scaled square, in view first.
 * `ref` goes on the element whose width the picture fills.
 */
export function usePublishedImage(path: string, kind: "view" | "tile") {
  const [element, setElement] = useState<HTMLElement | null>(null);
  // Also kept in a ref: the load reads the element's width when it starts, even in the first render's effect.
  const elementRef = useRef<HTMLElement | null>(null);
  const ref = useCallback((node: HTMLElement | null) => {
    elementRef.current = node;
    setElement(node);
  }, []);
  // Without IntersectionObserver (old browsers, tests) every image loads at once.
  // A tile whose thumbnail the first screen already asked for (first-screen.ts) is in view: no need to wait and see.
  const [start, setStart] = useState<Start>(
    kind === "view" || !canObserve() || hasFirstImage(path) ? "now" : "not-yet",
  );
  // Keyed by path, so a view reused for another row never shows the previous row's image. A tile whose
  // thumbnail the first screen already holds shows it from its first render (no flash of an empty tile
  // where the placeholder showed the picture); that URL belongs to the first screen and is not revoked.
  const [early] = useState(() => {
    const url = kind === "tile" ? firstImageUrl(path) : null;
    return url ? { path, image: { status: "ready", url } as PublishedImage } : null;
  });
  const [loaded, setLoaded] = useState<{ path: string; image: PublishedImage } | null>(early);
  /** Marks this tile's load done (firstScreenLoad, holdSettled) once its result is drawn. */
  const drawn = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (start !== "not-yet" || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.find((e) => e.isIntersecting);
        if (!entry) return;
        const { top, bottom } = entry.boundingClientRect;
        setStart(top < window.innerHeight && bottom > 0 ? "now" : "after-first-screen");
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, start]);

  useEffect(() => {
    if (start === "not-yet") return;
    if (early?.path === path) {
      firstImageUsed(path);
      return;
    }
    let live = true;
    let url: string | null = null;
    const side = kind === "tile" ? tileSide(elementRef.current?.clientWidth ?? 0, window.devicePixelRatio) : undefined;
    const inView = kind === "tile" && start === "now" ? firstScreenLoad() : () => undefined;
    // Until this tile's picture is drawn the page has not settled (lib/page-settled.ts): the service
    // worker's precache must not share the line with the pictures on and near the screen.
    let settle: () => void = () => undefined;
    if (kind === "tile") holdSettled(new Promise<void>((resolve) => (settle = resolve)));
    const done = () => {
      inView();
      settle();
    };
    drawn.current = done;
    void (async () => {
      let image: PublishedImage;
      try {
        if (start === "after-first-screen") await afterFirstScreen();
        if (!live) return;
        // A tile's thumbnail: the first screen's, else read as the anon role without the API client.
        const thumbnail = side ? ((await firstImage(path, side)) ?? (await loadPublicThumbnail(path, side))) : null;
        if (!live) return;
        if (side) firstImageUsed(path);
        const bytes = thumbnail
          ? ok(thumbnail)
          : await galleryApi().then(({ loadPublishedImage }) => loadPublishedImage(path, side));
        if (!live) return;
        if (bytes.ok) {
          url = URL.createObjectURL(bytes.value);
          image = { status: "ready", url };
        } else {
          image = { status: "error" };
        }
      } catch {
        image = { status: "error" };
      }
      // As a transition, a screenful of arriving pictures is drawn in short slices, not one long task
      // each. The tile counts as done once that is committed (the effect below), not when it is asked.
      if (live) startTransition(() => setLoaded({ path, image }));
    })();
    return () => {
      live = false;
      done();
      if (url) URL.revokeObjectURL(url);
    };
  }, [path, start, kind, early]);

  // The picture (or its failure) for this path is on the screen: the tiles waiting on it may go on.
  useEffect(() => {
    if (loaded?.path !== path) return;
    drawn.current?.();
    drawn.current = null;
  }, [loaded, path]);

  const image: PublishedImage = loaded?.path === path ? loaded.image : { status: "loading" };
  return { ref, image };
}
