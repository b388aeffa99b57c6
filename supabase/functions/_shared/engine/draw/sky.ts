// Everything above the horizon: the sky gradient, sun, moon, stars, clouds, rainbow, and in space the
// nebula and a ringed planet.
import { Layer } from "../canvas.ts";
import { mix, type Rgb } from "../color.ts";
import type { Draw } from "./context.ts";

export function drawSky(d: Draw): void {
  const { c, p, s, W, H, U, hy } = d;
  c.drawLayer = Layer.sky;
  const skyEnd = s.horizon >= 1 ? H : hy + 2;
  c.gradientRows(0, skyEnd, [
    [0, p.skyTop],
    [0.6, p.skyMid],
    [1, p.skyBottom],
  ]);
  if (s.horizon < 1) {
    c.drawLayer = Layer.ground;
    c.gradientRows(hy, H, [
      [0, p.ground],
      [1, p.groundDark],
    ]);
    c.drawLayer = Layer.sky;
  }
  if (s.time === "sunset") c.glow(s.light.x * W, Math.min(hy, H), U * 0.8, p.sun, 0.3);
  else if (s.time === "day") c.glow(s.light.x * W, Math.min(hy, H), U * 0.7, p.skyBottom, 0.12);
}

export function drawStars(d: Draw): void {
  const { c, p, rng, W, H, U, hy, s } = d;
  c.drawLayer = Layer.celestial;
  const count = Math.round(((W * H) / 1400) * (s.time === "space" ? 1.6 : 1));
  const unit = U / 1024;
  for (let i = 0; i < count; i++) {
    const x = rng.next() * W,
      y = rng.next() * Math.min(hy, H);
    const fade = s.horizon < 1 ? Math.min(1, (hy - y) / (hy * 0.35)) : 1;
    const size = unit * (0.5 + rng.next() ** 4 * 1.8);
    if (c.layer[Math.floor(y) * W + Math.floor(x)] !== Layer.sky) continue;
    c.fillCircle(x, y, size, p.star, rng.range(0.35, 1) * fade, 1);
  }
  for (let i = 0; i < 10; i++) {
    const x = rng.next() * W,
      y = rng.next() * Math.min(hy, H) * 0.8,
      r = unit * rng.range(5, 11);
    c.glow(x, y, r * 1.6, p.star, 0.5);
    c.strokeLine(x - r, y, x + r, y, unit * 1.1, p.star, 0.7);
    c.strokeLine(x, y - r, x, y + r, unit * 1.1, p.star, 0.7);
  }
}

export function drawSun(d: Draw): void {
  const { c, p, s, W, H, U } = d;
  c.drawLayer = Layer.celestial;
  const x = s.light.x * W,
    y = s.light.y * H;
  const sunset = s.time === "sunset";
  const r = U * (sunset ? 0.075 : 0.055);
  c.glow(x, y, U * (sunset ? 0.5 : 0.4), p.sun, sunset ? 0.35 : 0.3);
  c.fillCircle(x, y, r, p.sun, 1, 1.5);
  c.fillCircle(x, y, r * 0.8, mix(p.sun, [255, 255, 255], 0.6), 0.6, r * 0.3);
}

export function drawMoon(d: Draw): void {
  const { c, p, s, rng, W, H, U } = d;
  c.drawLayer = Layer.celestial;
  const x = (s.time === "night" || s.time === "space" ? s.light.x : 1 - s.light.x) * W;
  const y = (s.time === "night" || s.time === "space" ? s.light.y : s.light.y * 0.6) * H;
  const r = U * 0.06;
  const behind = sampleColor(d, x + r * 0.45, y - r * 0.15);
  c.glow(x, y, U * 0.32, p.moon, 0.2);
  c.fillCircle(
    x,
    y,
    r,
    { radial: [x - r * 0.4, y - r * 0.4, r * 2], from: p.moon, to: mix(p.moon, p.skyMid, 0.35) },
    1,
    1.5,
  );
  for (let i = 0; i < 6; i++) {
    const a = rng.next() * Math.PI * 2,
      q = rng.next() * r * 0.65;
    c.fillCircle(
      x + Math.cos(a) * q,
      y + Math.sin(a) * q,
      r * rng.range(0.08, 0.2),
      mix(p.moon, p.skyMid, 0.35),
      0.35,
      2,
    );
  }
  if (rng.chance(0.4)) c.fillCircle(x + r * 0.45, y - r * 0.15, r * 0.92, behind, 1, 1.5);
}

