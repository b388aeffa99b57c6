// Work that needs the network waits for it: while the browser says it is offline (navigator.onLine is
// false) a request is certain to fail, so it is not sent; it runs once the `online` event comes.
// Server rendering and non-browser runs count as online. Every reader of the connection state in src/
// and sw/ goes through here (ESLint refuses navigator.onLine elsewhere), except the gallery's
// first-screen script, which is inlined into the page and can import nothing. Work that waits for the
// connection to deliver stored items is woken by the runner's `online` trigger (src/sync/runner.ts).

export function isOnline(): boolean {
  return typeof navigator === "undefined" ? true : navigator.onLine;
}

/**
 * Resolves at once when online, else at the next `online` event. An aborted `signal` rejects it with
 * the signal's reason, so a stopped process does not run its request later.
 */
export function untilOnline(signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (isOnline()) return resolve();
    const settle = (done: () => void) => () => {
      window.removeEventListener("online", onOnline);
      signal?.removeEventListener("abort", onAbort);
      done();
    };
    const onOnline = settle(resolve);
    const onAbort = settle(() => reject(signal?.reason));
    window.addEventListener("online", onOnline);
    signal?.addEventListener("abort", onAbort);
  });
}
