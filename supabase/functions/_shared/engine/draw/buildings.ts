// Buildings: a city skyline in three hazy depths (windows lit at night, a wet street reflecting it when
// the city stands on its own ground), a castle with towers and flags, a house with a smoking chimney,
// and a striped lighthouse on its rock, its lamp lit and sweeping a beam when the light is low.
import { Layer } from "../canvas.ts";
import { hex, mix, type Rgb } from "../color.ts";
import type { MotifId } from "../motifs.ts";
import { type Draw, groundY } from "./context.ts";

/** With any of these the city stands on them; without, it gets its own wet street. */
const OTHER_GROUND: MotifId[] = ["sea", "hills", "desert", "snow", "beach", "forest", "mountain"];

export function drawCity(d: Draw): void {
  const { c, p, s, rng, W, H, U, hy } = d;
  const night = s.time === "night" || s.time === "space";
  const ownGround = !OTHER_GROUND.some((m) => s.motifs.has(m));
  if (ownGround) drawStreet(d);
  c.drawLayer = Layer.structure;
  // Each seed builds its own city: a low town, a mid-rise, or a cluster of towers, asleep or wide awake.
  const rise = rng.pick([0.7, 1, 1.4]),
    awake = rng.pick([0.55, 1, 1.5]);
  for (let li = 0; li < 3; li++) {
    const scaleH = [0.62, 0.85, 1][li];
    const haze = [0.55, 0.28, 0][li];
    const baseY = hy + [0, 0.004, 0.012][li] * H;
    let x = -rng.range(0, 0.05) * W;
    while (x < W) {
      const bw = U * rng.range(0.045, 0.1) * (li === 2 ? 1.15 : 1);
      const bh = Math.min(hy - H * 0.05, (H * 0.1 + rng.next() ** 1.6 * H * 0.32) * scaleH * rise);
      const top = baseY - bh;
      const wall = mix(rng.chance(0.5) ? p.wall : mix(p.wall, p.wallShade, 0.5), p.skyBottom, haze);
      const shade = mix(p.wallShade, p.skyBottom, haze * 0.8);
      const dark = night ? mix(wall, p.ink, 0.25) : wall;
      c.fillRect(x, top, x + bw, baseY + 1, {
        linear: [0, top, 0, baseY],
        from: mix(dark, p.skyBottom, 0.1),
        to: mix(dark, shade, 0.4),
      });
      c.fillRect(x + bw * 0.74, top, x + bw, baseY + 1, mix(shade, p.ink, night ? 0.3 : 0.1), 0.7);
      const roof = rng.next();
      if (roof < 0.25) c.strokeLine(x + bw * 0.5, top, x + bw * 0.5, top - bh * 0.18, Math.max(1, U * 0.003), shade);
      else if (roof < 0.45) {
        c.fillRect(x + bw * 0.2, top - bh * 0.07, x + bw * 0.8, top + 1, {
          linear: [0, top - bh * 0.07, 0, top],
          from: dark,
          to: shade,
        });
      } else if (roof < 0.55) c.fillPolygon([x, top + 1, x + bw / 2, top - bw * 0.6, x + bw, top + 1], dark);
      if (li > 0) drawWindows(d, x, top, bw, baseY - top, li, night, haze, awake);
      x += bw + U * rng.range(0, 0.012);
    }
  }
}

