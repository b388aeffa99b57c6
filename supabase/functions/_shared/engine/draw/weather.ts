// Weather laid over the finished scene: rain streaks with an occasional lightning bolt, falling snow,
// and ground fog that thickens toward the horizon.
import { Layer } from "../canvas.ts";
import { mix } from "../color.ts";
import type { Draw } from "./context.ts";

export function drawRain(d: Draw): void {
  const { c, p, rng, W, H, U } = d;
  c.drawLayer = Layer.effect;
  if (rng.chance(0.5)) {
    const pts: number[] = [];
    let x = rng.range(0.2, 0.8) * W,
      y = 0;
    const end = Math.min(d.hy, H) * rng.range(0.6, 0.95);
    while (y < end) {
      pts.push(x, y);
      x += rng.range(-0.04, 0.04) * U;
      y += rng.range(0.03, 0.07) * U;
    }
    c.strokePath(pts, Math.max(1, U * 0.008), [255, 255, 240], 0.25);
    c.strokePath(pts, Math.max(1, U * 0.003), [255, 255, 255], 0.95);
  }
  const count = Math.round((W * H) / 2200);
  const col = mix(p.cloud, [255, 255, 255], 0.4);
  const slant = rng.range(0.12, 0.3);
  for (let i = 0; i < count; i++) {
    const x = rng.next() * (W + H * slant) - H * slant * 0.5,
      y = rng.next() * H;
    const len = U * rng.range(0.015, 0.045);
    c.strokeLine(x, y, x - len * slant, y + len, Math.max(0.8, U * 0.0016), col, rng.range(0.2, 0.45));
  }
}

export function drawSnowfall(d: Draw): void {
  const { c, p, rng, W, H, U } = d;
  c.drawLayer = Layer.effect;
  const count = Math.round((W * H) / 2600);
  for (let i = 0; i < count; i++) {
    const near = rng.next() ** 3;
    c.fillCircle(rng.next() * W, rng.next() * H, U * (0.0015 + near * 0.006), p.snow, 0.5 + near * 0.45, 1 + near * 2);
  }
}

export function drawFog(d: Draw): void {
  const { c, p, s, W, H, U, hy } = d;
  const fog = mix(p.cloud, p.skyBottom, 0.5);
  const data = c.data;
  const band = H * 0.28,
    nk = 256 / (U * 0.8);
  const centre = Math.min(hy, H * 0.95);
  for (let y = 0; y < H; y++) {
    const q = (y - centre) / band;
    const base = Math.exp(-q * q) * 0.75;
    if (base < 0.02) continue;
    for (let x = 0; x < W; x++) {
      const a = base * (0.45 + 0.55 * s.noise.sample(x * nk * 0.5, y * nk * 1.5));
      const k = (y * W + x) * 3;
      data[k] += (fog[0] - data[k]) * a;
      data[k + 1] += (fog[1] - data[k + 1]) * a;
      data[k + 2] += (fog[2] - data[k + 2]) * a;
    }
  }
}
