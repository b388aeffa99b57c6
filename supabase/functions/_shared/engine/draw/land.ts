// The land: mountain ranges (peaked silhouettes split into lit and shadow faces, snow caps),
// rolling hills (also snowfields under snow), desert dunes with cacti, and a beach with a palm.
import { Layer } from "../canvas.ts";
import { mix, type Rgb } from "../color.ts";
import { profile } from "../noise.ts";
import type { Draw } from "./context.ts";

interface RidgeLook {
  lit: Rgb;
  shade: Rgb;
  /** Colour reached at the bottom of the fill. */
  base: Rgb;
  /** 0..1 pull toward the sky colour (distance). */
  haze: number;
  /** Strength of the rock/grass noise texture. */
  texture: number;
  /** How strongly slope decides light and shade. */
  relief: number;
}

/** Fills every column from top[x] down to `bottom`, shaded by slope against the light. */
function ridgeFill(d: Draw, top: Float32Array, bottom: number, look: RidgeLook): void {
  const { c, s, W, p } = d;
  const data = c.data,
    layer = c.layer,
    drawLayer = c.drawLayer;
  const sunDir = s.light.x < 0.5 ? 1 : -1;
  const yb = Math.min(d.H, Math.ceil(bottom));
  const nk = 256 / (d.U * 0.35);
  const sky = p.skyBottom;
  for (let x = 0; x < W; x++) {
    const t0 = top[x];
    if (t0 >= yb) continue;
    const slope = (top[Math.min(W - 1, x + 3)] - top[Math.max(0, x - 3)]) / 6;
    const lit = Math.min(1, Math.max(0, 0.5 - slope * sunDir * look.relief));
    const tr = look.shade[0] + (look.lit[0] - look.shade[0]) * lit;
    const tg = look.shade[1] + (look.lit[1] - look.shade[1]) * lit;
    const tb = look.shade[2] + (look.lit[2] - look.shade[2]) * lit;
    const span = Math.max(1, bottom - t0);
    const ya = Math.max(0, Math.floor(t0));
    for (let y = ya; y < yb; y++) {
      const cov = y === ya ? Math.min(1, ya + 1 - t0) : 1;
      const v = Math.min(1, (y + 0.5 - t0) / span);
      let r = tr + (look.base[0] - tr) * v,
        g = tg + (look.base[1] - tg) * v,
        b = tb + (look.base[2] - tb) * v;
      const n = 1 + (s.noise.sample(x * nk, y * nk * 1.6) - 0.5) * look.texture;
      r *= n;
      g *= n;
      b *= n;
      const h = look.haze;
      r += (sky[0] - r) * h;
      g += (sky[1] - g) * h;
      b += (sky[2] - b) * h;
      const i = y * W + x,
        k = i * 3;
      data[k] += (r - data[k]) * cov;
      data[k + 1] += (g - data[k + 1]) * cov;
      data[k + 2] += (b - data[k + 2]) * cov;
      if (cov > 0.5) layer[i] = drawLayer;
    }
  }
}

/**
 * Mountain ranges built from peaks (max of triangular envelopes plus fractal detail), far to near.
 * Each peak is split along a wandering ridge line into a lit face and a shadow face, so the range
 * reads as solid rock; high peaks carry snow.
 */
