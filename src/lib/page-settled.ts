// When the page a visitor opened has what they came to see: the document has loaded, the app is live
// (its first commit, or hydration of the prerendered page), every hold a page placed is done (the
// gallery's pictures in view arrive by script, after the load event) and the browser then has an idle
// moment. Work that only prepares for later starts here: the service worker's install fetches the
// whole precache (about 1.9 MB), and on a slow line it must not share the bandwidth with the first screen.
//
// A hold that never ends cannot keep the page from settling: each counts for at most MAX_HOLD_MS.

/** The longest one hold keeps the page from settling. */
export const MAX_HOLD_MS = 5000;
/** The longest the idle moment is waited for once everything else is done. */
const IDLE_TIMEOUT_MS = 1000;

/** What the gate uses of the window. */
type SettledWindow = {
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

export function createSettledGate(win: SettledWindow): SettledGate {
  let live = false;
  let waiters: (() => void)[] = [];
  const holds = new Set<Promise<void>>();

  const loaded = (): Promise<void> =>
    win.document.readyState === "complete"
      ? Promise.resolve()
      : new Promise((resolve) => win.addEventListener("load", () => resolve(), { once: true }));
  const idle = (): Promise<void> =>
    new Promise((resolve) => {
      if (win.requestIdleCallback) win.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
      else win.setTimeout(resolve, 0);
    });

  return {
    markLive() {
      live = true;
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    },
    hold(work) {
      const hold: Promise<void> = Promise.race([
        work.then(
          () => undefined,
          () => undefined,
        ),
        new Promise<void>((resolve) => win.setTimeout(resolve, MAX_HOLD_MS)),
      ]).finally(() => holds.delete(hold));
      holds.add(hold);
    },
    async settled() {
      await loaded();
      if (!live) await new Promise<void>((resolve) => waiters.push(resolve));
      // Holds placed while others are waited for (a tile whose picture starts later) are waited for
      // too, and so are any placed while the idle moment is awaited.
      for (;;) {
        while (holds.size > 0) await Promise.all([...holds]);
        await idle();
        if (holds.size === 0) return;
      }
    },
  };
}

/** This page's gate. */
const gate: SettledGate | null = typeof window === "undefined" ? null : createSettledGate(window);

export const markLive = (): void => gate?.markLive();
export const holdSettled = (work: Promise<unknown>): void => gate?.hold(work);
export const whenSettled = (): Promise<void> => gate?.settled() ?? Promise.resolve();
