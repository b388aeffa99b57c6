// Reduction styles. Pixel art: the scene drawn on a coarse grid, snapped to a 16-colour palette with
// ordered dithering, blown up with hard edges. Minimalist: the scene blurred to its big masses, cut
// into five flat colours (its own, nudged toward the style's) inside a wide calm margin.
import { Canvas } from "../canvas.ts";
import { mix, type Rgb } from "../color.ts";
import { blur, layersAt, quantize, resampleInto } from "../filters.ts";
import { type Job, unit } from "./job.ts";

export function pixelArt(job: Job): Canvas {
  const { width: w, height: h } = job;
  const cell = Math.max(2, Math.round(unit(job) / 110));
  const sw = Math.ceil(w / cell), sh = Math.ceil(h / cell);
  const small = job.compose(sw, sh);
  quantize(small, job.style.tones, 20);
  const out = new Canvas(w, h);
  for (let y = 0; y < h; y++) {
    const sy = Math.floor(y / cell);
    for (let x = 0; x < w; x++) {
      const si = sy * sw + Math.floor(x / cell), di = y * w + x;
      out.data[di * 3] = small.data[si * 3];
      out.data[di * 3 + 1] = small.data[si * 3 + 1];
      out.data[di * 3 + 2] = small.data[si * 3 + 2];
      out.layer[di] = small.layer[si];
    }
  }
  return out;
}

/** k-means over the pixels of a small image: its k dominant colours. */
function dominant(c: Canvas, k: number): Rgb[] {
  const d = c.data, n = c.width * c.height;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => d[a * 3] + d[a * 3 + 1] + d[a * 3 + 2] - (d[b * 3] + d[b * 3 + 1] + d[b * 3 + 2]));
  const centres = Array.from({ length: k }, (_, j) => {
    const i = order[Math.floor(((j + 0.5) * n) / k)];
    return [d[i * 3], d[i * 3 + 1], d[i * 3 + 2]];
  });
  for (let round = 0; round < 8; round++) {
    const sums = centres.map(() => [0, 0, 0, 0]);
    for (let i = 0; i < n; i++) {
      let best = 0, bestD = Infinity;
      for (let j = 0; j < k; j++) {
        const dist = (d[i * 3] - centres[j][0]) ** 2 + (d[i * 3 + 1] - centres[j][1]) ** 2 + (d[i * 3 + 2] - centres[j][2]) ** 2;
        if (dist < bestD) (bestD = dist), (best = j);
      }
      for (let ch = 0; ch < 3; ch++) sums[best][ch] += d[i * 3 + ch];
      sums[best][3]++;
    }
    for (let j = 0; j < k; j++) if (sums[j][3] > 0) centres[j] = sums[j].slice(0, 3).map((v) => v / sums[j][3]);
  }
  return centres.map((c) => [c[0], c[1], c[2]] as Rgb);
}

export function minimalist(job: Job): Canvas {
  const { width: w, height: h } = job, U = unit(job);
  const sw = Math.max(12, Math.round(w / 10)), sh = Math.max(12, Math.round(h / 10));
  const small = job.compose(sw, sh);
  small.data.set(blur(small.data, sw, sh, 3, 1.5));
  const tones = job.style.tones;
  const palette = dominant(small, 5).map((c) => {
    let best = tones[0], bestD = Infinity;
    for (const t of tones) {
      const dist = (t[0] - c[0]) ** 2 + (t[1] - c[1]) ** 2 + (t[2] - c[2]) ** 2;
      if (dist < bestD) (bestD = dist), (best = t);
    }
    return mix(c, best, 0.35);
  });
  const out = new Canvas(w, h);
  resampleInto(small.data, sw, sh, out.data, w, h, 0);
  out.layer.set(layersAt(small, w, h));
  quantize(out, palette);
  const margin = U * 0.07, paper = tones[0], d = out.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (x >= margin && y >= margin && x < w - margin && y < h - margin) continue;
      const k = (y * w + x) * 3;
      d[k] = paper[0];
      d[k + 1] = paper[1];
      d[k + 2] = paper[2];
    }
  }
  return out;
}