function drawWindows(
  d: Draw,
  x: number,
  top: number,
  bw: number,
  bh: number,
  li: number,
  night: boolean,
  haze: number,
  awake: number,
): void {
  const { c, p, rng, U } = d;
  const ww = U * (li === 2 ? 0.008 : 0.006),
    wh = ww * 1.4,
    gap = ww * 0.9;
  const cols = Math.max(1, Math.floor((bw * 0.85 - gap) / (ww + gap)));
  const rows = Math.max(1, Math.floor((bh - gap * 3) / (wh + gap)));
  const offX = x + (bw - cols * (ww + gap) + gap) / 2;
  const lit = mix(p.windowLit, p.skyBottom, haze * 0.4);
  const glass = mix(p.window, p.skyTop, 0.2);
  const litShare = rng.range(0.3, 0.6) * awake;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const wx = offX + i * (ww + gap),
        wy = top + gap * 2 + j * (wh + gap);
      if (night) {
        if (rng.next() < litShare) c.fillRect(wx, wy, wx + ww, wy + wh, lit, rng.range(0.7, 1));
        else c.fillRect(wx, wy, wx + ww, wy + wh, mix(p.ink, p.skyMid, 0.3), 0.5);
      } else {
        c.fillRect(wx, wy, wx + ww, wy + wh, glass, 0.55);
      }
    }
  }
}

/** Asphalt under a city that has no other ground, reflecting the skyline as if wet. */
function drawStreet(d: Draw): void {
  const { c, p, s, W, H, U, hy } = d;
  c.drawLayer = Layer.ground;
  // Asphalt stays a neutral grey at night: the street is lit by warm lamps, not by the blue sky.
  const night = s.time === "night" || s.time === "space";
  const asphalt = night ? mix(p.ink, hex("#3a3430"), 0.6) : mix(p.wallShade, p.ink, 0.6);
  c.gradientRows(hy, H, [
    [0, mix(asphalt, night ? p.windowLit : p.skyBottom, night ? 0.1 : 0.2)],
    [1, mix(asphalt, p.ink, 0.4)],
  ]);
  const vx = s.focusX * W;
  c.drawLayer = Layer.ground;
  for (const side of [-1, 1]) {
    c.strokeLine(
      vx + side * U * 0.01,
      hy + 2,
      vx + side * W * 0.45,
      H,
      Math.max(1, U * 0.004),
      mix(p.windowLit, asphalt, 0.5),
      0.5,
    );
  }
  for (let k = 0; k < 6; k++) {
    const t0 = k / 6 + 0.04,
      t1 = t0 + 0.06;
    const y0 = hy + (H - hy) * t0 * t0,
      y1 = hy + (H - hy) * t1 * t1;
    c.strokeLine(vx, y0, vx, y1, Math.max(1, U * 0.004 * (1 + t0 * 3)), p.windowLit, 0.6);
  }
}

/** Mirrors the skyline into the street with a wet, streaky fade; called after the skyline is drawn. */
export function reflectCity(d: Draw): void {
  const { c, s, W, H, hy } = d;
  if (OTHER_GROUND.some((m) => s.motifs.has(m))) return;
  const data = c.data;
  for (let y = hy + 1; y < H; y++) {
    const t = (y - hy) / (H - hy);
    const src = Math.floor(hy - (y - hy) * 0.9 - 1);
    if (src < 0) break;
    const a = 0.45 * (1 - t);
    for (let x = 0; x < W; x++) {
      const k = (y * W + x) * 3,
        q = (src * W + x) * 3;
      data[k] += (data[q] - data[k]) * a;
      data[k + 1] += (data[q + 1] - data[k + 1]) * a;
      data[k + 2] += (data[q + 2] - data[k + 2]) * a;
    }
  }
}

