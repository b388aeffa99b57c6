// Paint media. Oil: colours smeared along a flow field into strokes, bristle relief and canvas weave.
// Impressionist: short dabs of jittered pure colour over a pale ground. Watercolor: soft transparent
// washes with darkened pooling edges, wobbling bleeds, paper grain and an unpainted ragged border.
// All three compose the scene at half resolution (their look hides the difference); at higher quality they
// work closer to full size and lay finer strokes and dabs (job.detail).
import { Canvas } from "../canvas.ts";
import { hex } from "../color.ts";
import { blur, grain, layersAt, lumaOf, resize, vignette } from "../filters.ts";
import { hash2 } from "../prng.ts";
import { fastCos, fastSin } from "../trig.ts";
import { type Job, markSize, unit, workSide } from "./job.ts";
import { flowAt, flowField, relief, smear, whiteNoise } from "./passes.ts";

function halfScene(job: Job): Canvas {
  return resize(job.compose(workSide(job, job.width, 2), workSide(job, job.height, 2)), job.width, job.height);
}

export function oilPainting(job: Job): Canvas {
  const { width: W, height: H } = job,
    U = unit(job),
    rng = job.rng;
  // Strokes are laid at half resolution (a brush mark is many pixels wide anyway); the relief that
  // makes them read as paint is lit at full resolution.
  const w = workSide(job, W, 2),
    h = workSide(job, H, 2),
    u = U / Math.max(1, 2 / job.detail);
  const base = job.compose(w, h);
  const flow = flowField(w, h, job.scene.noise, u * 0.35, Math.PI / 5);
  const c = new Canvas(w, h, smear(base.data, w, h, 3, flow, u * 0.03, 5), base.layer);
  const bd = base.data;
  for (
    const [cellK, lenK, widthK] of [
      [0.022, 0.05, 0.017],
      [0.013, 0.03, 0.01],
    ] as const
  ) {
    const cell = Math.max(2, markSize(job, u * cellK)),
      len = markSize(job, u * lenK),
      width = Math.max(1.2, markSize(job, u * widthK));
    for (let gy = 0; gy < h + cell; gy += cell) {
      for (let gx = 0; gx < w + cell; gx += cell) {
        const x = gx + rng.range(-0.5, 0.5) * cell,
          y = gy + rng.range(-0.5, 0.5) * cell;
        const sx = Math.min(w - 1, Math.max(0, x | 0)),
          sy = Math.min(h - 1, Math.max(0, y | 0)),
          k = (sy * w + sx) * 3;
        const a = flow.angle[flowAt(flow, sx, sy)] + rng.range(-0.25, 0.25),
          dx = (fastCos(a) * len) / 2,
          dy = (fastSin(a) * len) / 2;
        const f = rng.range(0.93, 1.08);
        c.strokeLine(x - dx, y - dy, x + dx, y + dy, width, [bd[k] * f, bd[k + 1] * f, bd[k + 2] * f], 0.92);
      }
    }
  }
  const bristles = smear(blur(whiteNoise(w, h, rng.seed), w, h, 1, 1), w, h, 1, flow, u * 0.04, 5);
  const height = lumaOf(c);
  for (let i = 0; i < height.length; i++) height[i] = (height[i] / 255) * 0.6 + bristles[i] * 0.5;
  const out = resize(c, W, H);
  const relief2x = new Canvas(w, h);
  for (let i = 0; i < height.length; i++) relief2x.data[i * 3] = height[i];
  const heightFull = new Float32Array(W * H),
    up = resize(relief2x, W, H).data;
  for (let i = 0; i < heightFull.length; i++) heightFull[i] = up[i * 3];
  relief(out, heightFull, 2.2);
  const weave = Math.max(2, Math.round(U / 300)),
    d = out.data;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const f = ((x / weave) & 1) ^ ((y / weave) & 1) ? 0.97 : 1,
        k = (y * W + x) * 3;
      d[k] *= f;
      d[k + 1] *= f;
      d[k + 2] *= f;
    }
  }
  vignette(out, 0.25, hex("#1f1a14"));
  return out;
}

