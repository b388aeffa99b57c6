// Reduction styles. Pixel art: the scene drawn on a coarse grid, snapped to a 16-colour palette with
// ordered dithering, blown up with hard edges. Minimalist: every part of the scene flattened to one
// colour per kind (sky, sun, far land, ground, water, subjects as a silhouette) inside a calm margin.
import { Canvas } from "../canvas.ts";
import { mix, type Rgb } from "../color.ts";
import { blur, layersAt, quantize } from "../filters.ts";
import { type Job, markSize, unit, workSide } from "./job.ts";

export function pixelArt(job: Job): Canvas {
  const { width: w, height: h } = job;
  const cell = Math.max(2, Math.round(markSize(job, unit(job) / 110)));
  const sw = Math.ceil(w / cell),
    sh = Math.ceil(h / cell);
  const small = job.compose(sw, sh);
  quantize(small, job.style.tones, 20);
  const out = new Canvas(w, h);
  for (let y = 0; y < h; y++) {
    const sy = Math.floor(y / cell);
    for (let x = 0; x < w; x++) {
      const si = sy * sw + Math.floor(x / cell),
        di = y * w + x;
      out.data[di * 3] = small.data[si * 3];
      out.data[di * 3 + 1] = small.data[si * 3 + 1];
      out.data[di * 3 + 2] = small.data[si * 3 + 2];
      out.layer[di] = small.layer[si];
    }
  }
  return out;
}

/** Flat-colour classes for the minimalist poster: what each layer becomes. */
const CLASS_OF_LAYER = [0, 1, 0, 2, 3, 4, 5, 5, 5, 5];

export function minimalist(job: Job): Canvas {
  const { width: w, height: h } = job,
    U = unit(job),
    tones = job.style.tones;
  const sw = Math.max(12, workSide(job, w, 3)),
    sh = Math.max(12, workSide(job, h, 3));
  const small = job.compose(sw, sh);
  // One flat colour per class: its mean colour in the scene, pulled toward the nearest style tone.
  const sums = Array.from({ length: 6 }, () => [0, 0, 0, 0]);
  let brightest: Rgb = tones[0],
    brightL = -1;
  for (let i = 0; i < sw * sh; i++) {
    const k = CLASS_OF_LAYER[small.layer[i]],
      sum = sums[k];
    const r = small.data[i * 3],
      g = small.data[i * 3 + 1],
      b = small.data[i * 3 + 2];
    sum[0] += r;
    sum[1] += g;
    sum[2] += b;
    sum[3]++;
    if (k === 1 && r + g + b > brightL) {
      brightL = r + g + b;
      brightest = [r, g, b];
    }
  }
  const palette: Rgb[] = sums.map(([r, g, b, n], k) => {
    // The sun or moon keeps its brightest colour; glow around it would only grey it.
    const mean: Rgb = k === 1 ? brightest : n > 0 ? [r / n, g / n, b / n] : tones[k % tones.length];
    let best = tones[0],
      bestD = Infinity;
    for (const t of tones) {
      const dist = (t[0] - mean[0]) ** 2 + (t[1] - mean[1]) ** 2 + (t[2] - mean[2]) ** 2;
      if (dist < bestD) {
        bestD = dist;
        best = t;
      }
    }
    // Subjects read as a dark silhouette against the flat ground.
    return k === 5 ? mix(mix(mean, best, 0.4), tones[3], 0.5) : mix(mean, best, k === 1 ? 0.2 : 0.4);
  });
  // Class shapes: one-hot weights, softened, upsampled; each pixel takes its heaviest class, which
  // gives smooth curved edges with no in-between colours.
  const weights = new Float32Array(sw * sh * 6);
  for (let i = 0; i < sw * sh; i++) weights[i * 6 + CLASS_OF_LAYER[small.layer[i]]] = 1;
  const soft = blur(weights, sw, sh, 6, 1.2);
  const out = new Canvas(w, h);
  out.layer.set(layersAt(small, w, h));
  const d = out.data,
    fx = sw / w,
    fy = sh / h;
  for (let y = 0; y < h; y++) {
    const gy = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5)),
      y0 = gy | 0,
      y1 = Math.min(sh - 1, y0 + 1),
      ty = gy - y0;
    for (let x = 0; x < w; x++) {
      const gx = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5)),
        x0 = gx | 0,
        x1 = Math.min(sw - 1, x0 + 1),
        tx = gx - x0;
      const a = (y0 * sw + x0) * 6,
        b = (y0 * sw + x1) * 6,
        c = (y1 * sw + x0) * 6,
        e = (y1 * sw + x1) * 6;
      let best = 0,
        bestW = -1;
      for (let k = 0; k < 6; k++) {
        const wk = (soft[a + k] * (1 - tx) + soft[b + k] * tx) * (1 - ty) +
          (soft[c + k] * (1 - tx) + soft[e + k] * tx) * ty;
        if (wk > bestW) {
          bestW = wk;
          best = k;
        }
      }
      const col = palette[best],
        o = (y * w + x) * 3;
      d[o] = col[0];
      d[o + 1] = col[1];
      d[o + 2] = col[2];
    }
  }
  const margin = U * 0.07,
    paper = tones[0];
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
