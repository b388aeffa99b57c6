// A simulated clock for delivery tests: timers fire only when the test advances time, in time order.
import type { Clock } from "#src/sync/delivery.ts";

export type SimClock = Clock & {
  /** Moves time forward, firing due timers in order and letting promises settle between them. */
  advance(ms: number): Promise<void>;
  pending(): number;
};

export const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

export function simClock(start = 1_000_000): SimClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        await flush();
        const next = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].callback();
      }
      now = end;
      await flush();
    },
    pending: () => timers.size,
  };
}
