// Looks of an era. Vintage: soft sepia print with grain, scratches, dust and a cream photo border.
// Gothic: split-toned night seen through a pointed stone arch. Baroque: chiaroscuro spotlight, warm
// paint relief and an ornate gilded frame. Steampunk: brass-toned haze inside riveted copper pipes.
import type { Canvas } from "../canvas.ts";
import { hex, mix } from "../color.ts";
import { blur, boxBlur, grain, vignette } from "../filters.ts";
import { hash2 } from "../prng.ts";
import { fastCos, fastSin } from "../trig.ts";
import { type Job, unit } from "./job.ts";
import { flowField, relief, smear, whiteNoise } from "./passes.ts";

export function vintage(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job),
    rng = job.rng;
  c.data.set(boxBlur(c.data, w, h, 3, 1));
  vignette(c, 0.55, hex("#3a2410"));
  grain(c, 11, rng.seed);
  for (let k = 0; k < 9; k++) {
    const x = rng.next() * w,
      y0 = rng.next() * h * 0.5,
      len = h * rng.range(0.2, 0.9);
    c.strokeLine(
      x,
      y0,
      x + rng.range(-0.01, 0.01) * w,
      y0 + len,
      Math.max(1, U * 0.0012),
      hex("#f3e6c8"),
      rng.range(0.15, 0.35),
    );
  }
  for (let k = 0; k < 70; k++) {
    c.fillCircle(
      rng.next() * w,
      rng.next() * h,
      U * rng.range(0.0008, 0.003),
      rng.chance(0.5) ? hex("#2a1a0a") : hex("#f6ecd4"),
      rng.range(0.3, 0.7),
    );
  }
  const border = U * 0.035,
    radius = U * 0.03,
    paper = hex("#efe4cc"),
    d = c.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dx = Math.max(border + radius - x, x - (w - 1 - border - radius), 0);
      const dy = Math.max(border + radius - y, y - (h - 1 - border - radius), 0);
      const out = Math.sqrt(dx * dx + dy * dy) - radius;
      if (out < -1) continue;
      const a = Math.min(1, out + 1),
        k = (y * w + x) * 3,
        n = (hash2(x, y, 3) - 0.5) * 12;
      d[k] += (paper[0] + n - d[k]) * a;
      d[k + 1] += (paper[1] + n - d[k + 1]) * a;
      d[k + 2] += (paper[2] + n - d[k + 2]) * a;
    }
  }
  return c;
}

/** Inside test for a pointed (two-centred) arch spanning [cx - half, cx + half], springing at ys. */
function archDistance(x: number, y: number, cx: number, half: number, ys: number, r: number): number {
  if (y >= ys) return Math.abs(x - cx) - half;
  const ax = x - (cx - half + r),
    bx = x - (cx + half - r),
    dy = y - ys;
  const a = Math.sqrt(ax * ax + dy * dy) - r;
  const b = Math.sqrt(bx * bx + dy * dy) - r;
  return Math.max(a, b);
}

export function gothic(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job);
  const d = c.data,
    shadow = hex("#3a0a1e"),
    light = hex("#c9c9dc");
  for (let k = 0; k < d.length; k += 3) {
    const l = (0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2]) / 255;
    const tone = l < 0.5 ? shadow : light,
      a = l < 0.5 ? (0.5 - l) * 0.7 : (l - 0.5) * 0.4;
    d[k] += (tone[0] * (l + 0.3) - d[k]) * a;
    d[k + 1] += (tone[1] * (l + 0.3) - d[k + 1]) * a;
    d[k + 2] += (tone[2] * (l + 0.3) - d[k + 2]) * a;
  }
  vignette(c, 0.5, hex("#07050b"));
  const margin = U * 0.07,
    half = w / 2 - margin,
    cx = w / 2;
  const apex = margin,
    rise = Math.min(h * 0.45, half * 1.7);
  const ys = apex + rise;
  const radius = Math.max(half, (rise * rise + half * half) / (2 * half));
  const stone = hex("#1b1822"),
    rim = hex("#6a6472"),
    noise = job.scene.noise,
    nk = 256 / (U * 0.15);
  const rimWidth = U * 0.018,
    rimInner = mix(rim, stone, 0.5);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dist = y > h - margin ?
        Math.max(archDistance(x, y, cx, half, ys, radius), y - (h - margin)) :
        archDistance(x, y, cx, half, ys, radius);
      if (dist < -rimWidth - 1) continue;
      const k = (y * w + x) * 3;
      const n = 0.75 + noise.sample(x * nk, y * nk) * 0.5;
      let r: number, g: number, b: number;
      if (dist > 0) {
        r = stone[0] * n;
        g = stone[1] * n;
        b = stone[2] * n;
      } else {
        const t = -dist / rimWidth;
        r = rim[0] + (rimInner[0] - rim[0]) * t;
        g = rim[1] + (rimInner[1] - rim[1]) * t;
        b = rim[2] + (rimInner[2] - rim[2]) * t;
      }
      const a = dist > 0 ? 1 : Math.min(1, dist + rimWidth + 1);
      d[k] += (r - d[k]) * a;
      d[k + 1] += (g - d[k + 1]) * a;
      d[k + 2] += (b - d[k + 2]) * a;
    }
  }
  return c;
}

