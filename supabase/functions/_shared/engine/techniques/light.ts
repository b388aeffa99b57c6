// Techniques that are mostly about light: photorealistic (soft light, haze, grain), digital art (bloom,
// sharpness, a colour wash), fantasy (god rays, sparkles), cyberpunk (neon rim light, scanlines,
// chromatic fringes), neon (glowing tubes on black) and 3D render (bevelled plastic, contact shadows).
import { Canvas, Layer } from "../canvas.ts";
import { hex, mix, type Rgb, toHsl } from "../color.ts";
import { bloom, blur, boxBlur, grain, resize, vignette } from "../filters.ts";
import { applyInk, edgeMask, isSky } from "./passes.ts";
import { type Job, unit } from "./job.ts";

export function photorealistic(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  // A soft lens: fully at standard; higher qualities keep more of their finer scene.
  const soft = boxBlur(c.data, c.width, c.height, 3, 1),
    d = c.data,
    keep = 1 - 1 / job.detail;
  if (keep === 0) d.set(soft);
  else for (let k = 0; k < d.length; k++) d[k] = soft[k] + (d[k] - soft[k]) * keep;
  bloom(c, 190, unit(job) * 0.05, 0.35);
  vignette(c, 0.22);
  grain(c, 2.5, job.rng.seed);
  return c;
}

export function digitalArt(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c;
  const soft = blur(c.data, w, h, 3, 2);
  const d = c.data;
  for (let k = 0; k < d.length; k++) d[k] += (d[k] - soft[k]) * 0.8;
  bloom(c, 150, unit(job) * 0.06, 0.65);
  const a = job.scene.palette.accent,
    b = job.scene.palette.glow;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = (x / w + y / h) / 2,
        k = (y * w + x) * 3;
      const tint = t < 0.5 ? a : b,
        s = Math.abs(t - 0.5) * 0.36;
      d[k] += (255 - d[k]) * (tint[0] / 255) * s;
      d[k + 1] += (255 - d[k + 1]) * (tint[1] / 255) * s;
      d[k + 2] += (255 - d[k + 2]) * (tint[2] / 255) * s;
    }
  }
  vignette(c, 0.18, hex("#0b0f2e"));
  return c;
}

/** Light streaming from the light source: bright pixels smeared radially, at a quarter resolution. */
function godRays(c: Canvas, lx: number, ly: number, strength: number, tint: Rgb): void {
  const f = 4,
    w = Math.ceil(c.width / f),
    h = Math.ceil(c.height / f);
  const small = resize(c, w, h),
    s = small.data;
  const bright = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const l = 0.299 * s[i * 3] + 0.587 * s[i * 3 + 1] + 0.114 * s[i * 3 + 2];
    bright[i] = isSky(small.layer[i]) ? Math.max(0, l - 170) / 85 : 0;
  }
  const rays = new Float32Array(w * h);
  const cx = lx / f,
    cy = ly / f,
    taps = 24;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let acc = 0,
        px = x,
        py = y,
        weight = 1;
      const dx = (cx - x) / taps,
        dy = (cy - y) / taps;
      for (let t = 0; t < taps; t++, px += dx, py += dy, weight *= 0.96) {
        acc += bright[Math.min(h - 1, Math.max(0, py | 0)) * w + Math.min(w - 1, Math.max(0, px | 0))] * weight;
      }
      rays[y * w + x] = acc / taps;
    }
  }
  const ray = new Canvas(w, h);
  for (let i = 0; i < w * h; i++) {
    ray.data[i * 3] = rays[i];
    ray.data[i * 3 + 1] = rays[i];
    ray.data[i * 3 + 2] = rays[i];
  }
  const big = resize(ray, c.width, c.height).data,
    d = c.data;
  for (let k = 0; k < d.length; k += 3) {
    const v = big[k] * strength;
    d[k] += tint[0] * v;
    d[k + 1] += tint[1] * v;
    d[k + 2] += tint[2] * v;
  }
}