export function impressionist(job: Job): Canvas {
  const base = halfScene(job);
  const { width: w, height: h } = base,
    U = unit(job),
    rng = job.rng;
  const ground = hex("#f4ecd8");
  const out = new Canvas(w, h, undefined, base.layer);
  const bd = base.data,
    od = out.data;
  for (let k = 0; k < od.length; k++) od[k] = bd[k] + (ground[k % 3] - bd[k]) * 0.45;
  const noise = job.scene.noise;
  for (
    const [cellK, lengthK, alpha] of [
      [0.016, 1.3, 0.85],
      [0.009, 1.1, 0.92],
    ] as const
  ) {
    const cell = Math.max(2.5, markSize(job, U * cellK));
    for (let gy = 0; gy < h + cell; gy += cell) {
      for (let gx = 0; gx < w + cell; gx += cell) {
        const x = gx + rng.range(-0.5, 0.5) * cell,
          y = gy + rng.range(-0.5, 0.5) * cell;
        const sx = Math.min(w - 1, Math.max(0, x | 0)),
          sy = Math.min(h - 1, Math.max(0, y | 0));
        const k = (sy * w + sx) * 3;
        const light = rng.range(0.9, 1.12),
          shift = rng.range(-16, 16);
        const col: [number, number, number] = [
          bd[k] * light + shift,
          bd[k + 1] * light - shift * 0.5,
          bd[k + 2] * light + shift * 0.3,
        ];
        const angle = (noise.sample(x * 0.4, y * 0.4) - 0.5) * 1.6;
        out.fillEllipse(x, y, cell * lengthK, cell * 0.45, col, alpha, angle, 1.2);
      }
    }
  }
  grain(out, 4, rng.seed);
  return out;
}

export function watercolor(job: Job): Canvas {
  const sw = workSide(job, job.width, 2),
    sh = workSide(job, job.height, 2);
  const small = job.compose(sw, sh);
  const U = unit(job),
    paper = hex("#fbf8f0");
  const soft = blur(small.data, sw, sh, 3, Math.max(1, U * 0.003));
  const wide = blur(soft, sw, sh, 3, Math.max(2, U * 0.012));
  const s = small.data;
  const wash = new Float32Array(256);
  for (let v = 0; v < 256; v++) wash[v] = Math.pow(v / 255, 0.85);
  for (let k = 0; k < s.length; k += 3) {
    // Washes: flatten toward the wide average, lighten like transparent pigment, darken pooled edges;
    // then push the colour back out, since a wash reads pale but never grey.
    const channel = (ch: number) => {
      const flat = soft[k + ch] * 0.7 + wide[k + ch] * 0.3,
        edge = Math.abs(soft[k + ch] - wide[k + ch]);
      return paper[ch] * (wash[flat <= 0 ? 0 : flat >= 255 ? 255 : flat | 0] * 0.9 + 0.1) - edge * 0.45;
    };
    const r = channel(0),
      g = channel(1),
      b = channel(2),
      l = 0.299 * r + 0.587 * g + 0.114 * b;
    s[k] = l + (r - l) * 1.4;
    s[k + 1] = l + (g - l) * 1.4;
    s[k + 2] = l + (b - l) * 1.4;
  }
  const { width: w, height: h } = job;
  const out = new Canvas(w, h);
  const d = out.data,
    noise = job.scene.noise;
  const bleed = U * 0.006,
    sx = sw / w,
    sy = sh / h,
    nk = 256 / (U * 0.12);
  const border = U * 0.05;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const n1 = noise.sample(x * nk, y * nk),
        n2 = noise.sample(x * nk + 101, y * nk + 53);
      const fx = Math.min(sw - 1, Math.max(0, (x + (n1 - 0.5) * 2 * bleed) * sx)),
        fy = Math.min(sh - 1, Math.max(0, (y + (n2 - 0.5) * 2 * bleed) * sy));
      const x0 = fx | 0,
        y0 = fy | 0,
        x1 = Math.min(sw - 1, x0 + 1),
        y1 = Math.min(sh - 1, y0 + 1),
        tx = fx - x0,
        ty = fy - y0;
      const paperTex = noise.sample(x * 2.1, y * 2.1) * 0.6 + hash2(x, y, 99) * 0.4;
      const edgeDist = Math.min(x, y, w - 1 - x, h - 1 - y);
      const ragged = edgeDist - border * (0.5 + noise.sample(x * nk * 0.2 + 31, y * nk * 0.2 + 77) * 1.1);
      const painted = ragged <= 0 ? 0 : Math.min(1, ragged / (U * 0.02));
      const o = (y * w + x) * 3;
      for (let k = 0; k < 3; k++) {
        const a = s[(y0 * sw + x0) * 3 + k],
          b = s[(y0 * sw + x1) * 3 + k],
          c = s[(y1 * sw + x0) * 3 + k],
          e = s[(y1 * sw + x1) * 3 + k];
        const top = a + (b - a) * tx;
        let v = top + (c + (e - c) * tx - top) * ty;
        const pigment = 1 - v / 255;
        v *= 1 - pigment * (0.5 - paperTex) * 0.25;
        v = paper[k] + (v - paper[k]) * painted;
        d[o + k] = v * (0.96 + paperTex * 0.05);
      }
    }
  }
  out.layer.set(layersAt(small, w, h));
  return out;
}