/** Paint relief without moving colour: bristle marks lit from the upper left. */
function brushRelief(c: Canvas, job: Job, strength: number): void {
  const { width: w, height: h } = c,
    U = unit(job);
  const flow = flowField(w, h, job.scene.noise, U * 0.3, 0.6);
  relief(c, smear(blur(whiteNoise(w, h, job.rng.seed), w, h, 1, 1), w, h, 1, flow, U * 0.04, 7), strength);
}

export function baroque(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job),
    s = job.scene;
  const d = c.data,
    sx = s.focusX * w,
    sy = h * 0.45,
    r2 = (U * 0.55) ** 2;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const q = Math.max(0, 1 - ((x - sx) ** 2 + (y - sy) ** 2) / (r2 * 2.2)),
        f = 0.3 + 0.95 * q * q,
        k = (y * w + x) * 3;
      d[k] *= f * 1.05;
      d[k + 1] *= f;
      d[k + 2] *= f * 0.88;
    }
  }
  brushRelief(c, job, 0.8);
  const frame = U * 0.06,
    gold = hex("#d4af37");
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const e = Math.min(x, y, w - 1 - x, h - 1 - y);
      if (e >= frame + 1) continue;
      const t = e / frame,
        along = (x + y) / frame;
      // Bevel profile (bright lip, dark cove, bright bead) with repeating leaf ornaments.
      const bevel = t < 0.2 ? 1.25 - t : t < 0.55 ? 0.75 + (t - 0.2) * 0.4 : t < 0.8 ? 1.15 : 0.6;
      const ornament = t > 0.2 && t < 0.55 ? 0.25 * fastCos(along * Math.PI * 2) * fastCos(t * Math.PI * 6) : 0;
      const f = bevel + ornament,
        a = Math.min(1, frame + 1 - e),
        k = (y * w + x) * 3;
      d[k] += (gold[0] * f - d[k]) * a;
      d[k + 1] += (gold[1] * f - d[k + 1]) * a;
      d[k + 2] += (gold[2] * f * 0.8 - d[k + 2]) * a;
    }
  }
  return c;
}

export function steampunk(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job);
  vignette(c, 0.45, hex("#2a1a0c"));
  grain(c, 6, job.rng.seed, false);
  const pipe = U * 0.045,
    copper = hex("#b87333"),
    d = c.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const e = Math.min(x, y, w - 1 - x, h - 1 - y);
      if (e >= pipe) continue;
      const t = e / pipe;
      const round = fastSin(t * Math.PI);
      const f = 0.35 + 0.9 * round + (t > 0.25 && t < 0.4 ? 0.35 : 0),
        k = (y * w + x) * 3;
      d[k] = copper[0] * f;
      d[k + 1] = copper[1] * f;
      d[k + 2] = copper[2] * f;
    }
  }
  const rivet = hex("#e1c699");
  const step = U * 0.09;
  for (let p = step / 2; p < Math.max(w, h); p += step) {
    for (
      const [x, y] of [
        [p, pipe / 2],
        [p, h - pipe / 2],
        [pipe / 2, p],
        [w - pipe / 2, p],
      ]
    ) {
      if (x > w || y > h) continue;
      c.fillCircle(x, y, pipe * 0.16, {
        radial: [x - pipe * 0.05, y - pipe * 0.05, pipe * 0.2],
        from: rivet,
        to: hex("#5c4b3b"),
      });
    }
  }
  for (
    const [x, y] of [
      [pipe / 2, pipe / 2],
      [w - pipe / 2, pipe / 2],
      [pipe / 2, h - pipe / 2],
      [w - pipe / 2, h - pipe / 2],
    ]
  ) {
    c.fillCircle(x, y, pipe * 0.9, {
      radial: [x - pipe * 0.3, y - pipe * 0.3, pipe * 1.1],
      from: hex("#e0a060"),
      to: hex("#5a3010"),
    });
  }
  return c;
}
