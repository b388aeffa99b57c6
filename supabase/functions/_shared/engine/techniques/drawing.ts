// Drawn on paper. Line art: clean black contours (colour edges and object silhouettes) on white, no
// fill. Sketch: graphite on cream paper, tone built from up to three hatching directions that start
// at rising darkness, with loose contour lines on top.
import { Canvas, Layer } from "../canvas.ts";
import { hex } from "../color.ts";
import { blur, grain, lumaOf } from "../filters.ts";
import { hash2 } from "../prng.ts";
import { type Job, markSize, unit } from "./job.ts";
import { applyInk, edgeMask, layerEdges, maxInto, TEXTURED_LAYERS } from "./passes.ts";

function paperCanvas(w: number, h: number, paper: readonly number[], layer: Uint8Array): Canvas {
  const out = new Canvas(w, h, undefined, layer);
  const d = out.data;
  for (let k = 0; k < d.length; k += 3) {
    d[k] = paper[0];
    d[k + 1] = paper[1];
    d[k + 2] = paper[2];
  }
  return out;
}

export function lineArt(job: Job): Canvas {
  const scene = job.compose(job.width, job.height);
  const { width: w, height: h } = scene,
    U = unit(job);
  const lines = maxInto(edgeMask(scene, 18, 1.2, Math.max(1, U / 900), TEXTURED_LAYERS), layerEdges(scene, false));
  waterStrokes(scene, lines, job, U);
  const out = paperCanvas(w, h, hex("#f8f6f0"), scene.layer);
  applyInk(out, blur(lines, w, h, 1, 1), hex("#111111"), 1.4);
  return out;
}

export function sketch(job: Job): Canvas {
  const scene = job.compose(job.width, job.height);
  const { width: w, height: h } = scene,
    U = unit(job);
  const lum = lumaOf(scene);
  const contours = maxInto(edgeMask(scene, 20, 1.5, 1), layerEdges(scene, true));
  const out = paperCanvas(w, h, hex("#f2efe7"), scene.layer);
  const d = out.data,
    graphite = hex("#2b2b2b"),
    noise = job.scene.noise;
  const sp = Math.max(3, markSize(job, U * 0.0075));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const t = Math.min(1, Math.max(0, (1 - lum[i] / 255 - 0.12) * 1.35));
      if (t <= 0.15) continue;
      const wob = (noise.sample(x * 0.35, y * 0.35) - 0.5) * sp * 0.9;
      const dark = Math.max(
        hatch((x + y + wob) / sp, 0.15, t, sp),
        hatch((x - y + wob) / sp, 0.45, t, sp),
        hatch((y + wob * 0.5) / (sp * 0.9), 0.72, t, sp),
      );
      const a = dark * (0.55 + 0.25 * hash2(x >> 2, y >> 2, 7));
      const k = i * 3;
      d[k] += (graphite[0] - d[k]) * a;
      d[k + 1] += (graphite[1] - d[k + 1]) * a;
      d[k + 2] += (graphite[2] - d[k + 2]) * a;
    }
  }
  applyInk(out, blur(contours, w, h, 1, 1), graphite, 1.1);
  grain(out, 3, job.rng.seed);
  return out;
}

/** Water gets a few dashed horizontal strokes, closer together toward the horizon. */
function waterStrokes(scene: Canvas, lines: Float32Array, job: Job, U: number): void {
  const { width: w, height: h } = scene,
    hy = job.scene.horizon * h,
    noise = job.scene.noise;
  for (let y = Math.ceil(hy) + 1; y < h; y++) {
    const t = (y - hy) / (h - hy),
      spacing = U * (0.012 + 0.05 * t),
      phase = (y - hy) % spacing;
    if (phase >= Math.max(1, U * 0.0015)) continue;
    const row = Math.floor((y - hy) / spacing);
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (scene.layer[i] === Layer.water && noise.sample(x * (0.6 - t * 0.4), row * 17) > 0.45) lines[i] = 1;
    }
  }
}

/** Coverage of the nearest hatch line at phase u; lines appear above darkness `from` and thicken. */
function hatch(u: number, from: number, t: number, sp: number): number {
  if (t <= from) return 0;
  const dist = Math.abs(u - Math.round(u)) * sp;
  const width = 0.35 + ((t - from) / (1 - from)) * sp * 0.35;
  const cov = width - dist + 0.5;
  return cov <= 0 ? 0 : cov >= 1 ? 1 : cov;
}