export function fantasy(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { scene, rng } = job,
    U = unit(job),
    p = scene.palette;
  godRays(c, scene.light.x * c.width, scene.light.y * c.height, 0.7, mix(p.sun, p.glow, 0.3));
  bloom(c, 210, U * 0.05, 0.3);
  const sparkle = [p.glow, p.accent2, p.star, mix(p.accent, p.glow, 0.5)];
  for (let i = 0; i < 140; i++) {
    const x = rng.next() * c.width,
      y = rng.next() * c.height,
      r = U * rng.range(0.002, 0.008);
    const col = rng.pick(sparkle);
    c.glow(x, y, r * 5, col, 0.5);
    c.fillCircle(x, y, r, mix(col, [255, 255, 255], 0.6), 0.9);
  }
  vignette(c, 0.35, hex("#1a0b3b"));
  return c;
}

export function cyberpunk(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job);
  const pink = hex("#ff2a6d"),
    cyan = hex("#05d9e8");
  const edges = edgeMask(c, 28, 1, 1);
  const d = c.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        e = edges[i];
      if (e <= 0 || isSky(c.layer[i])) continue;
      const col = (x / w + (c.layer[i] === Layer.water ? 0.5 : 0)) % 1 < 0.5 ? pink : cyan,
        k = i * 3;
      d[k] += (col[0] - d[k]) * e * 0.8;
      d[k + 1] += (col[1] - d[k + 1]) * e * 0.8;
      d[k + 2] += (col[2] - d[k + 2]) * e * 0.8;
    }
  }
  for (let y = 0; y < h; y++) {
    const t = y / h;
    for (let x = 0; x < w; x++) {
      const k = (y * w + x) * 3,
        haze = t * t * 0.25;
      d[k] += pink[0] * haze * 0.5;
      d[k + 2] += pink[2] * haze * 0.5;
    }
  }
  bloom(c, 120, U * 0.05, 0.9);
  const shifted = new Float32Array(d.length);
  const off = Math.max(1, Math.round(U * 0.002));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const k = (y * w + x) * 3;
      shifted[k] = d[(y * w + Math.min(w - 1, x + off)) * 3];
      shifted[k + 1] = d[k + 1];
      shifted[k + 2] = d[(y * w + Math.max(0, x - off)) * 3 + 2];
    }
  }
  d.set(shifted);
  const line = Math.max(2, Math.round(U / 340));
  for (let y = 0; y < h; y++) {
    if (y % (line * 2) >= line) continue;
    for (let k = y * w * 3; k < (y + 1) * w * 3; k++) d[k] *= 0.82;
  }
  vignette(c, 0.3, hex("#0d0221"));
  return c;
}

export function neon(job: Job): Canvas {
  const scene = job.compose(job.width, job.height);
  const { width: w, height: h } = scene,
    U = unit(job);
  const lines = edgeMask(scene, 16, 2, Math.max(1, U / 700));
  const out = new Canvas(w, h, undefined, scene.layer);
  const wall = hex("#07060f"),
    od = out.data,
    sd = scene.data;
  const tubes = job.style.tones.slice(0, 5);
  const tubeHues = tubes.map((t) => toHsl(t)[0]);
  const light = new Float32Array(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    const k = i * 3;
    const l = (0.299 * sd[k] + 0.587 * sd[k + 1] + 0.114 * sd[k + 2]) / 255;
    od[k] = wall[0] + sd[k] * 0.07;
    od[k + 1] = wall[1] + sd[k + 1] * 0.07;
    od[k + 2] = wall[2] + sd[k + 2] * 0.07;
    const e = lines[i];
    if (e <= 0) continue;
    // The tube colour is the neon tone nearest in hue to the scene colour underneath; greys pick by
    // brightness, so a white moon stays a cool tube and dark stone a warm one.
    const r = sd[k],
      g = sd[k + 1],
      b = sd[k + 2];
    const max = Math.max(r, g, b),
      min = Math.min(r, g, b);
    let best = tubes[l > 0.5 ? 1 : 0];
    if (max - min > 30) {
      const hue = hueOf(r, g, b, max, min);
      let bestD = Infinity;
      for (let t = 0; t < tubes.length; t++) {
        const dh = Math.abs(hue - tubeHues[t]),
          dist = dh > 180 ? 360 - dh : dh;
        if (dist < bestD) {
          bestD = dist;
          best = tubes[t];
        }
      }
    }
    light[k] = best[0] * e;
    light[k + 1] = best[1] * e;
    light[k + 2] = best[2] * e;
  }
  const near = blur(light, w, h, 3, U * 0.006),
    far = blur(light, w, h, 3, U * 0.03);
  for (let k = 0; k < od.length; k++) {
    od[k] += near[k] * 1.2 + far[k] * 1.4 + light[k] * 0.9 + Math.max(0, light[k] - 120) * 0.8;
  }
  vignette(out, 0.3);
  return out;
}

