// What the engine takes from a reference image: its dominant colours (k-means on a small grid), the
// average colour of its upper and lower parts, where its horizon and its centre of interest lie, and a
// coarse brightness map that becomes the light layout of the render.
import { type Rgb, toHsl } from "./color.ts";

export interface ReferenceImage {
  width: number;
  height: number;
  rgba: Uint8Array;
  /**
   * referenceCells(the image), where the decoder has worked them out already: then `rgba` may be empty.
   * The local backend's render processes answer a decode with these (12 KB) rather than the pixels (up to
   * 64 MB, which the server's event loop would have to copy twice), and the render takes them as they are.
   */
  cells?: Float32Array;
}

export interface ReferenceInfo {
  /** Dominant colours, heaviest first. */
  palette: Rgb[];
  top: Rgb;
  bottom: Rgb;
  /** The most colourful of the dominant colours. */
  accent: Rgb;
  /** Fraction of the height where brightness changes most between rows, or null when flat. */
  horizon: number | null;
  /** Horizontal centre of what stands out, 0..1. */
  focusX: number;
  /** GRID x GRID brightness in 0..1, normalised around 0.5. */
  light: Float32Array;
}

export const GRID = 32;
const CLUSTERS = 5;

export function analyseReference(ref: ReferenceImage): ReferenceInfo {
  const cells = ref.cells ?? referenceCells(ref);
  const n = GRID * GRID;
  const lum = new Float32Array(n);
  for (let i = 0; i < n; i++) lum[i] = 0.299 * cells[i * 3] + 0.587 * cells[i * 3 + 1] + 0.114 * cells[i * 3 + 2];

  const average = (y0: number, y1: number): Rgb => {
    const acc = [0, 0, 0];
    for (let y = y0; y < y1; y++) {
      for (let x = 0; x < GRID; x++) for (let k = 0; k < 3; k++) acc[k] += cells[(y * GRID + x) * 3 + k];
    }
    const count = (y1 - y0) * GRID;
    return [acc[0] / count, acc[1] / count, acc[2] / count];
  };

  const rows = new Float32Array(GRID);
  for (let y = 0; y < GRID; y++) for (let x = 0; x < GRID; x++) rows[y] += lum[y * GRID + x] / GRID;
  let horizon: number | null = null,
    bestJump = 10;
  for (let y = Math.round(GRID * 0.25); y <= Math.round(GRID * 0.85); y++) {
    const above = (rows[y - 1] + rows[y - 2] + rows[y - 3]) / 3,
      below = (rows[y] + rows[y + 1] + rows[Math.min(GRID - 1, y + 2)]) / 3;
    const jump = Math.abs(above - below);
    if (jump > bestJump) {
      bestJump = jump;
      horizon = y / GRID;
    }
  }

  let meanL = 0;
  for (let i = 0; i < n; i++) meanL += lum[i] / n;
  let wx = 0,
    wsum = 0;
  for (let i = 0; i < n; i++) {
    const [, s] = toHsl([cells[i * 3], cells[i * 3 + 1], cells[i * 3 + 2]]);
    const weight = Math.abs(lum[i] - meanL) + s * 60 + 1;
    wx += (((i % GRID) + 0.5) / GRID) * weight;
    wsum += weight;
  }

  const light = new Float32Array(n);
  const spread = Math.max(20, Math.sqrt(lum.reduce((a, v) => a + (v - meanL) ** 2, 0) / n) * 1.6);
  for (let i = 0; i < n; i++) light[i] = Math.min(1, Math.max(0, 0.5 + (lum[i] - meanL) / (2 * spread)));

  const palette = kMeans(cells, n);
  let accent = palette[0],
    bestScore = -1;
  for (let i = 0; i < palette.length; i++) {
    const [, s, l] = toHsl(palette[i]);
    const score = s * (1 - Math.abs(l - 0.5)) * (1 - i * 0.08);
    if (score > bestScore) {
      bestScore = score;
      accent = palette[i];
    }
  }
  return {
    palette,
    top: average(0, Math.round(GRID * 0.35)),
    bottom: average(Math.round(GRID * 0.65), GRID),
    accent,
    horizon,
    focusX: Math.min(0.8, Math.max(0.2, wx / wsum)),
    light,
  };
}

