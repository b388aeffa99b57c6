// Playful styles. Surreal: an impossible sky, a perspective checkerboard floor and a melting warp.
// Nano Banana: sunny yellow polka-dot sky, confetti and soft warm outlines. Graffiti: the scene
// sprayed on a brick wall, with black and white outlines, overspray and drips.
import { Canvas, Layer } from "../canvas.ts";
import { hex, mix } from "../color.ts";
import { bloom, blur } from "../filters.ts";
import { hash2 } from "../prng.ts";
import { fastSin } from "../trig.ts";
import { type Job, unit } from "./job.ts";
import { applyInk, edgeMask, isSky, layerEdges, maxInto, TEXTURED_LAYERS } from "./passes.ts";

export function surreal(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job),
    s = job.scene,
    t = job.style.tones;
  const d = c.data,
    hy = Math.min(h - 1, Math.round(s.horizon * h));
  const skyA = t[3],
    skyB = t[0],
    tileA = t[4],
    tileB = t[1];
  const vx = s.focusX * w;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        layer = c.layer[i],
        k = i * 3;
      if (layer === Layer.sky) {
        const q = y / Math.max(1, hy);
        d[k] += (skyA[0] + (skyB[0] - skyA[0]) * q - d[k]) * 0.6;
        d[k + 1] += (skyA[1] + (skyB[1] - skyA[1]) * q - d[k + 1]) * 0.6;
        d[k + 2] += (skyA[2] + (skyB[2] - skyA[2]) * q - d[k + 2]) * 0.6;
      } else if ((layer === Layer.ground || layer === Layer.water) && y > hy) {
        const depth = (y - hy) / (h - hy);
        const u = ((x - vx) / (y - hy + 1)) * 2.2,
          v = 6 / (depth + 0.04);
        const tile = (Math.floor(u) + Math.floor(v)) & 1 ? tileA : tileB;
        const a = Math.min(0.8, depth * 3);
        d[k] += (tile[0] - d[k]) * a;
        d[k + 1] += (tile[1] - d[k + 1]) * a;
        d[k + 2] += (tile[2] - d[k + 2]) * a;
      }
    }
  }
  const src = c.data.slice(),
    noise = s.noise,
    nk = 256 / (U * 0.6);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const melt = Math.max(0, noise.sample(x * nk, 11) - 0.5) * U * 0.22 * (y / h);
      const sx = x + fastSin(y / (U * 0.05) + x / (U * 0.3)) * U * 0.01;
      const sy = y - melt;
      const xi = sx < 0 ? 0 : sx >= w ? w - 1 : sx | 0,
        yi = sy < 0 ? 0 : sy >= h ? h - 1 : sy | 0;
      const o = (y * w + x) * 3,
        q = (yi * w + xi) * 3;
      d[o] = src[q];
      d[o + 1] = src[q + 1];
      d[o + 2] = src[q + 2];
    }
  }
  return c;
}

export function nanoBanana(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job),
    rng = job.rng,
    tones = job.style.tones;
  const lines = maxInto(edgeMask(c, 26, 1.5, Math.max(1, U / 500), TEXTURED_LAYERS), layerEdges(c, true));
  const d = c.data,
    cell = U * 0.07,
    dot = cell * 0.22;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (c.layer[i] !== Layer.sky) continue;
      const row = Math.floor(y / cell),
        ox = (row & 1) * cell * 0.5;
      const fx = ((x + ox) % cell) - cell / 2,
        fy = (y % cell) - cell / 2;
      const cov = Math.min(1, Math.max(0, dot - Math.sqrt(fx * fx + fy * fy) + 0.5));
      if (cov <= 0) continue;
      const k = i * 3;
      d[k] += (255 - d[k]) * cov * 0.35;
      d[k + 1] += (250 - d[k + 1]) * cov * 0.35;
      d[k + 2] += (220 - d[k + 2]) * cov * 0.35;
    }
  }
  applyInk(c, blur(lines, w, h, 1, 1), hex("#7a4a12"), 0.9);
  for (let i = 0; i < 110; i++) {
    const x = rng.next() * w,
      y = rng.next() * h,
      a = rng.next() * Math.PI,
      len = U * rng.range(0.008, 0.018),
      wd = len * 0.45;
    const ca = Math.cos(a),
      sa = Math.sin(a);
    c.fillPolygon(
      [
        x - ca * len + sa * wd,
        y - sa * len - ca * wd,
        x + ca * len + sa * wd,
        y + sa * len - ca * wd,
        x + ca * len - sa * wd,
        y + sa * len + ca * wd,
        x - ca * len - sa * wd,
        y - sa * len + ca * wd,
      ],
      rng.pick(tones),
    );
  }
  bloom(c, 225, U * 0.03, 0.3);
  return c;
}

