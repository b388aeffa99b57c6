// Art Nouveau: colours flattened toward the style's muted tones, a ringed halo behind the subject,
// brown flowing outlines, and an arched panel inside a cream border with whiplash curves.
import type { Canvas } from "../canvas.ts";
import { hex, mix } from "../color.ts";
import { blur, posterize } from "../filters.ts";
import { fastSin } from "../trig.ts";
import { type Job, unit } from "./job.ts";
import { applyInk, edgeMask, isSky, layerEdges, maxInto, TEXTURED_LAYERS } from "./passes.ts";

export function artNouveau(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job),
    s = job.scene,
    tones = job.style.tones;
  const d = c.data;
  const hx = s.focusX * w,
    hy = h * (s.motifs.has("portrait") ? 0.52 : 0.4),
    hr = U * 0.3;
  const gold = tones[1];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!isSky(c.layer[i])) continue;
      const dist = Math.sqrt((x - hx) ** 2 + (y - hy) ** 2) / hr;
      if (dist > 1.15) continue;
      const ring = dist > 1 ? 1 : Math.abs(fastSin(dist * Math.PI * 5)) < 0.12 ? 0.8 : 0.35;
      const k = i * 3;
      d[k] += (gold[0] - d[k]) * ring * 0.6;
      d[k + 1] += (gold[1] - d[k + 1]) * ring * 0.6;
      d[k + 2] += (gold[2] - d[k + 2]) * ring * 0.6;
    }
  }
  const lines = maxInto(edgeMask(c, 22, 1.5, Math.max(1, U / 450), TEXTURED_LAYERS), layerEdges(c, true));
  posterize(c, 6);
  for (let k = 0; k < d.length; k += 3) {
    let best = tones[0],
      bestD = Infinity;
    for (const t of tones) {
      const dist = (t[0] - d[k]) ** 2 + (t[1] - d[k + 1]) ** 2 + (t[2] - d[k + 2]) ** 2;
      if (dist < bestD) {
        bestD = dist;
        best = t;
      }
    }
    d[k] += (best[0] - d[k]) * 0.45;
    d[k + 1] += (best[1] - d[k + 1]) * 0.45;
    d[k + 2] += (best[2] - d[k + 2]) * 0.45;
  }
  const brown = tones[6];
  applyInk(c, blur(lines, w, h, 1, 1), brown, 1.3);

  const m = U * 0.06,
    cream = tones[0],
    half = w / 2 - m,
    archTop = m + U * 0.02,
    archRise = Math.min(half, h * 0.3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let dist: number;
      const ax = (x - w / 2) / half;
      if (y < archTop + archRise) {
        const curve = archTop + archRise * (1 - Math.sqrt(Math.max(0, 1 - ax * ax)));
        dist = Math.max(curve - y, Math.abs(x - w / 2) - half);
      } else dist = Math.max(Math.abs(x - w / 2) - half, y - (h - m));
      if (dist < -U * 0.012) continue;
      const k = (y * w + x) * 3;
      const line = Math.abs(dist + U * 0.006) < U * 0.003 || Math.abs(dist - U * 0.012) < U * 0.002;
      const col = line ? brown : dist > 0 ? cream : mix(cream, gold, 0.5);
      d[k] = col[0];
      d[k + 1] = col[1];
      d[k + 2] = col[2];
    }
  }
  const whip = hex("#6b8e5a");
  for (const side of [-1, 1]) {
    const pts: number[] = [];
    for (let i = 0; i <= 40; i++) {
      const t = i / 40;
      pts.push(w / 2 + side * (half + m * 0.5 + Math.sin(t * Math.PI * 5) * m * 0.25), h - m * 0.5 - t * (h - m * 2));
    }
    c.strokePath(pts, Math.max(1, U * 0.005), whip);
  }
  for (let i = 0; i < 9; i++) c.fillCircle(w / 2 + (i - 4) * m * 0.9, h - m * 0.5, m * 0.18, i % 2 ? gold : whip);
  return c;
}
