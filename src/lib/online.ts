// Work that needs the network waits for it: while the browser says it is offline (navigator.onLine is
// false) a request is certain to fail, so it is not sent; it runs once the `online` event comes.
// Server rendering and non-browser runs count as online. Every reader of the connection state in src/
// and sw/ goes through here (ESLint refuses navigator.onLine elsewhere), except the gallery's
// first-screen script, which is inlined into the page and can import nothing.

export function isOnline(): boolean {
  return typeof navigator === "undefined" ? true : navigator.onLine;
}

/**
 * Calls `fn` now when online, else once at the next `online` event. Answers a function that cancels
 * the call while it is still waiting.
 */
export function whenOnline(fn: () => void): () => void {
  if (isOnline()) {
    fn();
    return () => undefined;
  }
  const onOnline = () => {
    window.removeEventListener("online", onOnline);
    fn();
  };
  window.addEventListener("online", onOnline);
  return () => window.removeEventListener("online", onOnline);
}

/**
 * Resolves at once when online, else at the next `online` event. An aborted `signal` rejects it with
 * the signal's reason, so a stopped process does not run its request later.
 */
export function untilOnline(signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    let waiting = true;
    const cancel = whenOnline(() => {
      waiting = false;
      signal?.removeEventListener("abort", onAbort);
      resolve();
    });
    if (waiting) signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export type OnlineTrigger = { request: () => void; cancel: () => void };

/**
 * `fn` behind whenOnline, coalesced: asked for any number of times while offline, it runs once at the
 * next `online` event; asked for while online, it runs at once.
 */
export function onlineTrigger(fn: () => void): OnlineTrigger {
  let waiting: (() => void) | null = null;
  return {
    request() {
      if (waiting) return;
      let ran = false;
      const cancel = whenOnline(() => {
        ran = true;
        waiting = null;
        fn();
      });
      if (!ran) waiting = cancel;
    },
    cancel() {
      waiting?.();
      waiting = null;
    },
  };
}