export function graffiti(job: Job): Canvas {
  const scene = job.compose(job.width, job.height);
  const { width: w, height: h } = scene,
    U = unit(job),
    rng = job.rng;
  const out = new Canvas(w, h, undefined, scene.layer);
  const d = out.data,
    sd = scene.data;
  const bh = U * 0.036,
    bw = bh * 2.6,
    mortar = Math.max(1, U * 0.003);
  const brick = hex("#8a4b3c"),
    grout = hex("#c9bfb3");
  for (let y = 0; y < h; y++) {
    const row = Math.floor(y / bh),
      fy = y - row * bh;
    for (let x = 0; x < w; x++) {
      const off = (row & 1) * bw * 0.5,
        col = Math.floor((x + off) / bw),
        fx = x + off - col * bw;
      const isMortar = fy < mortar || fx < mortar;
      const shade = 0.8 + hash2(col, row, 5) * 0.35 + (hash2(x >> 1, y >> 1, 9) - 0.5) * 0.12;
      const k = (y * w + x) * 3,
        i = y * w + x;
      const wr = isMortar ? grout[0] : brick[0] * shade,
        wg = isMortar ? grout[1] : brick[1] * shade,
        wb = isMortar ? grout[2] : brick[2] * shade;
      // Paint covers the wall; the sky is a thinner coat the bricks show through.
      const paint = isSky(scene.layer[i]) ? 0.55 : 0.93;
      d[k] = wr + (sd[k] - wr) * paint;
      d[k + 1] = wg + (sd[k + 1] - wg) * paint;
      d[k + 2] = wb + (sd[k + 2] - wb) * paint;
    }
  }
  const inner = maxInto(edgeMask(scene, 24, 1.5, Math.max(1, U / 320), TEXTURED_LAYERS), layerEdges(scene, true));
  const outer = blur(inner, w, h, 1, Math.max(2, U / 110));
  for (let i = 0; i < inner.length; i++) outer[i] = Math.min(1, outer[i] * 3) * (1 - Math.min(1, inner[i] * 1.5));
  applyInk(out, outer, hex("#ffffff"), 0.85);
  applyInk(out, blur(inner, w, h, 1, 1), hex("#141414"), 1.5);
  for (let k = 0; k < 3000; k++) {
    const x = rng.next() * w,
      y = rng.next() * h,
      i = (y | 0) * w + (x | 0);
    if (inner[i] < 0.2 && outer[i] < 0.2) continue;
    const s = i * 3;
    out.fillCircle(
      x + rng.range(-1, 1) * U * 0.01,
      y + rng.range(-1, 1) * U * 0.01,
      U * rng.range(0.0008, 0.002),
      [sd[s], sd[s + 1], sd[s + 2]],
      0.8,
    );
  }
  for (let k = 0; k < 45; k++) {
    const x = rng.next() * w,
      y = rng.range(0.1, 0.85) * h,
      s = ((y | 0) * w + (x | 0)) * 3;
    if (isSky(scene.layer[(y | 0) * w + (x | 0)])) continue;
    const col = mix([sd[s], sd[s + 1], sd[s + 2]], [0, 0, 0], 0.1),
      len = U * rng.range(0.03, 0.12),
      wd = U * rng.range(0.003, 0.006);
    out.strokeLine(x, y, x, y + len, wd, col, 0.9);
    out.fillCircle(x, y + len, wd * 0.9, col, 0.9);
  }
  return out;
}
