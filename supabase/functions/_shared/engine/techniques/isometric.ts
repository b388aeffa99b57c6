// Isometric: the prompt rebuilt as a floating diorama of blocks on a 12 x 12 grid (water, sand, snow
// or grass tiles; mountains as stepped peaks; the city as towers with windows; trees; a house; a car on
// a road), drawn back to front with a lit top, a mid left face and a dark right face.
import { Canvas, Layer } from "../canvas.ts";
import { mix, type Rgb, scale } from "../color.ts";
import type { MotifId } from "../motifs.ts";
import { type Job, unit } from "./job.ts";

type Tile = "grass" | "water" | "sand" | "snow" | "road" | "rock" | "tower" | "house" | "tree" | "figure";

const N = 12;

export function isometric(job: Job): Canvas {
  const { width: w, height: h } = job,
    U = unit(job),
    s = job.scene,
    p = s.palette,
    rng = job.rng;
  const has = (m: MotifId) => s.motifs.has(m);
  const night = s.time === "night" || s.time === "space";
  const c = new Canvas(w, h);
  c.drawLayer = Layer.sky;
  const skyTop = night ? p.skyTop : mix(p.skyTop, [255, 255, 255], 0.3),
    skyBottom = night ? p.skyBottom : mix(p.skyBottom, [255, 255, 255], 0.45);
  c.gradientRows(0, h, [
    [0, skyTop],
    [1, skyBottom],
  ]);
  if (has("stars")) {
    for (let k = 0; k < (w * h) / 3000; k++) {
      c.fillCircle(rng.next() * w, rng.next() * h * 0.5, U * 0.0015, p.star, rng.range(0.4, 1));
    }
  }

  const ground: Tile = has("snow") ? "snow" : has("desert") || has("beach") ? "sand" : "grass";
  const tiles: Tile[] = new Array(N * N).fill(ground);
  const heights = new Float32Array(N * N).fill(1);
  const at = (i: number, j: number) => j * N + i;
  if (has("sea") || has("river")) {
    for (let j = 0; j < N; j++) {
      for (let i = 0; i < N; i++) {
        const sea = has("sea") && i + j * 0.3 > N * 0.95;
        const river = has("river") && !has("sea") && Math.abs(i - (j * 0.5 + 3)) < 0.8;
        if (sea || river) {
          tiles[at(i, j)] = "water";
          heights[at(i, j)] = 0.6;
        } else if (has("sea") && i + j * 0.3 > N * 0.8) tiles[at(i, j)] = "sand";
      }
    }
  }
  if (has("mountain")) {
    const pi = rng.int(1, 3),
      pj = rng.int(1, 3),
      top = rng.range(5, 7);
    for (let j = 0; j < N; j++) {
      for (let i = 0; i < N; i++) {
        const hgt = Math.round(top - Math.hypot(i - pi, j - pj) * 1.3);
        if (hgt > 1 && tiles[at(i, j)] !== "water") {
          tiles[at(i, j)] = "rock";
          heights[at(i, j)] = hgt;
        }
      }
    }
  }
  const free = () => {
    for (let tries = 0; tries < 60; tries++) {
      const i = rng.int(0, N - 1),
        j = rng.int(0, N - 1);
      if (tiles[at(i, j)] === ground) return at(i, j);
    }
    return -1;
  };
  if (has("city") || has("car")) {
    const rj = rng.int(5, 8);
    for (let i = 0; i < N; i++) if (tiles[at(i, rj)] === ground) tiles[at(i, rj)] = "road";
    if (has("city")) {
      for (let k = 0; k < 16; k++) {
        const t = free();
        if (t < 0) break;
        tiles[t] = "tower";
        heights[t] = 1 + rng.int(2, 7);
      }
    }
  }
  if (has("house") || has("castle")) {
    const t = free();
    if (t >= 0) {
      tiles[t] = "house";
      heights[t] = has("castle") ? 4 : 2;
    }
  }
  const figures = new Map<number, MotifId>();
  for (const m of ["portrait", "robot", "cat", "dog", "fox", "animal", "fire", "banana"] as MotifId[]) {
    if (!has(m)) continue;
    const t = free();
    if (t >= 0) {
      tiles[t] = "figure";
      figures.set(t, m);
    }
  }
  const flowers = new Set<number>();
  if (has("flower")) {
    for (let k = 0; k < 24; k++) flowers.add(free());
  }
  if (has("forest") || has("hills") || has("flower")) {
    for (let k = 0; k < (has("forest") ? 26 : 10); k++) {
      const t = free();
      if (t >= 0) tiles[t] = "tree";
    }
  }

  const maxH = Math.max(...heights);
  const tw = Math.min((w * 0.84) / N, (h * 0.84) / (N * 0.5 + maxH * 0.45 + 1.2));
  const th = tw / 2,
    bh = tw * 0.45,
    slab = bh * 1.4;
  const cx = w / 2,
    y0 = (h - (N * th + maxH * bh + slab)) / 2 + maxH * bh;
  c.fillEllipse(
    cx,
    y0 + N * th + slab * 1.6,
    N * tw * 0.42,
    N * th * 0.22,
    mix(skyBottom, [0, 0, 0], 0.35),
    0.35,
    0,
    tw,
  );

  const colourOf = (t: Tile): Rgb => {
    switch (t) {
      case "water":
        return p.water;
      case "sand":
        return p.sand;
      case "snow":
        return p.snow;
      case "road":
        return mix(p.wallShade, p.ink, 0.5);
      case "rock":
        return p.mountain;
      case "tower":
        return p.wall;
      case "house":
        return p.wall;
      default:
        return p.grass;
    }
  };
  const earth = mix(p.trunk, p.groundDark, 0.4);
  for (let sum = 0; sum <= 2 * (N - 1); sum++) {
    for (let i = Math.max(0, sum - N + 1); i <= Math.min(N - 1, sum); i++) {
      const j = sum - i,
        t = tiles[at(i, j)],
        hgt = heights[at(i, j)];
      const sx = cx + (i - j) * (tw / 2),
        sy = y0 + (i + j) * (th / 2);
      const z = (t === "tower" || t === "house" ? 1 : hgt) * bh;
      c.drawLayer = t === "water" ? Layer.water : Layer.ground;
      block(
        c,
        sx,
        sy,
        tw,
        th,
        -slab,
        z,
        t === "water" ? p.water : earth,
        colourOf(t === "tower" || t === "house" ? ground : t),
        rng.seed,
      );
      if (t === "rock" && hgt >= 4) block(c, sx, sy, tw, th, z - bh * 0.01, z + bh * 0.02, p.snow, p.snow, 0);
      c.drawLayer = Layer.structure;
      if (flowers.has(at(i, j))) {
        c.drawLayer = Layer.plant;
        for (let f = 0; f < 3; f++) {
          c.fillCircle(
            sx + (f - 1) * tw * 0.16,
            sy + th * (0.4 + (f % 2) * 0.2) - bh,
            tw * 0.05,
            f % 2 ? p.flower2 : p.flower,
          );
        }
      }
      if (t === "tower") {
        const top = hgt * bh,
          bw = tw * 0.7,
          bth = th * 0.7;
        const wall = [p.wall, mix(p.wall, p.accent, 0.3), mix(p.wall, p.skyTop, 0.35)][(i * 7 + j * 3) % 3];
        block(c, sx, sy + th * 0.15, bw, bth, bh, top, wall, mix(wall, p.sun, 0.2), 0);
        windows(
          c,
          sx,
          sy + th * 0.15,
          bw,
          bth,
          bh,
          top,
          night ? p.windowLit : mix(p.window, p.skyTop, 0.3),
          rng.seed + i * 31 + j,
        );
      } else if (t === "house") {
        const top = hgt * bh;
        block(c, sx, sy + th * 0.1, tw * 0.8, th * 0.8, bh, top, p.wall, p.wall, 0);
        const ry = sy + th * 0.1 - top;
        c.fillPolygon([sx - tw * 0.44, ry + th * 0.4, sx, ry - th * 0.6, sx, ry + th * 0.9], mix(p.roof, p.sun, 0.15));
        c.fillPolygon([sx, ry - th * 0.6, sx + tw * 0.44, ry + th * 0.4, sx, ry + th * 0.9], mix(p.roof, p.ink, 0.3));
      } else if (t === "tree") {
        c.drawLayer = Layer.plant;
        const base = sy + th / 2 - bh;
        c.strokeLine(sx, base, sx, base - bh * 0.8, tw * 0.07, p.trunk);
        c.fillPolygon(
          [sx - tw * 0.26, base - bh * 0.6, sx, base - bh * 2.4, sx + tw * 0.26, base - bh * 0.6],
          p.foliage,
        );
        c.fillPolygon(
          [sx, base - bh * 2.4, sx + tw * 0.26, base - bh * 0.6, sx, base - bh * 0.5],
          mix(p.foliage, p.ink, 0.35),
        );
      } else if (t === "figure") {
        c.drawLayer = Layer.figure;
        figure(c, figures.get(at(i, j))!, sx, sy, tw, th, bh, p);
      } else if (t === "road" && has("car") && (i + j) % 5 === 0) {
        c.drawLayer = Layer.figure;
        block(c, sx, sy + th * 0.25, tw * 0.5, th * 0.5, bh, bh * 1.5, p.accent, p.accent, 0);
      }
    }
  }
  if (has("sun") && !night) c.fillCircle(w * s.light.x, h * 0.14, U * 0.05, p.sun);
  if (has("moon")) c.fillCircle(w * (1 - s.light.x), h * 0.14, U * 0.045, p.moon);
  return c;
}

