// Running work later without holding up what is on screen: after the next paint, or when the page is
// idle. Each answers a function that cancels the work.

/**
 * Calls `fn` once the frame being prepared is on screen: the next animation frame comes before that
 * frame's paint, and a task queued from it runs after the paint. Keeps the first screen's paint free of
 * work it does not need (the rest of a list, the rows below the fold).
 */
export function afterPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * Calls `fn` in the page's next idle period (at the latest after `timeoutMs`, when given); where the
 * browser has no idle callbacks, after `fallbackMs`.
 */
export function whenIdle(
  fn: () => void,
  { timeoutMs, fallbackMs = 200 }: { timeoutMs?: number; fallbackMs?: number } = {},
): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(fn, timeoutMs === undefined ? undefined : { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(fn, fallbackMs);
  return () => clearTimeout(timer);
}
