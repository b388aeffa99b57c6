// One published image for display: its bytes are read through the Storage API as the current role
// (never a signed URL, which would outlive an unpublish) and shown through an object URL that is
// revoked when the view goes away. Tiles ask for a small square that the Storage API scales on the
// server. A tile far below the fold loads once it nears the viewport, as `loading="lazy"` would for a
// plain URL; eager tiles (the first screenful) load at once.
import { startTransition, useEffect, useState } from "react";

export type PublishedImage = { status: "loading" } | { status: "ready"; url: string } | { status: "error" };

/** How far below the viewport a tile starts loading, so it is usually drawn before it scrolls in. */
const AHEAD = "400px";

// The API client loads after the page has drawn, keeping it out of the prerendered page's first
// load; every tile shares the one import.
let api: Promise<typeof import("../../api/gallery")> | null = null;
const galleryApi = () =>
  (api ??= import("../../api/gallery").catch((e: unknown) => {
    api = null; // a failed chunk load (offline) is tried again by the next tile
    throw e;
  }));

function canObserve(): boolean {
  return typeof IntersectionObserver !== "undefined";
}

/** `thumbnail`: a square of that side, scaled on the server (gallery tiles); without it, the full image. */
export function usePublishedImage(path: string, eager: boolean, thumbnail?: number) {
  const [element, setElement] = useState<Element | null>(null);
  // Without IntersectionObserver (old browsers, tests) every image loads at once.
  const [near, setNear] = useState(eager || !canObserve());
  // Keyed by path, so a view reused for another row never shows the previous row's image.
  const [loaded, setLoaded] = useState<{ path: string; image: PublishedImage } | null>(null);

  useEffect(() => {
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: AHEAD,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near]);

  useEffect(() => {
    if (!near) return;
    let live = true;
    let url: string | null = null;
    void (async () => {
      let image: PublishedImage;
      try {
        const { loadPublishedImage } = await galleryApi();
        const bytes = await loadPublishedImage(path, thumbnail);
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
      // As a transition, a screenful of arriving pictures is drawn in short slices, not one long task each.
      if (live) startTransition(() => setLoaded({ path, image }));
    })();
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path, near, thumbnail]);

  const image: PublishedImage = loaded?.path === path ? loaded.image : { status: "loading" };
  return { ref: setElement, image };
}