export function drawCastle(d: Draw, x01: number, scale: number): void {
  const { c, p, s, rng, W, U } = d;
  c.drawLayer = Layer.structure;
  const night = s.time !== "day";
  const cx = x01 * W,
    base = groundY(d, 0.1);
  const S = U * 0.42 * scale;
  const wall = p.wall,
    shade = p.wallShade;
  const stone = (x0: number, y0: number, x1: number, y1: number) => {
    c.fillRect(x0, y0, x1, y1, { linear: [x0, 0, x1, 0], from: mix(wall, p.sun, night ? 0 : 0.1), to: shade });
    const m = (x1 - x0) / Math.max(3, Math.round((x1 - x0) / (S * 0.05)));
    for (let mx = x0; mx < x1 - m * 0.5; mx += m * 2) c.fillRect(mx, y0 - m * 0.9, mx + m, y0 + 1, wall);
  };
  const windowAt = (x: number, y: number, w: number) => {
    const col = night ? p.windowLit : mix(p.ink, shade, 0.3);
    c.fillRect(x - w / 2, y, x + w / 2, y + w * 1.6, col);
    c.fillCircle(x, y, w / 2, col);
    if (night) c.glow(x, y + w, w * 4, p.windowLit, 0.25);
  };
  const towers: [number, number, number][] = [
    [cx - S * 0.48, S * 0.16, S * 0.62],
    [cx + S * 0.48, S * 0.16, S * 0.62],
    [cx, S * 0.26, S * 0.85],
  ];
  if (rng.chance(0.6)) towers.push([cx + (rng.chance(0.5) ? -1 : 1) * S * 0.22, S * 0.11, S * 1.05]);
  stone(cx - S * 0.5, base - S * 0.32, cx + S * 0.5, base + 2);
  for (const [tx, tw, th] of towers.sort((a, b) => a[2] - b[2])) {
    stone(tx - tw / 2, base - th, tx + tw / 2, base + 2);
    const roofH = tw * 1.3;
    c.fillPolygon([tx - tw * 0.62, base - th + 1, tx, base - th - roofH, tx + tw * 0.62, base - th + 1], {
      linear: [tx - tw, 0, tx + tw, 0],
      from: mix(p.roof, p.sun, 0.15),
      to: mix(p.roof, p.ink, 0.4),
    });
    c.strokeLine(tx, base - th - roofH, tx, base - th - roofH - tw * 0.5, Math.max(1, U * 0.002), p.ink);
    c.fillPolygon(
      [tx, base - th - roofH - tw * 0.5, tx + tw * 0.4, base - th - roofH - tw * 0.4, tx, base - th - roofH - tw * 0.3],
      p.accent,
    );
    for (let k = 0; k < 2; k++) windowAt(tx, base - th * (0.75 - k * 0.3), tw * 0.22);
  }
  c.fillRect(cx - S * 0.07, base - S * 0.14, cx + S * 0.07, base + 2, mix(p.ink, p.door, 0.3));
  c.fillCircle(cx, base - S * 0.14, S * 0.07, mix(p.ink, p.door, 0.3));
}

export function drawHouse(d: Draw, x01: number, scale: number): void {
  const { c, p, s, W, U } = d;
  c.drawLayer = Layer.structure;
  const night = s.time === "night" || s.time === "space";
  const x = x01 * W,
    base = groundY(d, 0.42);
  const S = U * 0.24 * scale,
    w = S,
    h = S * 0.62;
  c.fillEllipse(x, base, w * 0.75, S * 0.05, mix(p.groundDark, p.ink, 0.4), 0.5, 0, S * 0.05);
  c.fillRect(x + w * 0.22, base - h - S * 0.52, x + w * 0.34, base - h, mix(p.wallShade, p.roof, 0.4));
  for (let k = 0; k < 4; k++) {
    c.fillEllipse(
      x + w * 0.28 + k * S * 0.06,
      base - h - S * (0.58 + k * 0.12),
      S * (0.05 + k * 0.02),
      S * (0.04 + k * 0.015),
      mix(p.cloud, p.cloudShade, 0.4),
      0.45 - k * 0.08,
      0,
      S * 0.03,
    );
  }
  c.fillRect(x - w / 2, base - h, x + w / 2, base + 1, {
    linear: [x - w / 2, 0, x + w / 2, 0],
    from: mix(p.wall, p.sun, night ? 0 : 0.12),
    to: p.wallShade,
  });
  const roof: Rgb = p.roof;
  c.fillPolygon([x - w * 0.62, base - h + 1, x, base - h - S * 0.45, x + w * 0.62, base - h + 1], {
    linear: [0, base - h - S * 0.45, 0, base - h],
    from: mix(roof, p.sun, 0.15),
    to: mix(roof, p.ink, 0.35),
  });
  c.fillRect(x - w * 0.1, base - h * 0.55, x + w * 0.1, base + 1, p.door);
  c.fillCircle(x + w * 0.06, base - h * 0.27, S * 0.012, p.accent2);
  for (const side of [-1, 1]) {
    const wx = x + side * w * 0.3,
      wy = base - h * 0.7,
      ws = w * 0.17;
    const glass = night ? p.windowLit : mix(p.window, p.skyTop, 0.2);
    c.fillRect(wx - ws / 2, wy, wx + ws / 2, wy + ws, glass);
    if (night) c.glow(wx, wy + ws / 2, ws * 2.5, p.windowLit, 0.3);
    c.strokeLine(wx, wy, wx, wy + ws, Math.max(1, S * 0.012), p.wallShade);
    c.strokeLine(wx - ws / 2, wy + ws / 2, wx + ws / 2, wy + ws / 2, Math.max(1, S * 0.012), p.wallShade);
  }
}

