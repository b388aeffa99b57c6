// People and machines: a head-and-shoulders portrait (with a helmet in space), a friendly robot and a
// car seen from the side. Shapes are simple and shaded toward the scene's light.
import { Layer } from "../canvas.ts";
import { mix } from "../color.ts";
import { type Draw, groundY } from "./context.ts";

export function drawPortrait(d: Draw, x01: number, scale: number): void {
  const { c, p, s, rng, W, H, U } = d;
  c.drawLayer = Layer.figure;
  const x = x01 * W;
  const r = U * 0.16 * scale;
  const hy = H - r * 2.75;
  const lightSide = s.light.x < 0.5 ? -1 : 1;
  const longHair = rng.chance(0.55);
  if (longHair) c.fillEllipse(x, hy + r * 0.55, r * 1.12, r * 1.45, mix(p.hair, p.ink, 0.15));
  // Shoulders: a rounded trapezoid from the neck out to the bottom edge.
  const neckY = hy + r * 1.25,
    shoulderY = hy + r * 1.75,
    sw = r * 1.95;
  const torso: number[] = [];
  for (let i = 0; i <= 12; i++) {
    const a = Math.PI + (i / 12) * Math.PI;
    torso.push(x + Math.cos(a) * sw, shoulderY + Math.sin(a) * (shoulderY - neckY) * 0.9);
  }
  torso.push(x + sw * 1.1, H + 2, x - sw * 1.1, H + 2);
  c.fillPolygon(torso, {
    linear: [x - sw * lightSide, 0, x + sw * lightSide, 0],
    from: mix(p.cloth, p.sun, 0.12),
    to: p.clothShade,
  });
  c.fillRect(x - r * 0.3, hy + r * 0.6, x + r * 0.3, neckY + r * 0.12, {
    linear: [0, hy + r * 0.6, 0, neckY],
    from: p.skinShade,
    to: p.skin,
  });
  c.fillEllipse(x, neckY + r * 0.1, r * 0.42, r * 0.16, p.clothShade, 0.8);
  c.fillEllipse(x, hy - r * 0.15, r * 1.06, r * 1.1, p.hair);
  for (const side of [-1, 1]) c.fillEllipse(x + side * r * 0.84, hy + r * 0.1, r * 0.16, r * 0.24, p.skinShade);
  c.fillEllipse(x, hy, r * 0.84, r * 1.02, {
    radial: [x + lightSide * r * 0.35, hy - r * 0.3, r * 1.7],
    from: mix(p.skin, [255, 255, 255], 0.15),
    to: p.skinShade,
  });
  // The fringe: a band of hair over the forehead, parted off-centre.
  c.fillEllipse(x - r * 0.2, hy - r * 0.62, r * 0.8, r * 0.42, p.hair, 1, 0.25);
  c.fillEllipse(x + r * 0.35, hy - r * 0.66, r * 0.6, r * 0.36, p.hair, 1, -0.35);
  for (const side of [-1, 1]) {
    const ex = x + side * r * 0.34,
      ey = hy + r * 0.05;
    c.fillEllipse(ex, ey, r * 0.15, r * 0.1, mix(p.cloud, p.skin, 0.2));
    c.fillCircle(ex, ey, r * 0.075, mix(p.accent, p.ink, 0.45));
    c.fillCircle(ex, ey, r * 0.035, p.ink);
    c.fillCircle(ex + r * 0.025, ey - r * 0.03, r * 0.02, [255, 255, 255], 0.9);
    c.strokeLine(
      ex - r * 0.16,
      ey - r * 0.2 - side * r * 0.01,
      ex + r * 0.14,
      ey - r * 0.22 + side * r * 0.01,
      r * 0.045,
      mix(p.hair, p.ink, 0.3),
    );
    c.fillCircle(ex + side * r * 0.05, ey + r * 0.3, r * 0.13, p.accent, 0.12, r * 0.1);
  }
  c.strokePath(
    [
      x + lightSide * r * 0.02,
      hy + r * 0.12,
      x - lightSide * r * 0.06,
      hy + r * 0.36,
      x + lightSide * r * 0.04,
      hy + r * 0.4,
    ],
    r * 0.035,
    p.skinShade,
  );
  c.strokePath(
    [x - r * 0.2, hy + r * 0.58, x, hy + r * 0.64, x + r * 0.2, hy + r * 0.58],
    r * 0.05,
    mix(p.accent, p.skinShade, 0.5),
  );
  if (s.motifs.has("flower")) flowerCrown(d, x, hy, r);
  if (s.time === "space") {
    c.fillCircle(x, hy + r * 0.05, r * 1.45, mix(p.skyMid, [255, 255, 255], 0.5), 0.14);
    c.strokeLine(x - r * 0.6, hy - r * 0.9, x - r * 0.2, hy - r * 1.2, r * 0.08, [255, 255, 255], 0.35);
    for (let k = 0; k < 48; k++) {
      const a0 = (k / 48) * Math.PI * 2,
        a1 = ((k + 1) / 48) * Math.PI * 2;
      c.strokeLine(
        x + Math.cos(a0) * r * 1.45,
        hy + r * 0.05 + Math.sin(a0) * r * 1.45,
        x + Math.cos(a1) * r * 1.45,
        hy + r * 0.05 + Math.sin(a1) * r * 1.45,
        r * 0.1,
        p.metal,
      );
    }
  }
}

