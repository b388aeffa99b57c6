// Whole-image passes shared by the style techniques: blur, resize, edges, colour grading, bloom,
// vignette, grain. Each is a tight loop over typed arrays, linear in the pixel count.
import { Canvas } from "./canvas.ts";
import type { Rgb } from "./color.ts";
import { hash2 } from "./prng.ts";

/** Box blur of radius r over `channels` interleaved channels: running sums along rows, then down
 * columns with one accumulator per column so memory is read in order. */
export function boxBlur(src: Float32Array, w: number, h: number, channels: number, r: number): Float32Array {
  r = Math.max(0, Math.round(r));
  if (r === 0) return src.slice();
  const rowLen = w * channels;
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  const inv = 1 / (2 * r + 1);
  for (let y = 0; y < h; y++) {
    const base = y * rowLen;
    for (let c = 0; c < channels; c++) {
      let acc = 0;
      for (let x = -r; x <= r; x++) acc += src[base + clampInt(x, 0, w - 1) * channels + c];
      for (let x = 0; x < w; x++) {
        tmp[base + x * channels + c] = acc * inv;
        const xa = x + r + 1 < w ? x + r + 1 : w - 1,
          xs = x - r > 0 ? x - r : 0;
        acc += src[base + xa * channels + c] - src[base + xs * channels + c];
      }
    }
  }
  const acc = new Float64Array(rowLen);
  for (let y = -r; y <= r; y++) {
    const row = clampInt(y, 0, h - 1) * rowLen;
    for (let i = 0; i < rowLen; i++) acc[i] += tmp[row + i];
  }
  for (let y = 0; y < h; y++) {
    const o = y * rowLen;
    const add = (y + r + 1 < h ? y + r + 1 : h - 1) * rowLen,
      sub = (y - r > 0 ? y - r : 0) * rowLen;
    for (let i = 0; i < rowLen; i++) {
      out[o + i] = acc[i] * inv;
      acc[i] += tmp[add + i] - tmp[sub + i];
    }
  }
  return out;
}

/** Two box passes: close enough to a Gaussian for soft light and washes. */
export function blur(src: Float32Array, w: number, h: number, channels: number, r: number): Float32Array {
  const half = Math.max(1, Math.round(r / 1.6));
  return boxBlur(boxBlur(src, w, h, channels, half), w, h, channels, half);
}

function clampInt(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Bilinear resize of the colours; layer ids follow the nearest source pixel. */
export function resize(src: Canvas, w: number, h: number): Canvas {
  const out = new Canvas(w, h);
  resampleInto(src.data, src.width, src.height, out.data, w, h, 0);
  out.layer.set(layersAt(src, w, h));
  return out;
}

/** The layer ids of `src` scaled to w x h (nearest). */
export function layersAt(src: Canvas, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const sx = src.width / w,
    sy = src.height / h;
  for (let y = 0; y < h; y++) {
    const row = Math.min(src.height - 1, Math.floor((y + 0.5) * sy)) * src.width;
    for (let x = 0; x < w; x++) out[y * w + x] = src.layer[row + Math.min(src.width - 1, Math.floor((x + 0.5) * sx))];
  }
  return out;
}

/**
 * Bilinear resample of a 3-channel image into `dst` (w x h): dst = dst * keep + sample. With keep = 0
 * it replaces, with keep = 1 it adds (used to lay an upsampled glow over the picture).
 */
export function resampleInto(
  s: Float32Array,
  sw: number,
  sh: number,
  dst: Float32Array,
  w: number,
  h: number,
  keep: number,
  gain = 1,
): void {
  const sx = sw / w,
    sy = sh / h;
  const x0s = new Int32Array(w),
    x1s = new Int32Array(w),
    txs = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const fx = Math.max(0, (x + 0.5) * sx - 0.5),
      x0 = Math.min(sw - 1, Math.floor(fx));
    x0s[x] = x0 * 3;
    x1s[x] = Math.min(sw - 1, x0 + 1) * 3;
    txs[x] = fx - x0;
  }
  for (let y = 0; y < h; y++) {
    const fy = Math.max(0, (y + 0.5) * sy - 0.5),
      y0 = Math.min(sh - 1, Math.floor(fy)),
      ty = fy - y0;
    const r0 = y0 * sw * 3,
      r1 = Math.min(sh - 1, y0 + 1) * sw * 3;
    for (let x = 0, o = y * w * 3; x < w; x++, o += 3) {
      const a = r0 + x0s[x],
        b = r0 + x1s[x],
        c = r1 + x0s[x],
        e = r1 + x1s[x],
        tx = txs[x];
      for (let k = 0; k < 3; k++) {
        const top = s[a + k] + (s[b + k] - s[a + k]) * tx;
        const v = top + (s[c + k] + (s[e + k] - s[c + k]) * tx - top) * ty;
        dst[o + k] = dst[o + k] * keep + v * gain;
      }
    }
  }
}