export function render3d(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job),
    p = job.scene.palette;
  const solid = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    solid[i] = c.layer[i] >= Layer.structure || c.layer[i] === Layer.celestial || c.layer[i] === Layer.far ? 1 : 0;
  }
  const height = blur(solid, w, h, 1, U * 0.018);
  const shadow = blur(solid, w, h, 1, U * 0.03);
  const d = c.data;
  const studioTop = mix(p.skyMid, [245, 245, 250], 0.55),
    studioBottom = mix(p.skyBottom, [255, 255, 255], 0.35);
  const off = Math.round(U * 0.03);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        k = i * 3,
        layer = c.layer[i];
      if (layer === Layer.sky || layer === Layer.cloud) {
        const t = y / h;
        d[k] += (studioTop[0] + (studioBottom[0] - studioTop[0]) * t - d[k]) * 0.7;
        d[k + 1] += (studioTop[1] + (studioBottom[1] - studioTop[1]) * t - d[k + 1]) * 0.7;
        d[k + 2] += (studioTop[2] + (studioBottom[2] - studioTop[2]) * t - d[k + 2]) * 0.7;
      }
      if (solid[i] > 0) {
        const gx = height[Math.min(w * h - 1, i + 1)] - height[Math.max(0, i - 1)];
        const gy = height[Math.min(w * h - 1, i + w)] - height[Math.max(0, i - w)];
        const nx = -gx * 9,
          ny = -gy * 9,
          nz = 1,
          inv = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz);
        const diffuse = Math.max(0, (-nx * 0.5 - ny * 0.6 + nz * 0.62) * inv);
        const hz = ((-nx * 0.25 - ny * 0.3 + nz * 1.62) * inv) / 1.67;
        const spec = Math.pow(Math.max(0, hz), 40) * 140;
        const f = 0.55 + 0.6 * diffuse;
        d[k] = d[k] * f + spec;
        d[k + 1] = d[k + 1] * f + spec;
        d[k + 2] = d[k + 2] * f + spec;
      } else {
        const sy = y - off,
          sx = x - off;
        const occ = sy >= 0 && sx >= 0 ? shadow[sy * w + sx] : 0;
        const f = 1 - occ * 0.45;
        d[k] *= f;
        d[k + 1] *= f;
        d[k + 2] *= f;
      }
    }
  }
  const edges = edgeMask(c, 40, 1, 1);
  applyInk(c, edges, mix(p.ink, p.metalDark, 0.5), 0.25);
  bloom(c, 220, U * 0.03, 0.3);
  vignette(c, 0.12);
  return c;
}

/** Hue in degrees of an RGB triple whose max and min are given (no allocation). */
function hueOf(r: number, g: number, b: number, max: number, min: number): number {
  const d = max - min;
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return h * 60;
}