/**
 * GRID x GRID area averages (at most 8 x 8 samples per cell), transparent pixels over white: all the engine
 * reads of a reference's pixels.
 */
export function referenceCells(ref: Pick<ReferenceImage, "width" | "height" | "rgba">): Float32Array {
  const out = new Float32Array(GRID * GRID * 3);
  const { width: w, height: h, rgba } = ref;
  for (let gy = 0; gy < GRID; gy++) {
    const y0 = Math.floor((gy * h) / GRID),
      y1 = Math.max(y0 + 1, Math.floor(((gy + 1) * h) / GRID));
    const sy = Math.max(1, Math.floor((y1 - y0) / 8));
    for (let gx = 0; gx < GRID; gx++) {
      const x0 = Math.floor((gx * w) / GRID),
        x1 = Math.max(x0 + 1, Math.floor(((gx + 1) * w) / GRID));
      const sx = Math.max(1, Math.floor((x1 - x0) / 8));
      let r = 0,
        g = 0,
        b = 0,
        count = 0;
      for (let y = y0; y < y1 && y < h; y += sy) {
        for (let x = x0; x < x1 && x < w; x += sx) {
          const k = (y * w + x) * 4,
            a = rgba[k + 3] / 255;
          r += rgba[k] * a + 255 * (1 - a);
          g += rgba[k + 1] * a + 255 * (1 - a);
          b += rgba[k + 2] * a + 255 * (1 - a);
          count++;
        }
      }
      const o = (gy * GRID + gx) * 3;
      out[o] = r / Math.max(1, count);
      out[o + 1] = g / Math.max(1, count);
      out[o + 2] = b / Math.max(1, count);
    }
  }
  return out;
}

/** Deterministic k-means: seeds spread over the luminance order, eight rounds. */
function kMeans(cells: Float32Array, n: number): Rgb[] {
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => cells[a * 3] + cells[a * 3 + 1] + cells[a * 3 + 2] - (cells[b * 3] + cells[b * 3 + 1] + cells[b * 3 + 2]),
  );
  const centres = Array.from({ length: CLUSTERS }, (_, k) => {
    const i = order[Math.floor(((k + 0.5) * n) / CLUSTERS)];
    return [cells[i * 3], cells[i * 3 + 1], cells[i * 3 + 2]];
  });
  const assign = new Uint8Array(n);
  const weight = new Float32Array(CLUSTERS);
  for (let round = 0; round < 8; round++) {
    const sums = centres.map(() => [0, 0, 0]);
    weight.fill(0);
    for (let i = 0; i < n; i++) {
      let best = 0,
        bestD = Infinity;
      for (let k = 0; k < CLUSTERS; k++) {
        const d = (cells[i * 3] - centres[k][0]) ** 2 +
          (cells[i * 3 + 1] - centres[k][1]) ** 2 +
          (cells[i * 3 + 2] - centres[k][2]) ** 2;
        if (d < bestD) {
          bestD = d;
          best = k;
        }
      }
      assign[i] = best;
      weight[best]++;
      for (let c = 0; c < 3; c++) sums[best][c] += cells[i * 3 + c];
    }
    for (let k = 0; k < CLUSTERS; k++) if (weight[k] > 0) centres[k] = sums[k].map((v) => v / weight[k]);
  }
  return centres
    .map((c, k) => ({ c: [c[0], c[1], c[2]] as Rgb, w: weight[k] }))
    .filter((e) => e.w > 0)
    .sort((a, b) => b.w - a.w)
    .map((e) => e.c);
}