export function drawMountains(d: Draw): void {
  const { c, p, s, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.far;
  const data = c.data,
    layer = c.layer;
  const snowy = s.motifs.has("snow") || rng.chance(0.6);
  const sunLeft = s.light.x < 0.5;
  const nk = 256 / (U * 0.5);
  for (let i = 0; i < 3; i++) {
    const base = hy + (i === 2 ? H * 0.01 : 0) + 2;
    const amp = hy * [0.6, 0.46, 0.3][i] * rng.range(0.85, 1.1);
    const count = rng.int(3, 5) + (2 - i);
    const peaks: { x: number; h: number; slope: number; lean: number }[] = [];
    for (let k = 0; k < count; k++) {
      const h = amp * rng.range(0.45, 1);
      peaks.push({
        x: ((k + rng.range(0.1, 0.9)) / count) * W * 1.2 - W * 0.1,
        h,
        slope: h / (W * rng.range(0.1, 0.22)),
        lean: rng.range(-0.5, 0.5),
      });
    }
    const detail = profile(rng, W, 12, 4, 0.55);
    const top = new Float32Array(W),
      owner = new Uint8Array(W);
    for (let x = 0; x < W; x++) {
      let best = amp * 0.08,
        who = 0;
      for (let k = 0; k < count; k++) {
        const e = peaks[k].h - Math.abs(x - peaks[k].x) * peaks[k].slope;
        if (e > best) {
          best = e;
          who = k;
        }
      }
      top[x] = base - best - (detail[x] - 0.5) * amp * 0.14;
      owner[x] = who;
    }
    const haze = [0.55, 0.3, 0.08][i];
    const lit = mix(mix(p.mountain, p.sun, s.time === "night" ? 0.05 : 0.25), p.skyBottom, haze);
    const shade = mix(p.mountainShade, p.skyBottom, haze);
    const foot = mix(mix(p.mountainShade, p.skyBottom, 0.45), p.skyBottom, haze);
    const snowLit = mix(p.snow, p.skyBottom, haze * 0.6),
      snowShade = mix(mix(p.snow, p.skyTop, 0.4), p.skyBottom, haze * 0.6);
    const soft = Math.max(1.5, U * 0.004);
    for (let x = 0; x < W; x++) {
      const pk = peaks[owner[x]];
      const peakY = base - pk.h;
      const ya = Math.max(0, Math.floor(top[x]));
      const snowLine = peakY + pk.h * (0.22 + 0.12 * detail[x]);
      const hasSnow = snowy && i < 2 && pk.h > amp * 0.6;
      for (let y = ya; y < base && y < H; y++) {
        const n = s.noise.sample(x * nk, y * nk * 0.35);
        const ridge = pk.x + (y - peakY) * pk.lean + (n - 0.5) * pk.h * 0.3;
        let t = ((sunLeft ? ridge - x : x - ridge) / soft) * 0.5 + 0.5;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const v = Math.min(1, (y - top[x]) / Math.max(1, base - top[x]));
        const g = 0.9 + n * 0.2;
        let r: number, gg: number, b: number;
        if (hasSnow && y < snowLine + (n - 0.5) * pk.h * 0.2) {
          r = snowShade[0] + (snowLit[0] - snowShade[0]) * t;
          gg = snowShade[1] + (snowLit[1] - snowShade[1]) * t;
          b = snowShade[2] + (snowLit[2] - snowShade[2]) * t;
        } else {
          r = (shade[0] + (lit[0] - shade[0]) * t) * g;
          gg = (shade[1] + (lit[1] - shade[1]) * t) * g;
          b = (shade[2] + (lit[2] - shade[2]) * t) * g;
          const f = v * v * 0.8;
          r += (foot[0] - r) * f;
          gg += (foot[1] - gg) * f;
          b += (foot[2] - b) * f;
        }
        const cov = y === ya ? Math.min(1, ya + 1 - top[x]) : 1;
        const idx = y * W + x,
          k3 = idx * 3;
        data[k3] += (r - data[k3]) * cov;
        data[k3 + 1] += (gg - data[k3 + 1]) * cov;
        data[k3 + 2] += (b - data[k3 + 2]) * cov;
        if (cov > 0.5) layer[idx] = Layer.far;
      }
    }
  }
}

/** Rolling ground in three layers; `bankOnly` keeps just a foreground bank (in front of water). */
export function drawHills(d: Draw, bankOnly: boolean): void {
  const { c, p, rng, W, H, hy } = d;
  c.drawLayer = Layer.ground;
  const layers = 3;
  for (let i = bankOnly ? 2 : 0; i < layers; i++) {
    const start = hy + (H - hy) * [0, 0.22, bankOnly ? 0.72 : 0.5][i];
    const amp = (H - hy) * [0.16, 0.2, 0.24][i] + H * 0.02;
    const prof = profile(rng, W, 2, 3, 0.4);
    const top = new Float32Array(W);
    for (let x = 0; x < W; x++) top[x] = start - amp * prof[x] + amp * 0.3;
    const near = i / (layers - 1);
    ridgeFill(d, top, H + 1, {
      lit: mix(p.grass, p.sun, 0.12),
      shade: mix(p.ground, p.groundDark, 0.3 + near * 0.2),
      base: mix(p.ground, p.groundDark, 0.55 + near * 0.3),
      haze: [0.35, 0.15, 0][i],
      texture: 0.16 + near * 0.12,
      relief: 4,
    });
  }
}

export function drawDesert(d: Draw, bankOnly: boolean): void {
  const { c, p, s, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.ground;
  for (let i = bankOnly ? 2 : 0; i < 3; i++) {
    const start = hy + (H - hy) * [0.02, 0.3, bankOnly ? 0.75 : 0.6][i];
    const amp = (H - hy) * [0.18, 0.22, 0.26][i];
    const prof = profile(rng, W, 2, 2, 0.3);
    const top = new Float32Array(W);
    for (let x = 0; x < W; x++) top[x] = start - amp * prof[x] + amp * 0.4;
    ridgeFill(d, top, H + 1, {
      lit: mix(p.sand, p.sun, 0.25),
      shade: mix(p.sand, p.groundDark, 0.55),
      base: mix(p.sand, p.groundDark, 0.25),
      haze: [0.3, 0.12, 0][i],
      texture: 0.08,
      relief: 12,
    });
  }
  if (!s.motifs.has("desert")) return;
  c.drawLayer = Layer.plant;
  const cactus = mix(p.foliage, p.groundDark, 0.2);
  for (let k = rng.int(1, 3); k > 0; k--) {
    const x = rng.range(0.08, 0.92) * W,
      y = hy + (H - hy) * rng.range(0.35, 0.8);
    const h = U * rng.range(0.12, 0.22) * ((y - hy) / (H - hy) + 0.4),
      w = h * 0.16;
    c.strokeLine(x, y, x, y - h, w, {
      linear: [x - w, 0, x + w, 0],
      from: mix(cactus, p.sun, 0.2),
      to: mix(cactus, p.ink, 0.4),
    });
    for (const side of [-1, 1]) {
      const ay = y - h * rng.range(0.35, 0.6),
        ax = x + side * w * 1.6;
      c.strokePath([x, ay, ax, ay, ax, ay - h * rng.range(0.2, 0.35)], w * 0.7, mix(cactus, p.ink, 0.15));
    }
  }
}

/** Sand on one side, its shoreline running diagonally down to the bottom edge, and a palm on it. */
export function drawBeach(d: Draw): void {
  const { c, p, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.ground;
  const left = rng.chance(0.5);
  const x0 = left ? 0 : W,
    x1 = W * (left ? rng.range(0.55, 0.75) : rng.range(0.25, 0.45));
  const y0 = hy + (H - hy) * rng.range(0.25, 0.4);
  const prof = profile(rng, 64, 3, 3, 0.5);
  const shore: number[] = [];
  for (let i = 0; i <= 32; i++) {
    const t = i / 32,
      wobble = (prof[i * 2 - (i === 32 ? 1 : 0)] - 0.5) * U * 0.03;
    shore.push(x0 + (x1 - x0) * t + wobble, y0 + (H + 2 - y0) * t * t * 0.6 + (H + 2 - y0) * t * 0.4);
  }
  c.fillPolygon([...shore, x0, H + 2], {
    linear: [0, y0, 0, H],
    from: mix(p.sand, p.waterLight, 0.15),
    to: mix(p.sand, p.sun, 0.15),
  });
  c.strokePath(shore, U * 0.006, mix(p.cloud, p.waterLight, 0.3), 0.8);
  drawPalm(d, left ? W * rng.range(0.06, 0.16) : W * rng.range(0.84, 0.94), H * 0.98);
}

function drawPalm(d: Draw, x: number, y: number): void {
  const { c, p, rng, U } = d;
  c.drawLayer = Layer.plant;
  const h = U * rng.range(0.45, 0.6),
    lean = (x < d.W / 2 ? 1 : -1) * h * 0.25;
  let px = x,
    py = y;
  const steps = 10;
  let topX = x,
    topY = y;
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const nx = x + lean * t * t,
      ny = y - h * t;
    c.strokeLine(px, py, nx, ny, U * (0.03 - 0.014 * t), {
      linear: [nx - U * 0.02, 0, nx + U * 0.02, 0],
      from: mix(p.trunk, p.sand, 0.3),
      to: p.trunk,
    });
    px = nx;
    py = ny;
    topX = nx;
    topY = ny;
  }
  for (let k = 0; k < 8; k++) {
    const a = -Math.PI / 2 + (k / 7 - 0.5) * Math.PI * 1.6 + rng.range(-0.15, 0.15);
    const len = U * rng.range(0.16, 0.22);
    const pts: number[] = [];
    const left: number[] = [];
    for (let i = 0; i <= 8; i++) {
      const t = i / 8;
      const droop = t * t * len * 0.5;
      const cx = topX + Math.cos(a) * len * t,
        cy = topY + Math.sin(a) * len * t + droop;
      const wdt = Math.sin(Math.PI * t) * len * 0.11;
      const nx = -Math.sin(a),
        ny = Math.cos(a);
      pts.push(cx + nx * wdt, cy + ny * wdt);
      left.unshift(cx - nx * wdt, cy - ny * wdt);
    }
    c.fillPolygon([...pts, ...left], k % 2 ? p.foliage : mix(p.foliage, p.foliageDark, 0.5));
  }
}
