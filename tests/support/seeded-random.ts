// Seeded randomness for tests: the lane's jitter under a simulated clock, the fault schedules.
/**
 * A repeatable random in [0, 1) (mulberry32): the delivery tests predict the lane's jitter with it, and
 * the fault harness draws each schedule from its seed (the same seed, the same schedule).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
