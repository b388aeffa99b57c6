// Smooth noise without per-pixel cost: a 256x256 tileable fractal value-noise texture built once per
// render from the seed, sampled with bilinear lookups; and 1D fractal profiles for ridges and dunes.
import type { Rng } from "./prng.ts";

const SIZE = 256;
const MASK = SIZE - 1;

export class NoiseField {
  readonly data = new Float32Array(SIZE * SIZE);

  constructor(rng: Rng, octaves = 5, baseCells = 4, persistence = 0.5) {
    let amp = 1;
    for (let o = 0, cells = baseCells; o < octaves && cells <= SIZE; o++, cells *= 2) {
      const lattice = new Float32Array(cells * cells);
      for (let i = 0; i < lattice.length; i++) lattice[i] = rng.next();
      const step = SIZE / cells;
      for (let y = 0; y < SIZE; y++) {
        const gy = y / step,
          y0 = Math.floor(gy),
          ty = smooth(gy - y0);
        const r0 = (y0 % cells) * cells,
          r1 = ((y0 + 1) % cells) * cells;
        for (let x = 0; x < SIZE; x++) {
          const gx = x / step,
            x0 = Math.floor(gx),
            tx = smooth(gx - x0);
          const c0 = x0 % cells,
            c1 = (x0 + 1) % cells;
          const top = lattice[r0 + c0] + (lattice[r0 + c1] - lattice[r0 + c0]) * tx;
          const bottom = lattice[r1 + c0] + (lattice[r1 + c1] - lattice[r1 + c0]) * tx;
          this.data[y * SIZE + x] += (top + (bottom - top) * ty) * amp;
        }
      }
      amp *= persistence;
    }
    let min = Infinity,
      max = -Infinity;
    for (const v of this.data) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    const k = 1 / Math.max(1e-6, max - min);
    for (let i = 0; i < this.data.length; i++) this.data[i] = (this.data[i] - min) * k;
  }

  /** Bilinear sample at texel coordinates (wraps), in [0, 1]. */
  sample(x: number, y: number): number {
    const xf = Math.floor(x),
      yf = Math.floor(y);
    const tx = x - xf,
      ty = y - yf;
    const x0 = xf & MASK,
      y0 = yf & MASK,
      x1 = (x0 + 1) & MASK,
      y1 = (y0 + 1) & MASK;
    const d = this.data;
    const a = d[y0 * SIZE + x0],
      b = d[y0 * SIZE + x1],
      c = d[y1 * SIZE + x0],
      e = d[y1 * SIZE + x1];
    const top = a + (b - a) * tx;
    return top + (c + (e - c) * tx - top) * ty;
  }
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

/** A 1D fractal profile of `length` samples in [0, 1]; roughness is the amplitude kept per octave. */
export function profile(rng: Rng, length: number, baseCells: number, octaves: number, roughness: number): Float32Array {
  const out = new Float32Array(length);
  let amp = 1;
  for (let o = 0, cells = baseCells; o < octaves; o++, cells *= 2) {
    const pts = new Float32Array(cells + 2);
    for (let i = 0; i < pts.length; i++) pts[i] = rng.next();
    for (let x = 0; x < length; x++) {
      const g = (x / length) * cells,
        i = Math.floor(g),
        t = smooth(g - i);
      out[x] += (pts[i] + (pts[i + 1] - pts[i]) * t) * amp;
    }
    amp *= roughness;
  }
  let min = Infinity,
    max = -Infinity;
  for (const v of out) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const k = 1 / Math.max(1e-6, max - min);
  for (let x = 0; x < length; x++) out[x] = (out[x] - min) * k;
  return out;
}