/** Flowers worn in the hair, along the top of the head. */
function flowerCrown(d: Draw, x: number, hy: number, r: number): void {
  const { c, p } = d;
  for (let k = 0; k < 7; k++) {
    const a = Math.PI * (1.12 + (k / 6) * 0.76);
    const fx = x + Math.cos(a) * r * 0.98,
      fy = hy - r * 0.12 + Math.sin(a) * r * 1.02;
    const fr = r * (k % 2 ? 0.13 : 0.17),
      col = k % 2 ? p.flower2 : p.flower;
    for (let j = 0; j < 5; j++) {
      const b = (j / 5) * Math.PI * 2 + k;
      c.fillCircle(fx + Math.cos(b) * fr * 0.55, fy + Math.sin(b) * fr * 0.55, fr * 0.5, col);
    }
    c.fillCircle(fx, fy, fr * 0.3, p.flowerCentre);
  }
}

export function drawRobot(d: Draw, x01: number, scale: number): void {
  const { c, p, rng, W, U } = d;
  c.drawLayer = Layer.figure;
  const x = x01 * W,
    base = groundY(d, 0.78);
  const S = U * 0.34 * scale;
  const metal = {
    linear: [x - S * 0.4, 0, x + S * 0.4, 0] as [number, number, number, number],
    from: mix(p.metal, [255, 255, 255], 0.3),
    to: p.metalDark,
  };
  c.fillEllipse(x, base, S * 0.4, S * 0.05, mix(p.groundDark, p.ink, 0.5), 0.5, 0, S * 0.04);
  for (const side of [-1, 1]) {
    c.fillRect(x + side * S * 0.14 - S * 0.06, base - S * 0.28, x + side * S * 0.14 + S * 0.06, base, p.metalDark);
  }
  for (const side of [-1, 1]) c.fillEllipse(x + side * S * 0.14, base - S * 0.01, S * 0.1, S * 0.04, p.metalDark);
  const bodyTop = base - S * 0.72,
    bodyBottom = base - S * 0.26;
  for (const side of [-1, 1]) {
    const sx = x + side * S * 0.3,
      sy = bodyTop + S * 0.08;
    const hx = x + side * S * rng.range(0.42, 0.5),
      hy = sy + S * rng.range(0.22, 0.34);
    c.strokeLine(sx, sy, hx, hy, S * 0.07, p.metalDark);
    c.fillCircle(hx, hy, S * 0.06, metal);
  }
  c.fillRect(x - S * 0.3, bodyTop, x + S * 0.3, bodyBottom, metal);
  c.fillRect(x - S * 0.15, bodyTop + S * 0.1, x + S * 0.15, bodyTop + S * 0.3, mix(p.metalDark, p.ink, 0.4));
  for (let k = 0; k < 3; k++) {
    c.fillCircle(x - S * 0.08 + k * S * 0.08, bodyTop + S * 0.2, S * 0.025, k === 1 ? p.accent : p.glow);
  }
  const headTop = bodyTop - S * 0.38;
  c.fillRect(x - S * 0.05, bodyTop - S * 0.08, x + S * 0.05, bodyTop + 1, p.metalDark);
  c.fillRect(x - S * 0.24, headTop, x + S * 0.24, bodyTop - S * 0.06, metal);
  c.strokeLine(x, headTop, x, headTop - S * 0.14, S * 0.02, p.metalDark);
  c.glow(x, headTop - S * 0.16, S * 0.12, p.accent, 0.6);
  c.fillCircle(x, headTop - S * 0.16, S * 0.035, p.accent);
  c.fillRect(x - S * 0.19, headTop + S * 0.06, x + S * 0.19, headTop + S * 0.2, mix(p.ink, p.metalDark, 0.2));
  for (const side of [-1, 1]) {
    c.glow(x + side * S * 0.09, headTop + S * 0.13, S * 0.1, p.glow, 0.5);
    c.fillCircle(x + side * S * 0.09, headTop + S * 0.13, S * 0.04, p.glow);
  }
  for (let k = 0; k < 4; k++) {
    c.fillRect(
      x - S * 0.1 + k * S * 0.055,
      headTop + S * 0.25,
      x - S * 0.07 + k * S * 0.055,
      headTop + S * 0.28,
      p.metalDark,
    );
  }
}

