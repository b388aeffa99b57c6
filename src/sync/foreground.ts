// Work the person is waiting for on this page: a view's fetch of what is on screen, a send of the queue.
// Background work (the offline library's fill, src/sync/pull-images.ts) waits until none is under way, so
// it neither competes with it for the connection and the CPU nor plans again for every image a batch makes.

let foreground = 0;
const quiet: Array<() => void> = [];

/** Marks `work` as foreground until it settles (whether it resolves or rejects); answers what it answers. */
export async function trackForeground<T>(work: Promise<T>): Promise<T> {
  foreground++;
  try {
    return await work;
  } finally {
    foreground--;
    if (!foreground) quiet.splice(0).forEach((resolve) => resolve());
  }
}

/** Resolves once no foreground work is under way (at once when none is). */
export async function noForeground(): Promise<void> {
  while (foreground) await new Promise<void>((resolve) => quiet.push(resolve));
}

/** How many pieces of foreground work are under way now. */
export function foregroundCount(): number {
  return foreground;
}
