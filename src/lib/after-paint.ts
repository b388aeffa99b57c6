// Runs work once the frame being prepared is on screen: the next animation frame comes before that
// frame's paint, and a task queued from it runs after the paint. Used to keep the first screen's
// paint free of work it does not need (the rest of a list, the rows below the fold).

/** Calls `fn` after the next paint; the answer cancels it. */
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