function sampleColor(d: Draw, x: number, y: number): Rgb {
  const i = (Math.max(0, Math.min(d.H - 1, Math.floor(y))) * d.W + Math.max(0, Math.min(d.W - 1, Math.floor(x)))) * 3;
  return [d.c.data[i], d.c.data[i + 1], d.c.data[i + 2]];
}

export function drawClouds(d: Draw): void {
  const { c, p, s, rng, W, hy, H } = d;
  c.drawLayer = Layer.cloud;
  const heavy = s.motifs.has("rain");
  const count = heavy ? rng.int(6, 9) : s.motifs.has("sky") ? rng.int(4, 7) : rng.int(2, 4);
  const top = Math.min(hy, H * 0.9);
  for (let i = 0; i < count; i++) {
    const cw = W * rng.range(0.16, 0.34) * (heavy ? 1.5 : 1);
    let cx = rng.range(-0.05, 1.05) * W;
    // Keep clouds off a portrait's head, where they would read as a hat.
    if (s.motifs.has("portrait") && Math.abs(cx - s.focusX * W) < W * 0.3) cx += (cx < s.focusX * W ? -1 : 1) * W * 0.3;
    const cy = top * (heavy ? rng.range(0.05, 0.45) : rng.range(0.1, 0.7));
    const ch = cw * 0.2;
    const puffs = rng.int(6, 10);
    const body = heavy ? mix(p.cloudShade, p.cloud, 0.4) : p.cloud;
    const shapes: [number, number, number][] = [];
    for (let k = 0; k < puffs; k++) {
      const u = k / (puffs - 1),
        bump = Math.sin(Math.PI * u);
      shapes.push([
        cx + (u - 0.5) * cw,
        cy - bump * ch * rng.range(0.2, 0.7),
        ch * (0.45 + 0.6 * bump) * rng.range(0.8, 1.2),
      ]);
    }
    const alpha = s.time === "night" ? 0.75 : 0.95;
    for (const [x, y, r] of shapes) c.fillEllipse(x, y + r * 0.3, r * 1.2, r * 0.8, p.cloudShade, alpha, 0, r * 0.25);
    for (const [x, y, r] of shapes) {
      c.fillEllipse(
        x,
        y,
        r * 1.15,
        r,
        { linear: [x, y - r, x, y + r], from: body, to: mix(body, p.cloudShade, 0.55) },
        alpha,
        0,
        Math.max(1.5, r * 0.12),
      );
    }
  }
}

export function drawRainbow(d: Draw): void {
  const { c, rng, W, U, hy, H } = d;
  c.drawLayer = Layer.cloud;
  const bands: Rgb[] = [
    [230, 60, 60],
    [245, 150, 50],
    [245, 225, 70],
    [90, 200, 90],
    [70, 140, 230],
    [90, 80, 200],
    [150, 80, 200],
  ];
  const cx = rng.range(0.3, 0.7) * W,
    cy = Math.min(hy, H),
    R = U * rng.range(0.55, 0.75),
    bw = R * 0.028;
  const inner = R - bw * bands.length;
  for (let y = Math.max(0, Math.floor(cy - R)); y < Math.min(H, cy); y++) {
    const dy = y + 0.5 - cy;
    for (let x = Math.max(0, Math.floor(cx - R)); x < Math.min(W, Math.ceil(cx + R)); x++) {
      const dist = Math.sqrt((x + 0.5 - cx) ** 2 + dy * dy);
      if (dist < inner || dist > R) continue;
      const f = (R - dist) / bw,
        k = Math.min(bands.length - 1, Math.floor(f)),
        t = f - k;
      const a = bands[k],
        b = bands[Math.min(bands.length - 1, k + 1)];
      const edge = Math.min(1, f * 0.8, (bands.length - f) * 0.8);
      c.blend(y * W + x, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t, 0.38 * edge);
    }
  }
}