/**
 * One isometric prism whose top diamond (width tw, height th) sits at elevation `top` above the tile
 * whose upper corner is (sx, sy), and whose sides go down to elevation `bottom`.
 */
function block(
  c: Canvas,
  sx: number,
  sy: number,
  tw: number,
  th: number,
  bottom: number,
  top: number,
  side: Rgb,
  face: Rgb,
  seed: number,
): void {
  const hw = tw / 2,
    hh = th / 2;
  const yTop = sy - top;
  const t0 = [sx, yTop, sx + hw, yTop + hh, sx, yTop + th, sx - hw, yTop + hh];
  const drop = top - bottom;
  c.fillPolygon(
    [sx - hw, yTop + hh, sx, yTop + th, sx, yTop + th + drop, sx - hw, yTop + hh + drop],
    scale(side, 0.78),
  );
  c.fillPolygon(
    [sx, yTop + th, sx + hw, yTop + hh, sx + hw, yTop + hh + drop, sx, yTop + th + drop],
    scale(side, 0.58),
  );
  c.fillPolygon(t0, seed ? mix(face, [255, 255, 255], 0.08 * ((seed >> 3) & 1)) : face);
  c.strokePath([...t0, t0[0], t0[1]], 1, scale(face, 0.8), 0.5);
}

