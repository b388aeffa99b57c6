// Work the person is waiting for on this page: a view's fetch of what is on screen, a send of the queue.
// Background work (the offline library's fill, src/sync/pull-images.ts) waits until none is under way, so
// it neither competes with it for the connection and the CPU nor plans again for every image a batch makes.

let foreground = 0;
const quiet: Array<() => void> = [];
const turns = new Set<(busy: boolean) => void>();

/** Marks `work` as foreground until it settles (whether it resolves or rejects); answers what it answers. */
export async function trackForeground<T>(work: Promise<T>): Promise<T> {
  if (foreground++ === 0) turns.forEach((turn) => turn(true));
  try {
    return await work;
  } finally {
    foreground--;
    if (!foreground) {
      quiet.splice(0).forEach((resolve) => resolve());
      turns.forEach((turn) => turn(false));
    }
  }
}

/**
 * Keeps `start`'s work on only while no foreground work is under way: started now (when quiet), stopped
 * (with the stop it returned) as foreground work begins, started again once it has all settled.
 * Returns the stop of the whole.
 */
export function whileNoForeground(start: () => () => void): () => void {
  let stop = foreground ? null : start();
  const turn = (busy: boolean) => {
    if (busy) {
      stop?.();
      stop = null;
    } else stop ??= start();
  };
  turns.add(turn);
  return () => {
    turns.delete(turn);
    stop?.();
    stop = null;
  };
}

/** Resolves once no foreground work is under way (at once when none is). */
export async function noForeground(): Promise<void> {
  while (foreground) await new Promise<void>((resolve) => quiet.push(resolve));
}

/** How many pieces of foreground work are under way now. */
export function foregroundCount(): number {
  return foreground;
}