export function drawCar(d: Draw, x01: number, scale: number): void {
  const { c, p, s, rng, W, U } = d;
  c.drawLayer = Layer.figure;
  const x = x01 * W,
    base = groundY(d, 0.72);
  const S = U * 0.36 * scale,
    dir = rng.chance(0.5) ? 1 : -1;
  const body = p.accent;
  c.fillEllipse(x, base, S * 0.55, S * 0.04, mix(p.groundDark, p.ink, 0.5), 0.6, 0, S * 0.04);
  const wheelY = base - S * 0.1,
    wr = S * 0.1;
  c.fillPolygon(
    [
      x - S * 0.5,
      wheelY,
      x - S * 0.5,
      base - S * 0.24,
      x - S * 0.3,
      base - S * 0.28,
      x - S * 0.18,
      base - S * 0.42,
      x + S * 0.15,
      base - S * 0.42,
      x + S * 0.3,
      base - S * 0.28,
      x + S * 0.5,
      base - S * 0.24,
      x + S * 0.52,
      wheelY,
    ].map((v, i) => (i % 2 === 0 ? x + (v - x) * dir : v)),
    { linear: [0, base - S * 0.42, 0, wheelY], from: mix(body, [255, 255, 255], 0.35), to: mix(body, p.ink, 0.35) },
  );
  const glass = mix(p.window, p.skyTop, 0.3);
  const win = (a: number, b: number, c0: number, d0: number) => [
    x + a * S * dir,
    base - S * 0.39,
    x + b * S * dir,
    base - S * 0.39,
    x + c0 * S * dir,
    base - S * 0.28,
    x + d0 * S * dir,
    base - S * 0.28,
  ];
  c.fillPolygon(win(-0.16, -0.02, -0.02, -0.27), glass);
  c.fillPolygon(win(0.02, 0.13, 0.26, 0.02), glass);
  c.strokeLine(
    x - S * 0.45 * dir,
    base - S * 0.2,
    x + S * 0.45 * dir,
    base - S * 0.2,
    S * 0.01,
    mix(body, p.ink, 0.5),
    0.6,
  );
  const night = s.time !== "day";
  c.fillCircle(x + S * 0.48 * dir, base - S * 0.2, S * 0.025, night ? [255, 240, 190] : p.accent2);
  if (night) c.glow(x + S * 0.6 * dir, base - S * 0.2, S * 0.35, [255, 240, 190], 0.4);
  for (const wx of [-0.3, 0.3]) {
    c.fillCircle(x + wx * S, wheelY, wr, mix(p.ink, p.metalDark, 0.2));
    c.fillCircle(x + wx * S, wheelY, wr * 0.55, {
      radial: [x + wx * S - wr * 0.2, wheelY - wr * 0.2, wr],
      from: p.metal,
      to: p.metalDark,
    });
    c.fillCircle(x + wx * S, wheelY, wr * 0.15, p.metalDark);
  }
}