export function drawLighthouse(d: Draw, x01: number, scale: number): void {
  const { c, p, s, rng, W, U } = d;
  c.drawLayer = Layer.structure;
  const lit = s.time !== "day";
  const x = x01 * W,
    base = groundY(d, 0.8);
  const S = U * 0.5 * scale,
    bottomHalf = S * 0.09,
    topHalf = S * 0.055,
    top = base - S;
  c.fillEllipse(x, base, bottomHalf * 2.6, S * 0.08, {
    linear: [0, base - S * 0.08, 0, base + S * 0.08],
    from: mix(p.rock, p.sun, 0.15),
    to: mix(p.rock, p.ink, 0.5),
  });
  const bands = rng.int(4, 5);
  const red = mix(p.accent, p.roof, 0.3),
    white = mix(p.cloud, p.wall, 0.35);
  for (let k = 0; k < bands; k++) {
    const y0 = base - (S * k) / bands,
      y1 = base - (S * (k + 1)) / bands;
    const h0 = bottomHalf + ((topHalf - bottomHalf) * k) / bands,
      h1 = bottomHalf + ((topHalf - bottomHalf) * (k + 1)) / bands;
    const col = k % 2 === 0 ? white : red;
    c.fillPolygon([x - h0, y0 + 1, x - h1, y1, x + h1, y1, x + h0, y0 + 1], {
      linear: [x - h0, 0, x + h0, 0],
      from: mix(col, p.sun, lit ? 0 : 0.15),
      to: mix(col, p.ink, 0.35),
    });
  }
  c.fillRect(x - bottomHalf * 0.3, base - S * 0.12, x + bottomHalf * 0.3, base + 1, mix(p.ink, p.door, 0.3));
  c.fillRect(x - topHalf * 1.5, top - S * 0.02, x + topHalf * 1.5, top + S * 0.01, p.ink);
  const lamp = top - S * 0.07;
  c.fillRect(x - topHalf * 0.85, top - S * 0.12, x + topHalf * 0.85, top - S * 0.02, lit ? p.windowLit : p.window);
  c.fillPolygon([x - topHalf * 1.2, top - S * 0.12, x, top - S * 0.22, x + topHalf * 1.2, top - S * 0.12], {
    linear: [x - topHalf, 0, x + topHalf, 0],
    from: mix(red, p.sun, 0.1),
    to: mix(red, p.ink, 0.45),
  });
  if (!lit) return;
  const dir = x01 < 0.5 ? 1 : -1,
    reach = W * 0.7;
  c.fillPolygon([x, lamp, x + dir * reach, lamp - S * 0.16, x + dir * reach, lamp + S * 0.12], p.windowLit, 0.16);
  c.glow(x, lamp, S * 0.22, p.windowLit, 0.55);
}
