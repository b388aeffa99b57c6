// Building blocks several techniques share: an ink-line mask from colour edges, cel shading, halftone
// dots, a flow-field smear (line integral convolution) for brush strokes, and relief lighting.
import { Canvas, Layer } from "../canvas.ts";
import type { Rgb } from "../color.ts";
import { blur, colorEdges } from "../filters.ts";
import type { NoiseField } from "../noise.ts";
import { fastCos, fastSin } from "../trig.ts";

export function isSky(layer: number): boolean {
  return layer <= Layer.cloud;
}

/** Layers whose inner texture (waves, stars) would ink as speckle; their outlines come from layerEdges. */
export const TEXTURED_LAYERS: readonly number[] = [Layer.sky, Layer.celestial, Layer.water];

/**
 * 0..1 line strength where colours change sharply. The image is softened first (`soften` px) so
 * textures do not turn into speckle; `width` thickens the lines; pixels on `skip` layers get none.
 */
export function edgeMask(
  c: Canvas,
  threshold: number,
  soften: number,
  width: number,
  skip: readonly number[] = [],
): Float32Array {
  const src = soften > 0 ? new Canvas(c.width, c.height, blur(c.data, c.width, c.height, 3, soften), c.layer) : c;
  const e = colorEdges(src);
  const n = e.length;
  const m = new Float32Array(n);
  const skipped = new Uint8Array(16);
  for (const l of skip) skipped[l] = 1;
  for (let i = 0; i < n; i++) {
    const v = skipped[c.layer[i]] ? 0 : (e[i] - threshold) / threshold;
    m[i] = v <= 0 ? 0 : v >= 1 ? 1 : v;
  }
  if (width <= 1) return m;
  const wide = blur(m, c.width, c.height, 1, width);
  for (let i = 0; i < n; i++) m[i] = Math.min(1, wide[i] * 2.2);
  return m;
}

/** Draws `mask` as ink of `color` (opacity `strength`). */
export function applyInk(c: Canvas, mask: Float32Array, color: Rgb, strength = 1): void {
  const d = c.data;
  for (let i = 0; i < mask.length; i++) {
    const a = mask[i] * strength;
    if (a <= 0) continue;
    const k = i * 3;
    d[k] += (color[0] - d[k]) * a;
    d[k + 1] += (color[1] - d[k + 1]) * a;
    d[k + 2] += (color[2] - d[k + 2]) * a;
  }
}

/** Quantises brightness into `levels` bands, keeping each pixel's hue; sky and water can stay smooth. */
export function celShade(c: Canvas, levels: number, keepSky: boolean): void {
  const d = c.data,
    step = 1 / levels;
  for (let i = 0, n = c.width * c.height; i < n; i++) {
    if (keepSky && (isSky(c.layer[i]) || c.layer[i] === Layer.water)) continue;
    const k = i * 3;
    const l = (0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2]) / 255;
    if (l <= 0.001) continue;
    const q = Math.min(1, (Math.floor(l / step) + 0.75) * step);
    const f = q / l;
    d[k] *= f;
    d[k + 1] *= f;
    d[k + 2] *= f;
  }
}

/**
 * Ben-Day dots on a grid rotated by `angle`: a dot's radius grows with the darkness beneath it.
 * `mix` is how far a dot pixel moves toward `ink`.
 */
export function halftone(c: Canvas, cell: number, angle: number, ink: Rgb, mix: number, from = 0.15): void {
  const d = c.data,
    w = c.width;
  const cos = Math.cos(angle),
    sin = Math.sin(angle),
    inv = 1 / cell;
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < w; x++) {
      const k = (y * w + x) * 3;
      const dark = 1 - (0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2]) / 255;
      if (dark <= from) continue;
      const u = (x * cos + y * sin) * inv,
        v = (-x * sin + y * cos) * inv;
      const fu = u - Math.floor(u) - 0.5,
        fv = v - Math.floor(v) - 0.5;
      const dist = Math.sqrt(fu * fu + fv * fv);
      const r = 0.55 * Math.sqrt((dark - from) / (1 - from));
      const cov = Math.min(1, Math.max(0, (r - dist) * cell));
      if (cov <= 0) continue;
      const a = cov * mix;
      d[k] += (ink[0] - d[k]) * a;
      d[k + 1] += (ink[1] - d[k + 1]) * a;
      d[k + 2] += (ink[2] - d[k + 2]) * a;
    }
  }
}