export function lumaOf(c: Canvas): Float32Array {
  const out = new Float32Array(c.width * c.height),
    d = c.data;
  for (let i = 0; i < out.length; i++) out[i] = 0.299 * d[i * 3] + 0.587 * d[i * 3 + 1] + 0.114 * d[i * 3 + 2];
  return out;
}

/** Edge strength where the colour changes (max over channels), so equal-luma hues still separate. */
export function colorEdges(c: Canvas): Float32Array {
  const w = c.width,
    h = c.height,
    d = c.data,
    out = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      let best = 0;
      for (let k = 0; k < 3; k++) {
        const gx = d[(i + 1) * 3 + k] - d[(i - 1) * 3 + k];
        const gy = d[(i + w) * 3 + k] - d[(i - w) * 3 + k];
        const m = gx * gx + gy * gy;
        if (m > best) best = m;
      }
      out[i] = Math.sqrt(best);
    }
  }
  return out;
}

export interface Grade {
  saturation?: number;
  contrast?: number;
  /** Added to every channel (-255..255). */
  brightness?: number;
  gamma?: number;
  tint?: Rgb;
  /** 0..1: how far each pixel moves toward `tint` multiplied by its own luminance. */
  tintAmount?: number;
}

export function grade(c: Canvas, g: Grade): void {
  const sat = g.saturation ?? 1,
    con = g.contrast ?? 1,
    bri = g.brightness ?? 0,
    gam = g.gamma ?? 1;
  const tint = g.tint ?? [255, 255, 255],
    ta = g.tintAmount ?? 0;
  const d = c.data;
  for (let k = 0; k < d.length; k += 3) {
    let r = d[k],
      gr = d[k + 1],
      b = d[k + 2];
    const l = 0.299 * r + 0.587 * gr + 0.114 * b;
    r = l + (r - l) * sat;
    gr = l + (gr - l) * sat;
    b = l + (b - l) * sat;
    if (ta > 0) {
      const lt = l / 255;
      r += (tint[0] * lt - r) * ta;
      gr += (tint[1] * lt - gr) * ta;
      b += (tint[2] * lt - b) * ta;
    }
    r = (r - 128) * con + 128 + bri;
    gr = (gr - 128) * con + 128 + bri;
    b = (b - 128) * con + 128 + bri;
    if (gam !== 1) {
      r = 255 * Math.pow(Math.max(0, r) / 255, gam);
      gr = 255 * Math.pow(Math.max(0, gr) / 255, gam);
      b = 255 * Math.pow(Math.max(0, b) / 255, gam);
    }
    d[k] = r;
    d[k + 1] = gr;
    d[k + 2] = b;
  }
}

/** Darkens toward the corners; strength 0..1. */
export function vignette(c: Canvas, strength: number, color: Rgb = [0, 0, 0]): void {
  const w = c.width,
    h = c.height,
    d = c.data,
    cx = w / 2,
    cy = h / 2;
  const inv = 1 / (cx * cx + cy * cy);
  for (let y = 0; y < h; y++) {
    const dy = (y + 0.5 - cy) ** 2;
    for (let x = 0; x < w; x++) {
      const q = ((x + 0.5 - cx) ** 2 + dy) * inv;
      const f = strength * q * q * 1.6;
      const a = f > 1 ? 1 : f,
        k = (y * w + x) * 3;
      d[k] += (color[0] - d[k]) * a;
      d[k + 1] += (color[1] - d[k + 1]) * a;
      d[k + 2] += (color[2] - d[k + 2]) * a;
    }
  }
}

/** Adds film/paper grain of +-amount; mono grain shifts all channels together. */
export function grain(c: Canvas, amount: number, seed: number, mono = true): void {
  const w = c.width,
    d = c.data;
  for (let i = 0, n = c.width * c.height; i < n; i++) {
    const x = i % w,
      y = (i / w) | 0,
      k = i * 3;
    const v = (hash2(x, y, seed) - 0.5) * 2 * amount;
    d[k] += v;
    d[k + 1] += mono ? v : (hash2(x, y, seed + 1) - 0.5) * 2 * amount;
    d[k + 2] += mono ? v : (hash2(x, y, seed + 2) - 0.5) * 2 * amount;
  }
}