export function drawNebula(d: Draw): void {
  const { c, p, s, W, H, U, hy } = d;
  const k = 256 / (U * 0.9);
  const end = Math.min(H, s.horizon >= 1 ? H : hy);
  const data = c.data;
  for (let y = 0; y < end; y++) {
    for (let x = 0; x < W; x++) {
      const n1 = s.noise.sample(x * k, y * k),
        n2 = s.noise.sample(x * k * 2.3 + 91, y * k * 2.3 + 37);
      let dens = (n1 - 0.42) / 0.4;
      if (dens <= 0) continue;
      dens = Math.min(1, dens) * (0.45 + 0.55 * n2);
      const a = p.cloud,
        b = p.accent;
      const i = (y * W + x) * 3,
        t = n2;
      const r = a[0] + (b[0] - a[0]) * t,
        g = a[1] + (b[1] - a[1]) * t,
        bl = a[2] + (b[2] - a[2]) * t;
      const al = dens * 0.7;
      data[i] += (r - data[i]) * al;
      data[i + 1] += (g - data[i + 1]) * al;
      data[i + 2] += (bl - data[i + 2]) * al;
    }
  }
}

export function drawPlanet(d: Draw): void {
  const { c, p, s, rng, W, H, U } = d;
  c.drawLayer = Layer.celestial;
  const r = U * rng.range(0.13, 0.19);
  const cx = (s.light.x < 0.5 ? rng.range(0.62, 0.78) : rng.range(0.22, 0.38)) * W;
  const cy = Math.min(H * 0.42, s.horizon < 1 ? d.hy * 0.55 : H * 0.35);
  const lx = -0.55,
    ly = -0.5,
    lz = 0.67;
  const tilt = rng.range(-0.45, -0.15),
    cos = Math.cos(tilt),
    sin = Math.sin(tilt);
  const ra = r * 1,
    rb = r * 0.26;
  const bandPhase = rng.next() * 6;
  const dark = mix(p.planet, p.skyTop, 0.75);
  const ringCol = mix(p.planet, p.cloud, 0.5);
  const ext = r * 2.2;
  for (let y = Math.max(0, Math.floor(cy - ext)); y < Math.min(H, Math.ceil(cy + ext)); y++) {
    for (let x = Math.max(0, Math.floor(cx - ext)); x < Math.min(W, Math.ceil(cx + ext)); x++) {
      const dx = x + 0.5 - cx,
        dy = y + 0.5 - cy,
        dist = Math.sqrt(dx * dx + dy * dy);
      const u = dx * cos + dy * sin,
        v = -dx * sin + dy * cos;
      const q = Math.sqrt((u / ra) ** 2 + (v / rb) ** 2);
      const inDisc = dist < r + 0.5;
      const onRing = q > 1.3 && q < 2.1 && !(inDisc && v < 0);
      const i = y * W + x;
      if (inDisc) {
        const nx = dx / r,
          ny = dy / r,
          nz = Math.sqrt(Math.max(0, 1 - nx * nx - ny * ny));
        const lambert = Math.max(0, nx * lx + ny * ly + nz * lz);
        const band = 0.5 + 0.5 * Math.sin(ny * 11 + bandPhase + Math.sin(nx * 3) * 0.6);
        const lit = 0.12 + 0.88 * lambert;
        const base = mix(p.planet, p.accent2, band * 0.35);
        const cov = Math.min(1, r + 0.5 - dist);
        c.blend(
          i,
          dark[0] + (base[0] - dark[0]) * lit,
          dark[1] + (base[1] - dark[1]) * lit,
          dark[2] + (base[2] - dark[2]) * lit,
          cov,
        );
      }
      if (onRing) {
        const a = 0.55 * (0.6 + 0.4 * Math.sin(q * 18)) * Math.min(1, (q - 1.3) * 8, (2.1 - q) * 8);
        c.blend(i, ringCol[0], ringCol[1], ringCol[2], a);
      }
    }
  }
}

export function drawBirds(d: Draw): void {
  const { c, p, s, rng, W, U, hy, H } = d;
  c.drawLayer = Layer.effect;
  const color = s.time === "night" ? mix(p.skyBottom, [0, 0, 0], 0.6) : mix(p.ink, p.skyMid, 0.2);
  const n = rng.int(4, 9);
  const fx = rng.range(0.2, 0.8) * W,
    fy = Math.min(hy, H) * rng.range(0.2, 0.45);
  for (let i = 0; i < n; i++) {
    const x = fx + rng.range(-0.18, 0.18) * W,
      y = fy + rng.range(-0.1, 0.1) * H;
    const size = U * rng.range(0.012, 0.03),
      flap = rng.range(0.2, 0.6);
    c.strokePath(
      [
        x - size,
        y - size * flap,
        x - size * 0.45,
        y - size * (flap + 0.2),
        x,
        y,
        x + size * 0.45,
        y - size * (flap + 0.2),
        x + size,
        y - size * flap,
      ],
      Math.max(1, size * 0.14),
      color,
    );
  }
}
