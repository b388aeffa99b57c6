// Table sine and a polynomial atan2 for per-pixel loops: Math.sin/atan2 cost tens of nanoseconds a
// call, which at a million pixels is most of a frame. Both are deterministic and accurate to ~0.1%.
const SIZE = 4096;
const TABLE = new Float32Array(SIZE + 1);
for (let i = 0; i <= SIZE; i++) TABLE[i] = Math.sin((i / SIZE) * Math.PI * 2);
const SCALE = SIZE / (Math.PI * 2);

export function fastSin(x: number): number {
  let t = x * SCALE;
  t -= Math.floor(t / SIZE) * SIZE;
  const i = t | 0;
  return TABLE[i] + (TABLE[i + 1] - TABLE[i]) * (t - i);
}

export function fastCos(x: number): number {
  return fastSin(x + Math.PI / 2);
}

/** atan2 within ~0.0015 rad. */
export function fastAtan2(y: number, x: number): number {
  const ax = Math.abs(x),
    ay = Math.abs(y);
  if (ax === 0 && ay === 0) return 0;
  const a = Math.min(ax, ay) / Math.max(ax, ay),
    s = a * a;
  let r = ((-0.0464964749 * s + 0.15931422) * s - 0.327622764) * s * a + a;
  if (ay > ax) r = Math.PI / 2 - r;
  if (x < 0) r = Math.PI - r;
  return y < 0 ? -r : r;
}