function windows(
  c: Canvas,
  sx: number,
  sy: number,
  tw: number,
  th: number,
  bottom: number,
  top: number,
  lit: Rgb,
  seed: number,
): void {
  const hw = tw / 2,
    hh = th / 2,
    floors = Math.floor((top - bottom) / (th * 0.5));
  const yTop = sy - top;
  for (let f = 0; f < floors; f++) {
    for (let k = 1; k <= 2; k++) {
      if ((seed * 7 + f * 13 + k * 5) % 3 === 0) continue;
      const u = k / 3,
        wx = sx - hw + u * hw,
        wy = yTop + hh + u * hh + th * 0.5 * (f + 0.6);
      c.fillPolygon(
        [
          wx - hw * 0.08,
          wy - hh * 0.08,
          wx + hw * 0.08,
          wy + hh * 0.08,
          wx + hw * 0.08,
          wy + hh * 0.08 + th * 0.22,
          wx - hw * 0.08,
          wy - hh * 0.08 + th * 0.22,
        ],
        lit,
        0.9,
      );
      const rx = sx + u * hw,
        ry = yTop + th - u * hh + th * 0.5 * (f + 0.6);
      c.fillPolygon(
        [
          rx - hw * 0.08,
          ry + hh * 0.08,
          rx + hw * 0.08,
          ry - hh * 0.08,
          rx + hw * 0.08,
          ry - hh * 0.08 + th * 0.22,
          rx - hw * 0.08,
          ry + hh * 0.08 + th * 0.22,
        ],
        lit,
        0.8,
      );
    }
  }
}

/** A small standing figure on a tile: a person, a robot with glowing eyes, an animal, a fire. */
function figure(
  c: Canvas,
  motif: MotifId,
  sx: number,
  sy: number,
  tw: number,
  th: number,
  bh: number,
  p: Job["scene"]["palette"],
): void {
  const base = sy + th / 2 - bh;
  if (motif === "cat" || motif === "dog" || motif === "fox" || motif === "animal") {
    block(c, sx, sy + th * 0.25, tw * 0.5, th * 0.5, bh, bh * 1.7, p.fur, mix(p.fur, p.sun, 0.2), 0);
    c.fillCircle(sx + tw * 0.2, base - bh * 0.9, tw * 0.11, {
      radial: [sx + tw * 0.17, base - bh, tw * 0.14],
      from: mix(p.fur, p.sun, 0.2),
      to: p.furShade,
    });
    return;
  }
  if (motif === "fire" || motif === "banana") {
    const col = motif === "fire" ? p.fire : p.banana;
    c.glow(sx, base - bh * 0.6, tw * 0.6, col, 0.4);
    c.fillPolygon([sx - tw * 0.14, base, sx, base - bh * 1.8, sx + tw * 0.14, base], col);
    return;
  }
  const robot = motif === "robot";
  const body = robot ? p.metal : p.cloth;
  block(c, sx, sy + th * 0.28, tw * 0.44, th * 0.44, bh, bh * 2.4, body, mix(body, p.sun, 0.2), 0);
  const hy = base - bh * 1.75;
  if (robot) {
    c.fillRect(sx - tw * 0.13, hy - tw * 0.12, sx + tw * 0.13, hy + tw * 0.1, p.metalDark);
    for (const side of [-1, 1]) c.fillCircle(sx + side * tw * 0.06, hy - tw * 0.01, tw * 0.03, p.glow);
  } else {
    c.fillCircle(sx, hy, tw * 0.12, {
      radial: [sx - tw * 0.04, hy - tw * 0.04, tw * 0.16],
      from: mix(p.skin, [255, 255, 255], 0.2),
      to: p.skinShade,
    });
    c.fillEllipse(sx, hy - tw * 0.06, tw * 0.12, tw * 0.07, p.hair);
  }
}
