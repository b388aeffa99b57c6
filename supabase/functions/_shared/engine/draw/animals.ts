// Animals as simple shaded silhouettes: a sitting cat, a standing dog, a fox (pointed ears and snout, a
// brush of a tail with a white tip), and a four-legged animal with antlers (deer, horse and the like). Each
// faces toward the picture's centre.
import { Layer, type Paint } from "../canvas.ts";
import { mix, type Rgb } from "../color.ts";
import { type Draw, groundY } from "./context.ts";

function furPaint(d: Draw, x: number, y: number, r: number, fur = d.p.fur, shade = d.p.furShade): Paint {
  return {
    radial: [x + (d.s.light.x < 0.5 ? -1 : 1) * r * 0.4, y - r * 0.5, r * 2],
    from: mix(fur, d.p.sun, 0.15),
    to: shade,
  };
}

/**
 * Where a standing animal (the dog, the fox) stands: its middle, the ground under it, its size and the way it
 * faces (toward the picture's centre); its shadow, `shadow` of its size wide, is drawn.
 */
function standing(d: Draw, x01: number, scale: number, shadow: number) {
  const { c, p, W, U } = d;
  c.drawLayer = Layer.figure;
  const x = x01 * W,
    base = groundY(d, 0.72);
  const S = U * 0.26 * scale,
    dir = x01 < 0.5 ? 1 : -1;
  c.fillEllipse(x, base, S * shadow, S * 0.05, mix(p.groundDark, p.ink, 0.4), 0.5, 0, S * 0.05);
  return { x, base, S, dir };
}

/** A standing animal's four straight legs, from `top` to the ground, at `xs` (fractions of its size). */
function fourLegs(
  d: Draw,
  at: { x: number; base: number; S: number; dir: number },
  top: number,
  xs: number[],
  width: number,
  colour: (lx: number) => Rgb,
): void {
  const { x, base, S, dir } = at;
  for (const lx of xs) d.c.strokeLine(x + lx * S * dir, top, x + lx * S * dir, base - S * 0.02, S * width, colour(lx));
}

export function drawCat(d: Draw, x01: number, scale: number): void {
  const { c, p, s, W, U } = d;
  c.drawLayer = Layer.figure;
  const x = x01 * W,
    base = groundY(d, 0.7);
  const S = U * 0.2 * scale,
    dir = x01 < 0.5 ? 1 : -1;
  c.fillEllipse(x, base, S * 0.5, S * 0.06, mix(p.groundDark, p.ink, 0.4), 0.5, 0, S * 0.05);
  const tail: number[] = [];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    tail.push(x - dir * S * (0.3 + 0.3 * t), base - S * 0.05 - S * 0.6 * t * t + Math.sin(t * 3) * S * 0.05);
  }
  c.strokePath(tail, S * 0.09, p.furShade);
  c.fillEllipse(x, base - S * 0.38, S * 0.36, S * 0.42, furPaint(d, x, base - S * 0.38, S * 0.4));
  const hx = x + dir * S * 0.06,
    hy = base - S * 0.9,
    hr = S * 0.25;
  for (const side of [-1, 1]) {
    c.fillPolygon(
      [
        hx + side * hr * 0.95,
        hy - hr * 0.1,
        hx + side * hr * 0.75,
        hy - hr * 1.25,
        hx + side * hr * 0.2,
        hy - hr * 0.75,
      ],
      p.furShade,
    );
    c.fillPolygon(
      [
        hx + side * hr * 0.8,
        hy - hr * 0.3,
        hx + side * hr * 0.72,
        hy - hr * 1.0,
        hx + side * hr * 0.38,
        hy - hr * 0.72,
      ],
      mix(p.furShade, p.accent, 0.35),
    );
  }
  c.fillEllipse(hx, hy, hr * 1.05, hr * 0.9, furPaint(d, hx, hy, hr));
  const eye = s.time === "day" ? mix(p.grass, p.accent2, 0.4) : p.glow;
  for (const side of [-1, 1]) {
    c.fillEllipse(hx + side * hr * 0.4, hy - hr * 0.05, hr * 0.17, hr * 0.2, eye);
    c.fillEllipse(hx + side * hr * 0.4, hy - hr * 0.05, hr * 0.05, hr * 0.17, p.ink);
    for (const k of [-1, 1]) {
      c.strokeLine(
        hx + side * hr * 0.3,
        hy + hr * 0.35,
        hx + side * hr * 1.3,
        hy + hr * (0.3 + k * 0.12),
        Math.max(1, hr * 0.025),
        mix(p.cloud, p.fur, 0.3),
        0.8,
      );
    }
  }
  c.fillPolygon(
    [hx - hr * 0.1, hy + hr * 0.22, hx + hr * 0.1, hy + hr * 0.22, hx, hy + hr * 0.34],
    mix(p.accent, p.skin, 0.5),
  );
}