/** Light above `threshold` spreads as a soft halo (computed at a quarter of the resolution). */
export function bloom(c: Canvas, threshold: number, radius: number, strength: number): void {
  const f = 4,
    w = Math.max(1, Math.ceil(c.width / f)),
    h = Math.max(1, Math.ceil(c.height / f));
  const small = new Float32Array(w * h * 3),
    count = new Float32Array(w * h);
  const d = c.data;
  for (let y = 0; y < c.height; y++) {
    const sy = y >> 2;
    for (let x = 0; x < c.width; x++) {
      const si = sy * w + (x >> 2),
        k = (y * c.width + x) * 3;
      const l = 0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2];
      const m = l > threshold ? (l - threshold) / Math.max(1, l) : 0;
      small[si * 3] += d[k] * m;
      small[si * 3 + 1] += d[k + 1] * m;
      small[si * 3 + 2] += d[k + 2] * m;
      count[si]++;
    }
  }
  for (let i = 0; i < w * h; i++) for (let k = 0; k < 3; k++) small[i * 3 + k] /= count[i] || 1;
  resampleInto(blur(small, w, h, 3, radius / f), w, h, d, c.width, c.height, 1, strength);
}

export function posterize(c: Canvas, levels: number): void {
  const d = c.data,
    step = 255 / (levels - 1);
  for (let k = 0; k < d.length; k++) d[k] = Math.round(Math.min(255, Math.max(0, d[k])) / step) * step;
}

/** Maps every pixel to the nearest palette colour (squared RGB distance). */
export function quantize(c: Canvas, palette: readonly Rgb[], dither = 0): void {
  const d = c.data,
    w = c.width;
  const bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
  for (let i = 0, n = w * c.height; i < n; i++) {
    const k = i * 3;
    const t = dither ? (bayer[((i / w) & 3) * 4 + ((i % w) & 3)] / 16 - 0.5) * dither : 0;
    const r = d[k] + t,
      g = d[k + 1] + t,
      b = d[k + 2] + t;
    let best = 0,
      bestD = Infinity;
    for (let p = 0; p < palette.length; p++) {
      const q = palette[p];
      const dist = (r - q[0]) ** 2 * 0.3 + (g - q[1]) ** 2 * 0.59 + (b - q[2]) ** 2 * 0.11;
      if (dist < bestD) {
        bestD = dist;
        best = p;
      }
    }
    d[k] = palette[best][0];
    d[k + 1] = palette[best][1];
    d[k + 2] = palette[best][2];
  }
}

/** The canvas at half its size (both sides even), each pixel the mean of its 2x2 block; layers from the top left. */
export function downsample2(src: Canvas): Canvas {
  const w = src.width >> 1,
    h = src.height >> 1,
    sw = src.width;
  const out = new Canvas(w, h),
    s = src.data,
    d = out.data;
  for (let y = 0; y < h; y++) {
    const r0 = 2 * y * sw,
      r1 = r0 + sw;
    for (let x = 0; x < w; x++) {
      const a = (r0 + 2 * x) * 3,
        b = (r1 + 2 * x) * 3,
        o = (y * w + x) * 3;
      d[o] = (s[a] + s[a + 3] + s[b] + s[b + 3]) * 0.25;
      d[o + 1] = (s[a + 1] + s[a + 4] + s[b + 1] + s[b + 4]) * 0.25;
      d[o + 2] = (s[a + 2] + s[a + 5] + s[b + 2] + s[b + 5]) * 0.25;
      out.layer[y * w + x] = src.layer[r0 + 2 * x];
    }
  }
  return out;
}

/** Unsharp mask of radius 1 px: each pixel moves `amount` times away from its 3x3 mean. */
export function sharpen(c: Canvas, amount: number): void {
  const soft = boxBlur(c.data, c.width, c.height, 3, 1),
    d = c.data;
  for (let k = 0; k < d.length; k++) d[k] += (d[k] - soft[k]) * amount;
}

/** Clamped 8-bit RGB bytes of the canvas. */
export function toRgbBytes(c: Canvas): Uint8Array {
  const out = new Uint8Array(c.data.length),
    d = c.data;
  for (let k = 0; k < d.length; k++) {
    const v = d[k];
    out[k] = v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0;
  }
  return out;
}
