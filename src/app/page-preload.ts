// A signed-in person's own pages load their code ahead, one page per idle period, so a first click on
// History or Saved draws the page without waiting for its code (bench/history-bench.mjs). It lives in
// the session runtime's chunk, started by the session actor: visitors load nothing ahead, and the home
// page's initial JavaScript carries none of it. It loads each page as the router does, through the
// loader the router handed to src/app/lazy-page.ts (importing the router from this chunk would change how
// the main one is split), so a page loaded ahead is drawn in a click's own render.
import { whenIdle } from "../lib/schedule";
import { loadPageAhead } from "./lazy-page";
import { EXTRA_ROUTES, ROUTES } from "./route-table";

/** A person's own pages, the two they go to most, Compare (opened from History and Saved) and collections. */
const OWN_PAGES = [
  ...ROUTES.filter((r) => r.access === "protected" || r.path === "/generate" || r.path === "/gallery"),
  ...EXTRA_ROUTES.filter((r) => r.page === "compare" || r.access === "protected"),
];

let next = 0;
let cancel: (() => void) | null = null;

function loadFrom(i: number): void {
  next = i;
  if (i >= OWN_PAGES.length) {
    cancel = null;
    return;
  }
  cancel = whenIdle(() => {
    void loadPageAhead(OWN_PAGES[i].page)
      .catch(() => undefined)
      .then(() => {
        if (cancel) loadFrom(i + 1);
      });
  });
}

/** Starts loading the pages' code while someone is signed in, and stops when no one is. */
export function preloadOwnPages(signedIn: boolean): void {
  if (!signedIn) {
    cancel?.();
    cancel = null;
  } else if (!cancel && next < OWN_PAGES.length) {
    loadFrom(next);
  }
}
