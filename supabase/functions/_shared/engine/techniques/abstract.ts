// Abstract: no figures at all. Each motif of the prompt becomes a kind of shape (sun and moon
// circles, mountains triangles, water waves, buildings bars, plants dot clusters, people arcs), in the
// prompt's colours first, placed where the reference image is bright when there is one.
import { Canvas } from "../canvas.ts";
import { mix, type Rgb } from "../color.ts";
import { grain } from "../filters.ts";
import { COLOR_WORDS } from "../motifs.ts";
import type { Rng } from "../prng.ts";
import { GRID } from "../reference.ts";
import type { Job } from "./job.ts";
import { unit } from "./job.ts";

/** A ring segment from angle a0 to a1 (radians), anti-aliased. */
function arc(c: Canvas, cx: number, cy: number, r: number, width: number, col: Rgb, a0: number, a1: number): void {
  const ext = r + width;
  for (let y = Math.max(0, Math.floor(cy - ext)); y < Math.min(c.height, Math.ceil(cy + ext)); y++) {
    for (let x = Math.max(0, Math.floor(cx - ext)); x < Math.min(c.width, Math.ceil(cx + ext)); x++) {
      const dx = x + 0.5 - cx,
        dy = y + 0.5 - cy,
        d = Math.sqrt(dx * dx + dy * dy);
      const cov = Math.min(1, width / 2 - Math.abs(d - r) + 0.5);
      if (cov <= 0) continue;
      let a = Math.atan2(dy, dx);
      if (a < a0) a += Math.PI * 2;
      if (a > a1) continue;
      c.blend(y * c.width + x, col[0], col[1], col[2], cov);
    }
  }
}

export function abstract(job: Job): Canvas {
  const { width: w, height: h } = job,
    U = unit(job),
    s = job.scene,
    p = s.palette,
    rng = job.rng;
  const dark = s.time === "night" || s.time === "space";
  const pool: Rgb[] = [
    ...s.colors.map((c) => COLOR_WORDS[c]),
    p.accent,
    p.skyTop,
    p.accent2,
    p.water,
    p.sun,
    p.ground,
    ...job.style.tones,
  ];
  const colours = pool.slice(0, 7);
  const bg = dark ? mix(p.skyTop, [10, 10, 20], 0.4) : mix(mix(p.skyBottom, colours[0], 0.15), [246, 241, 230], 0.6);
  const c = new Canvas(w, h);
  c.gradientRows(0, h, [
    [0, bg],
    [1, mix(bg, colours[1], 0.2)],
  ]);
  const spot = placer(job, rng);
  const colour = () => rng.pick(colours);
  if (s.horizon < 1) c.fillRect(0, s.horizon * h - U * 0.012, w, s.horizon * h + U * 0.012, mix(colours[1], bg, 0.3));

  const has = (m: Parameters<typeof s.motifs.has>[0]) => s.motifs.has(m);
  if (has("mountain") || has("castle")) {
    for (let k = 0; k < 3; k++) {
      const [x, y] = spot(),
        size = U * rng.range(0.18, 0.35);
      c.fillPolygon([x - size, y + size * 0.6, x, y - size * 0.8, x + size, y + size * 0.6], colour(), 0.85);
    }
  }
  if (has("city") || has("house") || has("robot") || has("car")) {
    const [x0] = spot();
    for (let k = 0; k < 6; k++) {
      const bw = U * rng.range(0.03, 0.07),
        bh = U * rng.range(0.15, 0.5),
        x = x0 + (k - 3) * U * 0.08;
      c.fillRect(x, h * 0.85 - bh, x + bw, h * 0.85, colour(), 0.9);
    }
  }
  if (has("sun") || has("moon") || has("planet") || has("space")) {
    const [x, y] = spot();
    c.fillCircle(x, Math.min(y, h * 0.4), U * rng.range(0.1, 0.18), has("sun") ? p.sun : colour());
    arc(c, x, Math.min(y, h * 0.4), U * 0.24, U * 0.012, colour(), -Math.PI, Math.PI * 0.2);
  }
  if (has("sea") || has("river") || has("rain")) {
    for (let k = 0; k < 4; k++) {
      const y = h * rng.range(0.55, 0.95),
        amp = U * 0.02,
        pts: number[] = [];
      for (let x = -10; x <= w + 10; x += 8) pts.push(x, y + Math.sin(x / (U * 0.05) + k) * amp);
      c.strokePath(pts, U * 0.008, colour(), 0.9);
    }
  }
  if (has("forest") || has("flower") || has("hills") || has("snow")) {
    for (let k = 0; k < 3; k++) {
      const [x, y] = spot(),
        col = colour();
      for (let j = 0; j < 9; j++) {
        c.fillCircle(x + rng.range(-1, 1) * U * 0.08, y + rng.range(-1, 1) * U * 0.08, U * rng.range(0.01, 0.03), col);
      }
    }
  }
  if (has("portrait") || has("cat") || has("dog") || has("fox") || has("animal") || has("bird")) {
    const [x, y] = spot();
    arc(c, x, y, U * 0.12, U * 0.03, colour(), -Math.PI, 0);
    c.fillCircle(x, y - U * 0.02, U * 0.05, colour());
  }
  for (let k = 0; k < 9; k++) {
    const [x, y] = spot(),
      kind = rng.int(0, 3),
      col = colour(),
      size = U * rng.range(0.04, 0.16);
    if (kind === 0) c.fillCircle(x, y, size, col, 0.9);
    else if (kind === 1) arc(c, x, y, size, U * 0.01, col, -Math.PI, rng.range(-Math.PI, Math.PI));
    else if (kind === 2) c.strokeLine(x - size * 1.5, y + size, x + size * 1.5, y - size, U * 0.006, col);
    else c.fillRect(x - size * 0.2, y - size, x + size * 0.2, y + size, col, 0.85);
  }
  grain(c, 4, rng.seed);
  return c;
}

/** Positions for shapes: weighted toward bright parts of the reference, else spread at random. */
function placer(job: Job, rng: Rng): () => [number, number] {
  const { width: w, height: h } = job,
    light = job.scene.reference?.light;
  return () => {
    if (!light) return [rng.range(0.1, 0.9) * w, rng.range(0.1, 0.9) * h];
    for (let tries = 0; tries < 20; tries++) {
      const gx = rng.int(0, GRID - 1),
        gy = rng.int(0, GRID - 1);
      if (rng.next() < light[gy * GRID + gx]) return [((gx + rng.next()) / GRID) * w, ((gy + rng.next()) / GRID) * h];
    }
    return [rng.range(0.1, 0.9) * w, rng.range(0.1, 0.9) * h];
  };
}