/** A smooth direction field, stored at a quarter of the resolution (it varies slowly). */
export interface Flow {
  /** Columns and rows of the quarter-resolution grid. */
  cols: number;
  rows: number;
  angle: Float32Array;
  dx: Float32Array;
  dy: Float32Array;
}

export function flowField(w: number, h: number, noise: NoiseField, scale: number, bias: number): Flow {
  const cols = Math.ceil(w / 4),
    rows = Math.ceil(h / 4),
    n = cols * rows;
  const angle = new Float32Array(n),
    dx = new Float32Array(n),
    dy = new Float32Array(n);
  const k = 1024 / scale;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x,
        a = bias + (noise.sample(x * k + 57, y * k + 13) - 0.5) * Math.PI * 2.2;
      angle[i] = a;
      dx[i] = fastCos(a);
      dy[i] = fastSin(a);
    }
  }
  return { cols, rows, angle, dx, dy };
}

/** The flow cell of pixel (x, y). */
export function flowAt(f: Flow, x: number, y: number): number {
  return Math.min(f.rows - 1, y >> 2) * f.cols + Math.min(f.cols - 1, x >> 2);
}

/** Averages `taps` samples along the flow at each pixel: colours smear into strokes. */
export function smear(
  src: Float32Array,
  w: number,
  h: number,
  channels: 1 | 3,
  flow: Flow,
  length: number,
  taps: number,
): Float32Array {
  const out = new Float32Array(src.length);
  const step = length / (taps - 1),
    half = (taps - 1) / 2,
    inv = 1 / taps;
  for (let y = 0; y < h; y++) {
    const frow = Math.min(flow.rows - 1, y >> 2) * flow.cols;
    for (let x = 0; x < w; x++) {
      const f = frow + Math.min(flow.cols - 1, x >> 2);
      const dx = flow.dx[f] * step,
        dy = flow.dy[f] * step;
      let px = x - dx * half,
        py = y - dy * half,
        a = 0,
        b = 0,
        c = 0;
      for (let t = 0; t < taps; t++, px += dx, py += dy) {
        const sx = px < 0 ? 0 : px >= w ? w - 1 : px | 0,
          sy = py < 0 ? 0 : py >= h ? h - 1 : py | 0;
        const s = (sy * w + sx) * channels;
        a += src[s];
        if (channels === 3) {
          b += src[s + 1];
          c += src[s + 2];
        }
      }
      const o = (y * w + x) * channels;
      out[o] = a * inv;
      if (channels === 3) {
        out[o + 1] = b * inv;
        out[o + 2] = c * inv;
      }
    }
  }
  return out;
}

/** Lights a height field from the upper left and multiplies the canvas by it (paint relief). */
export function relief(c: Canvas, height: Float32Array, strength: number): void {
  const w = c.width,
    h = c.height,
    d = c.data;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const slope = height[i - w - 1] - height[i + w + 1];
      const f = 1 + slope * strength;
      const k = i * 3;
      d[k] *= f;
      d[k + 1] *= f;
      d[k + 2] *= f;
    }
  }
}

/** Per-pixel white noise in 0..1 (for stroke textures), deterministic per seed. */
export function whiteNoise(w: number, h: number, seed: number): Float32Array {
  const out = new Float32Array(w * h);
  let s = seed >>> 0;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 4294967296;
  }
  return out;
}

/** 1 where a pixel's layer differs from its right or lower neighbour: object silhouettes. */
export function layerEdges(c: Canvas, skipSky: boolean): Float32Array {
  const w = c.width,
    h = c.height,
    l = c.layer,
    out = new Float32Array(w * h);
  for (let y = 0; y < h - 1; y++) {
    for (let x = 0; x < w - 1; x++) {
      const i = y * w + x,
        a = l[i],
        b = l[i + 1],
        d = l[i + w];
      if (a === b && a === d) continue;
      if (skipSky && isSky(a) && (isSky(b) || a === b) && (isSky(d) || a === d)) continue;
      out[i] = 1;
    }
  }
  return out;
}

/** Pixel-wise maximum of two masks, into `a`. */
export function maxInto(a: Float32Array, b: Float32Array): Float32Array {
  for (let i = 0; i < a.length; i++) if (b[i] > a[i]) a[i] = b[i];
  return a;
}
