// Growing and burning things: forests of conifers or round trees in hazy rows (leaving room around the
// subjects), flowers in the foreground, and a campfire with its glow.
import { Layer } from "../canvas.ts";
import { mix, type Rgb } from "../color.ts";
import { profile } from "../noise.ts";
import { type Draw, groundY } from "./context.ts";

export function drawForest(d: Draw): void {
  const { c, p, s, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.plant;
  const conifers = s.motifs.has("snow") || rng.chance(0.6);
  // A far tree line first, so the forest reads as deep.
  const line = profile(rng, W, 24, 3, 0.6);
  const top = new Float32Array(W);
  for (let x = 0; x < W; x++) top[x] = hy - U * (0.02 + 0.05 * line[x]);
  c.fillColumns(top, hy + 3, mix(p.foliageDark, p.skyBottom, 0.45), mix(p.foliageDark, p.skyBottom, 0.3), 1, U * 0.07);
  const clear = s.subjects.map((sub) => sub.x * W);
  const rows = 3;
  for (let r = 0; r < rows; r++) {
    const depth = s.motifs.has("sea") ? [0.74, 0.8, 0.9][r] : [0.04, 0.16, 0.34][r];
    const size = U * [0.09, 0.14, 0.22][r];
    const haze = [0.4, 0.2, 0][r];
    const spacing = size * (conifers ? 0.42 : 0.6);
    for (let x = -rng.range(0, spacing); x < W + spacing; x += spacing * rng.range(0.7, 1.3)) {
      if (r === rows - 1 && clear.some((cx) => Math.abs(cx - x) < U * 0.16)) continue;
      if (r === rows - 1 && rng.chance(0.35)) continue;
      const y = groundY(d, depth) + rng.range(-0.01, 0.02) * H;
      const h = size * rng.range(0.75, 1.25);
      if (conifers) drawConifer(d, x, y, h, haze);
      else drawRoundTree(d, x, y, h, haze);
    }
  }
}

export function drawConifer(d: Draw, x: number, y: number, h: number, haze: number): void {
  const { c, p, s } = d;
  const light = s.light.x * d.W < x ? 1 : -1;
  const dark = mix(p.foliageDark, p.skyBottom, haze),
    lit = mix(mix(p.foliage, p.sun, 0.1), p.skyBottom, haze);
  c.fillRect(x - h * 0.035, y - h * 0.15, x + h * 0.035, y + 1, mix(p.trunk, p.skyBottom, haze));
  const tiers = 4;
  for (let t = 0; t < tiers; t++) {
    const ty = y - h * (0.12 + t * 0.2),
      tw = h * (0.36 - t * 0.07),
      th = h * 0.38;
    c.fillPolygon([x - tw, ty, x, ty - th, x + tw, ty], dark);
    const side = light > 0 ? [x, ty - th, x - tw, ty, x - tw * 0.1, ty] : [x, ty - th, x + tw, ty, x + tw * 0.1, ty];
    c.fillPolygon(side, lit, 0.75);
    if (s.motifs.has("snow")) {
      c.fillPolygon(
        [x - tw * 0.45, ty - th * 0.52, x, ty - th, x + tw * 0.45, ty - th * 0.52, x, ty - th * 0.6],
        p.snow,
        0.9,
      );
    }
  }
}

export function drawRoundTree(d: Draw, x: number, y: number, h: number, haze: number): void {
  const { c, p, s, rng } = d;
  const lx = s.light.x * d.W < x ? -1 : 1;
  const dark = mix(p.foliageDark, p.skyBottom, haze),
    lit = mix(mix(p.foliage, p.sun, 0.15), p.skyBottom, haze);
  c.strokeLine(x, y, x, y - h * 0.45, h * 0.08, mix(p.trunk, p.skyBottom, haze));
  const r = h * 0.28;
  const blobs: [number, number, number][] = [];
  for (let k = 0; k < 5; k++) {
    blobs.push([x + rng.range(-0.5, 0.5) * r, y - h * 0.62 + rng.range(-0.45, 0.35) * r, r * rng.range(0.55, 0.85)]);
  }
  for (const [bx, by, br] of blobs) c.fillCircle(bx, by, br, dark);
  for (const [bx, by, br] of blobs) c.fillCircle(bx + lx * br * 0.25, by - br * 0.25, br * 0.62, lit, 0.8, br * 0.3);
}

export function drawFlowers(d: Draw): void {
  const { c, p, rng, W, H, U } = d;
  c.drawLayer = Layer.plant;
  const count = Math.round(rng.int(14, 24) * Math.max(1, W / H));
  const items: [number, number][] = [];
  for (let i = 0; i < count; i++) items.push([rng.next() * W, H * rng.range(0.8, 1.0)]);
  items.sort((a, b) => a[1] - b[1]);
  const stem = mix(p.foliage, p.foliageDark, 0.3);
  for (const [x, y] of items) {
    const r = U * (0.014 + 0.03 * ((y / H - 0.8) / 0.2)) * rng.range(0.8, 1.2);
    const sway = rng.range(-1, 1) * r;
    c.strokeLine(x, y, x + sway, H + 2, Math.max(1, r * 0.16), stem);
    c.fillEllipse(x + sway * 0.5 + r * 0.45, y + r * 1.8, r * 0.5, r * 0.18, p.foliage, 1, -0.5);
    const petals = rng.int(5, 8),
      col: Rgb = rng.chance(0.6) ? p.flower : p.flower2;
    const spin = rng.next() * Math.PI;
    for (let k = 0; k < petals; k++) {
      const a = spin + (k / petals) * Math.PI * 2;
      c.fillEllipse(
        x + Math.cos(a) * r * 0.62,
        y + Math.sin(a) * r * 0.62,
        r * 0.58,
        r * 0.3,
        { radial: [x, y, r * 1.2], from: mix(col, [255, 255, 255], 0.25), to: mix(col, p.ink, 0.15) },
        1,
        a,
      );
    }
    c.fillCircle(x, y, r * 0.3, p.flowerCentre);
  }
}

export function drawFire(d: Draw, x01: number, scale: number): void {
  const { c, p, rng, W, U } = d;
  c.drawLayer = Layer.effect;
  const x = x01 * W,
    y = groundY(d, 0.62);
  const S = U * 0.2 * scale;
  c.glow(x, y - S * 0.35, S * 2.2, p.fire, 0.55);
  for (const a of [-0.35, 0.35]) {
    c.strokeLine(
      x - Math.cos(a) * S * 0.45,
      y + Math.sin(a) * S * 0.1,
      x + Math.cos(a) * S * 0.45,
      y - Math.sin(a) * S * 0.1,
      S * 0.1,
      mix(p.trunk, p.ink, 0.3),
    );
  }
  const layers: [number, number, Rgb][] = [
    [S * 0.34, S * 1.0, p.fire],
    [S * 0.25, S * 0.75, mix(p.fire, p.fireCore, 0.5)],
    [S * 0.15, S * 0.48, p.fireCore],
  ];
  for (
    const [fx, scaleW] of [
      [-0.22, 0.55],
      [0.2, 0.6],
      [0, 1],
    ] as const
  ) {
    for (const [w, h, col] of layers) {
      flame(d, x + fx * S, y, w * scaleW, h * (scaleW === 1 ? 1 : 0.7), col, rng.next() * 6);
    }
  }
  for (let k = 0; k < 14; k++) {
    c.fillCircle(
      x + rng.range(-0.5, 0.5) * S,
      y - S * rng.range(0.9, 1.8),
      Math.max(1, S * 0.015),
      p.fireCore,
      rng.range(0.4, 0.9),
    );
  }
}

/** A flickering teardrop: round at the base, pointed and swaying at the tip. */
function flame(d: Draw, x: number, y: number, w: number, h: number, col: Rgb, phase: number): void {
  const right: number[] = [],
    left: number[] = [];
  for (let i = 0; i <= 16; i++) {
    const u = i / 16;
    const half = (w * 4 * Math.sqrt(u) * Math.pow(1 - u, 1.5)) / 1.3;
    const sway = Math.sin(u * 5 + phase) * w * 0.3 * u;
    const yy = y - u * h;
    right.push(x + sway + half, yy);
    left.unshift(x + sway - half, yy);
  }
  d.c.fillPolygon([...right, ...left], { linear: [0, y, 0, y - h], from: col, to: mix(col, d.p.fireCore, 0.4) });
}
