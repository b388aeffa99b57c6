// Water: the sea (perspective waves, a rippled mirror of what stands above the horizon, a glitter path
// under the sun or moon), a winding river, a sailing boat and a leaping fish.
import { Layer } from "../canvas.ts";
import { mix } from "../color.ts";
import { fastSin } from "../trig.ts";
import type { Draw } from "./context.ts";

export function drawSea(d: Draw): void {
  const { c, p, s, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.water;
  const data = c.data,
    layer = c.layer;
  const lx = s.light.x * W;
  const hasLight = s.motifs.has("sun") || s.motifs.has("moon");
  const light = s.time === "night" ? p.moon : p.sun;
  const depthSpan = Math.max(1, H - hy);
  const nk = 256 / (U * 0.5);
  const calm = s.motifs.has("rain") ? 0.15 : 0.4;
  for (let y = hy; y < H; y++) {
    const t = (y + 0.5 - hy) / depthSpan;
    const near = Math.min(1, t * 1.6);
    const br = p.waterLight[0] + (p.water[0] - p.waterLight[0]) * near;
    const bg = p.waterLight[1] + (p.water[1] - p.waterLight[1]) * near;
    const bb = p.waterLight[2] + (p.water[2] - p.waterLight[2]) * near;
    const deep = t * 0.45;
    const r0 = br + (p.waterDeep[0] - br) * deep,
      g0 = bg + (p.waterDeep[1] - bg) * deep,
      b0 = bb + (p.waterDeep[2] - bb) * deep;
    const freq = (Math.PI * 2) / (U * (0.012 + 0.07 * t));
    const phase = rng.next() * Math.PI * 2;
    const mirrorY = Math.floor(hy - (y - hy) * 1.05 - 1);
    const reflect = mirrorY >= 0 ? calm * (1 - t * 0.7) : 0;
    const glitterW = U * (0.02 + 0.22 * t);
    const waveAmp = 0.2 + 0.55 * t;
    for (let x = 0; x < W; x++) {
      const wave = fastSin(x * freq + phase + s.noise.sample(x * nk * 0.3, y * nk * 1.2) * 4);
      let r = r0,
        g = g0,
        b = b0;
      if (reflect > 0) {
        const rx = Math.min(W - 1, Math.max(0, Math.round(x + wave * U * 0.006 * (1 + t * 4))));
        const k = (mirrorY * W + rx) * 3;
        r += (data[k] - r) * reflect;
        g += (data[k + 1] - g) * reflect;
        b += (data[k + 2] - b) * reflect;
      }
      const crest = wave > 0 ? wave * wave * wave * wave * wave * wave * waveAmp : wave * 0.06;
      if (crest > 0) {
        r += (p.waterLight[0] - r) * crest;
        g += (p.waterLight[1] - g) * crest;
        b += (p.waterLight[2] - b) * crest;
      } else {
        r *= 1 + crest;
        g *= 1 + crest;
        b *= 1 + crest;
      }
      if (hasLight) {
        const q = (x - lx) / glitterW;
        if (q > -3 && q < 3) {
          const gl = Math.exp(-q * q) * (wave > 0.3 ? wave : 0) * 0.9;
          r += (light[0] - r) * gl;
          g += (light[1] - g) * gl;
          b += (light[2] - b) * gl;
        }
      }
      const i = y * W + x,
        k = i * 3;
      data[k] = r;
      data[k + 1] = g;
      data[k + 2] = b;
      layer[i] = Layer.water;
    }
  }
  c.strokeLine(0, hy, W, hy, Math.max(1, U * 0.002), mix(p.waterLight, p.skyBottom, 0.5), 0.6);
}

export function drawRiver(d: Draw): void {
  const { c, p, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.water;
  const x0 = rng.range(0.35, 0.65),
    x1 = rng.range(0.3, 0.7),
    ph = rng.next() * 6;
  const start = hy + (H - hy) * 0.04;
  const bank = mix(p.groundDark, p.ink, 0.2);
  for (let y = Math.ceil(start); y < H; y++) {
    const t = (y - start) / (H - start);
    const cx = W * (x0 + (x1 - x0) * t + 0.14 * Math.sin(t * 5 + ph) * (0.3 + t));
    const hw = W * (0.003 + 0.17 * Math.pow(t, 1.4));
    const col = mix(mix(p.waterLight, p.skyBottom, 0.3), p.water, Math.min(1, t * 1.3));
    for (let x = Math.max(0, Math.floor(cx - hw - 2)); x < Math.min(W, Math.ceil(cx + hw + 2)); x++) {
      const e = hw - Math.abs(x + 0.5 - cx);
      if (e < -1.5) continue;
      const ripple = fastSin(x * 0.05 + y * (0.9 - t * 0.6)) > 0.92 ? 0.35 : 0;
      const i = y * W + x;
      if (e < U * 0.003 + 1) c.blend(i, bank[0], bank[1], bank[2], Math.min(1, e + 1.5) * 0.8);
      else {
        c.blend(
          i,
          col[0] + (p.waterLight[0] - col[0]) * ripple,
          col[1] + (p.waterLight[1] - col[1]) * ripple,
          col[2] + (p.waterLight[2] - col[2]) * ripple,
          1,
        );
      }
    }
  }
}

/** A sailing boat at x01; as the picture's lead subject it sails nearer and larger. */
export function drawBoat(d: Draw, x01: number, scale: number): void {
  const { c, p, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.figure;
  const lead = d.s.subjects[0]?.motif === "boat";
  const x = W * x01;
  const t = lead ? rng.range(0.3, 0.45) : rng.range(0.15, 0.35);
  const y = hy + (H - hy) * t;
  const s = U * (lead ? 0.1 + 0.15 * t : 0.06 + 0.1 * t) * scale;
  const hull = mix(p.accent, p.ink, 0.35);
  c.fillEllipse(x, y + s * 0.2, s * 1.1, s * 0.08, mix(p.waterDeep, p.ink, 0.3), 0.4, 0, 3);
  c.fillPolygon(
    [x - s, y - s * 0.16, x + s * 1.05, y - s * 0.2, x + s * 0.7, y + s * 0.18, x - s * 0.75, y + s * 0.18],
    {
      linear: [0, y - s * 0.2, 0, y + s * 0.2],
      from: mix(hull, p.sun, 0.15),
      to: mix(hull, p.ink, 0.4),
    },
  );
  c.strokeLine(x, y - s * 0.16, x, y - s * 1.45, Math.max(1, s * 0.035), p.trunk);
  const sail = mix(p.cloud, p.wall, 0.3);
  c.fillPolygon([x + s * 0.04, y - s * 1.4, x + s * 0.04, y - s * 0.28, x + s * 0.8, y - s * 0.28], {
    linear: [x, 0, x + s * 0.8, 0],
    from: sail,
    to: mix(sail, p.cloudShade, 0.5),
  });
  c.fillPolygon(
    [x - s * 0.05, y - s * 1.2, x - s * 0.05, y - s * 0.3, x - s * 0.62, y - s * 0.3],
    mix(sail, p.accent2, 0.25),
  );
}

export function drawFish(d: Draw): void {
  const { c, p, s, rng, W, H, U, hy } = d;
  c.drawLayer = Layer.figure;
  const inWater = s.motifs.has("sea") && s.horizon < 1;
  const count = inWater ? 1 : rng.int(3, 5);
  for (let i = 0; i < count; i++) {
    const x = W * (inWater ? rng.range(0.25, 0.75) : rng.range(0.12, 0.88));
    const y = inWater ? hy + (H - hy) * rng.range(0.25, 0.4) : Math.min(hy, H) * rng.range(0.2, 0.75);
    const size = U * (inWater ? 0.07 : rng.range(0.04, 0.08));
    const angle = inWater ? -0.5 : rng.range(-0.3, 0.3);
    const body = mix(p.accent2, p.accent, 0.3);
    const dir = rng.chance(0.5) ? 1 : -1;
    const ux = Math.cos(angle) * dir,
      uy = Math.sin(angle),
      px = -uy,
      py = ux;
    const tx = x - ux * size * 0.95,
      ty = y - uy * size * 0.95;
    const bx = tx - ux * size * 0.6,
      by = ty - uy * size * 0.6;
    c.fillPolygon(
      [tx, ty, bx + px * size * 0.5, by + py * size * 0.5, bx - px * size * 0.5, by - py * size * 0.5],
      mix(body, p.ink, 0.2),
    );
    c.fillEllipse(
      x,
      y,
      size * 1.1,
      size * 0.45,
      { linear: [x, y - size * 0.45, x, y + size * 0.45], from: mix(body, p.sun, 0.3), to: mix(body, p.ink, 0.35) },
      1,
      Math.atan2(uy, ux),
    );
    const ca = ux,
      sa = uy;
    c.fillCircle(x + ca * size * 0.65, y + sa * size * 0.65 - size * 0.08, size * 0.09, p.ink);
    if (inWater) {
      for (let k = 0; k < 7; k++) {
        c.fillCircle(
          x + ca * size * (k * 0.3 - 1.8),
          hy + (H - hy) * 0.42 - Math.sin(k) * size * 0.2,
          size * rng.range(0.05, 0.12),
          p.waterLight,
          0.8,
        );
      }
    }
  }
}