export function drawDog(d: Draw, x01: number, scale: number): void {
  const { c, p } = d;
  const at = standing(d, x01, scale, 0.55);
  const { x, base, S, dir } = at;
  fourLegs(
    d,
    at,
    base - S * 0.3,
    [-0.3, -0.18, 0.2, 0.32],
    0.09,
    (lx) => lx === -0.18 || lx === 0.2 ? p.furShade : p.fur,
  );
  c.strokeLine(x - dir * S * 0.38, base - S * 0.42, x - dir * S * 0.55, base - S * 0.68, S * 0.06, p.furShade);
  c.fillEllipse(x, base - S * 0.4, S * 0.44, S * 0.2, furPaint(d, x, base - S * 0.4, S * 0.4));
  const hx = x + dir * S * 0.42,
    hy = base - S * 0.68,
    hr = S * 0.17;
  c.fillEllipse(hx, hy, hr * 1.1, hr, furPaint(d, hx, hy, hr));
  c.fillEllipse(hx + dir * hr * 0.85, hy + hr * 0.3, hr * 0.6, hr * 0.4, mix(p.fur, p.cloud, 0.3));
  c.fillCircle(hx + dir * hr * 1.4, hy + hr * 0.2, hr * 0.16, p.ink);
  c.fillEllipse(hx - dir * hr * 0.35, hy + hr * 0.35, hr * 0.3, hr * 0.7, p.furShade, 1, dir * 0.3);
  c.fillCircle(hx + dir * hr * 0.35, hy - hr * 0.25, hr * 0.12, p.ink);
  c.strokeLine(hx - dir * hr * 0.5, hy + hr * 0.8, hx + dir * hr * 0.3, hy + hr * 0.95, hr * 0.18, p.accent);
}

/** A fox's fur: the palette's fur pulled toward a fox's orange, so a colour word (a "red fox") still tints it. */
const FOX_ORANGE: [number, number, number] = [214, 104, 38];

export function drawFox(d: Draw, x01: number, scale: number): void {
  const { c, p } = d;
  const at = standing(d, x01, scale, 0.6);
  const { x, base, S, dir } = at;
  const fur = mix(p.fur, FOX_ORANGE, 0.55);
  const shade = mix(p.furShade, FOX_ORANGE, 0.3);
  const white = mix(p.cloud, [255, 255, 255], 0.6);
  const socks = mix(p.ink, shade, 0.25);
  const paint = (px: number, py: number, r: number): Paint => furPaint(d, px, py, r, fur, shade);
  // The brush: a long tail held out low behind, ending white.
  const tx = x - dir * S * 0.62,
    ty = base - S * 0.3;
  c.fillEllipse(tx, ty, S * 0.34, S * 0.12, paint(tx, ty, S * 0.3), 1, dir * 0.35);
  c.fillEllipse(tx - dir * S * 0.26, ty + S * 0.09, S * 0.1, S * 0.075, white, 1, dir * 0.35);
  const far = mix(socks, p.ink, 0.3);
  fourLegs(d, at, base - S * 0.26, [-0.3, -0.2, 0.18, 0.28], 0.06, (lx) => lx === -0.3 || lx === 0.28 ? socks : far);
  c.fillEllipse(x, base - S * 0.36, S * 0.42, S * 0.15, paint(x, base - S * 0.36, S * 0.38));
  c.fillEllipse(x + dir * S * 0.22, base - S * 0.3, S * 0.16, S * 0.08, white, 0.9, dir * -0.3);
  // The head: a wedge with a pointed snout, two tall ears, a white cheek and a dark nose.
  const hx = x + dir * S * 0.42,
    hy = base - S * 0.6,
    hr = S * 0.15;
  for (const side of [-0.5, 0.35]) {
    const ex = hx + dir * hr * side;
    c.fillPolygon([ex - hr * 0.42, hy - hr * 0.5, ex, hy - hr * 1.65, ex + hr * 0.42, hy - hr * 0.5], shade);
    c.fillPolygon([ex - hr * 0.2, hy - hr * 0.6, ex, hy - hr * 1.3, ex + hr * 0.2, hy - hr * 0.6], socks);
  }
  c.fillEllipse(hx, hy, hr * 1.05, hr * 0.85, paint(hx, hy, hr));
  c.fillPolygon(
    [hx + dir * hr * 0.5, hy - hr * 0.35, hx + dir * hr * 1.75, hy + hr * 0.3, hx + dir * hr * 0.4, hy + hr * 0.75],
    fur,
  );
  c.fillPolygon(
    [hx - dir * hr * 0.1, hy + hr * 0.25, hx + dir * hr * 1.7, hy + hr * 0.36, hx + dir * hr * 0.3, hy + hr * 0.85],
    white,
  );
  c.fillCircle(hx + dir * hr * 1.72, hy + hr * 0.28, hr * 0.14, p.ink);
  c.fillEllipse(hx + dir * hr * 0.45, hy - hr * 0.15, hr * 0.14, hr * 0.09, p.ink, 1, dir * 0.4);
}

