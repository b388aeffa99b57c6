// When the page a visitor opened has what they came to see: the document has loaded, the app is live
// (its first commit, or hydration of the prerendered page), every hold a page placed is done (the
// gallery's pictures in view arrive by script, after the load event) and the browser then has an idle
// moment. Work that only prepares for later starts here: the service worker's install fetches the
// whole precache (about 1.9 MB), and on a slow line it must not share the bandwidth with the first screen.
//
// A hold that never ends cannot keep the page from settling: each counts for at most MAX_HOLD_MS.

/** The longest one hold keeps the page from settling. */
export const MAX_HOLD_MS = 5000;
/** The longest an idle moment is waited for. */
const IDLE_TIMEOUT_MS = 5000;

/** What the gate uses of the window. */
export type SettledWindow = {
  document: { readyState: DocumentReadyState };
  addEventListener(type: "load", listener: () => void, options: { once: boolean }): void;
  setTimeout(handler: () => void, ms: number): unknown;
  requestIdleCallback?(callback: () => void, options: { timeout: number }): unknown;
};

export type SettledGate = {
  /** The app has committed its first render (hydrated the prerendered page, or drawn it). */
  markLive(): void;
  /** Keeps the page from settling until `work` is done, failed, or MAX_HOLD_MS have passed. */
  hold(work: Promise<unknown>): void;
  /** Resolves once the page has loaded, is live, its holds are done and the browser is idle. */
  settled(): Promise<void>;
};

/** After the document's load event (at once when it has loaded). */
export function afterLoad(win: Pick<SettledWindow, "document" | "addEventListener">): Promise<void> {
  return win.document.readyState === "complete"
    ? Promise.resolve()
    : new Promise((resolve) => win.addEventListener("load", () => resolve(), { once: true }));
}

/** At the browser's next idle moment, IDLE_TIMEOUT_MS at most (a second's wait without the API). */
export function whenIdle(win: Pick<SettledWindow, "requestIdleCallback" | "setTimeout">): Promise<void> {
  return new Promise((resolve) => {
    if (win.requestIdleCallback) win.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    else win.setTimeout(resolve, 1000);
  });
}

export function createSettledGate(win: SettledWindow): SettledGate {
  let markLive!: () => void;
  const live = new Promise<void>((resolve) => (markLive = resolve));
  const holds = new Set<Promise<unknown>>();
  return {
    markLive,
    hold(work) {
      const hold: Promise<unknown> = Promise.race([
        work.catch(() => undefined),
        new Promise<void>((resolve) => win.setTimeout(resolve, MAX_HOLD_MS)),
      ]).finally(() => holds.delete(hold));
      holds.add(hold);
    },
    async settled() {
      await afterLoad(win);
      await live;
      // Holds placed while others are waited for (a tile whose picture starts later) are waited for
      // too, and so are any placed while the idle moment is awaited.
      for (;;) {
        while (holds.size > 0) await Promise.all([...holds]);
        await whenIdle(win);
        if (holds.size === 0) return;
      }
    },
  };
}

// This page's gate. Its methods touch the window only when called, which never happens while a page is
// prerendered in Node.
export const {
  markLive,
  hold: holdSettled,
  settled: whenSettled,
} = createSettledGate(globalThis as unknown as SettledWindow);