export function drawAnimal(d: Draw, x01: number, scale: number): void {
  const { c, p, rng, W, U } = d;
  c.drawLayer = Layer.figure;
  const x = x01 * W,
    base = groundY(d, 0.66);
  const S = U * 0.32 * scale,
    dir = x01 < 0.5 ? 1 : -1;
  c.fillEllipse(x, base, S * 0.45, S * 0.04, mix(p.groundDark, p.ink, 0.4), 0.5, 0, S * 0.04);
  const legTop = base - S * 0.45;
  for (const lx of [-0.28, -0.2, 0.18, 0.26]) {
    const far = lx === -0.2 || lx === 0.18;
    c.strokePath(
      [x + lx * S * dir, legTop, x + (lx + 0.02) * S * dir, base - S * 0.2, x + lx * S * dir, base],
      S * 0.045,
      far ? p.furShade : p.fur,
    );
  }
  c.fillEllipse(x, base - S * 0.52, S * 0.36, S * 0.15, furPaint(d, x, base - S * 0.52, S * 0.35));
  c.strokeLine(x - dir * S * 0.34, base - S * 0.58, x - dir * S * 0.4, base - S * 0.44, S * 0.04, p.furShade);
  const nx = x + dir * S * 0.3,
    ny = base - S * 0.6;
  const hx = x + dir * S * 0.45,
    hy = base - S * 0.92;
  c.fillPolygon(
    [
      nx - dir * S * 0.08,
      ny + S * 0.06,
      nx + dir * S * 0.08,
      ny - S * 0.02,
      hx + dir * S * 0.04,
      hy + S * 0.02,
      hx - dir * S * 0.06,
      hy - S * 0.02,
    ],
    p.fur,
  );
  c.fillEllipse(hx + dir * S * 0.06, hy, S * 0.12, S * 0.06, furPaint(d, hx, hy, S * 0.1), 1, dir * 0.5);
  c.fillCircle(hx + dir * S * 0.04, hy - S * 0.02, S * 0.012, p.ink);
  c.fillEllipse(hx - dir * S * 0.04, hy - S * 0.07, S * 0.025, S * 0.05, p.furShade, 1, -dir * 0.5);
  if (rng.chance(0.6)) {
    const antler = mix(p.trunk, p.cloud, 0.35);
    for (const side of [-1, 1]) {
      const ax = hx - dir * S * 0.02 + side * S * 0.03,
        ay = hy - S * 0.06;
      const tx = ax + side * S * 0.08 - dir * S * 0.04,
        ty = ay - S * 0.2;
      c.strokeLine(ax, ay, tx, ty, S * 0.015, antler);
      c.strokeLine(
        ax + (tx - ax) * 0.5,
        ay + (ty - ay) * 0.5,
        ax + (tx - ax) * 0.5 + side * S * 0.07,
        ay + (ty - ay) * 0.5 - S * 0.04,
        S * 0.012,
        antler,
      );
      c.strokeLine(tx, ty, tx - side * S * 0.05, ty - S * 0.06, S * 0.012, antler);
    }
  }
}
