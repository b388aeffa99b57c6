// The raster every motif draws into: linear Float32 RGB (0..255, unclamped until export) plus a layer id
// per pixel, so style techniques can treat sky, land and subjects differently (anime keeps its sky
// gradient smooth, comic outlines only subjects). Shapes are anti-aliased from signed distances or, for
// polygons, from sub-scanline coverage; no per-pixel objects are allocated.
import type { Rgb } from "./color.ts";

export const Layer = {
  sky: 0,
  celestial: 1,
  cloud: 2,
  far: 3,
  ground: 4,
  water: 5,
  structure: 6,
  plant: 7,
  figure: 8,
  effect: 9,
} as const;

/** A solid colour, or a linear/radial gradient between two colours in canvas pixels. */
export type Paint =
  | Rgb
  | { linear: [number, number, number, number]; from: Rgb; to: Rgb }
  | { radial: [number, number, number]; from: Rgb; to: Rgb };

/** Resolves a Paint to a colour at (x, y) into r/g/b without allocating. */
class PaintSampler {
  r = 0;
  g = 0;
  b = 0;
  private kind = 0;
  private a: Rgb = [0, 0, 0];
  private d: Rgb = [0, 0, 0];
  private p0 = 0;
  private p1 = 0;
  private p2 = 0;
  private p3 = 0;

  set(paint: Paint): this {
    if (Array.isArray(paint)) {
      this.kind = 0;
      this.r = paint[0];
      this.g = paint[1];
      this.b = paint[2];
      return this;
    }
    const p = paint as Exclude<Paint, Rgb>;
    this.a = p.from;
    this.d = [p.to[0] - p.from[0], p.to[1] - p.from[1], p.to[2] - p.from[2]];
    if ("linear" in p) {
      const [x0, y0, x1, y1] = p.linear;
      const len2 = Math.max(1e-6, (x1 - x0) ** 2 + (y1 - y0) ** 2);
      this.kind = 1;
      this.p0 = x0;
      this.p1 = y0;
      this.p2 = (x1 - x0) / len2;
      this.p3 = (y1 - y0) / len2;
    } else {
      this.kind = 2;
      this.p0 = p.radial[0];
      this.p1 = p.radial[1];
      this.p2 = 1 / Math.max(1e-6, p.radial[2]);
    }
    return this;
  }

  at(x: number, y: number): void {
    if (this.kind === 0) return;
    let t: number;
    if (this.kind === 1) t = (x - this.p0) * this.p2 + (y - this.p1) * this.p3;
    else t = Math.hypot(x - this.p0, y - this.p1) * this.p2;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    this.r = this.a[0] + this.d[0] * t;
    this.g = this.a[1] + this.d[1] * t;
    this.b = this.a[2] + this.d[2] * t;
  }
}

export class Canvas {
  readonly data: Float32Array;
  readonly layer: Uint8Array;
  /** Layer id stamped on pixels that shapes mostly cover. */
  drawLayer = 0;
  private readonly sampler = new PaintSampler();
  private coverage: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
    data?: Float32Array,
    layer?: Uint8Array,
  ) {
    this.data = data ?? new Float32Array(width * height * 3);
    this.layer = layer ?? new Uint8Array(width * height);
    this.coverage = new Float32Array(width + 2);
  }

  /** Blends a colour into pixel index i with opacity a. */
  blend(i: number, r: number, g: number, b: number, a: number): void {
    const d = this.data,
      k = i * 3;
    d[k] += (r - d[k]) * a;
    d[k + 1] += (g - d[k + 1]) * a;
    d[k + 2] += (b - d[k + 2]) * a;
    if (a > 0.5) this.layer[i] = this.drawLayer;
  }

  fill(c: Rgb): void {
    const d = this.data;
    for (let k = 0; k < d.length; k += 3) {
      d[k] = c[0];
      d[k + 1] = c[1];
      d[k + 2] = c[2];
    }
    this.layer.fill(this.drawLayer);
  }

  /** Rows y0..y1 (pixels) get colours interpolated through `stops` ([t in 0..1, colour]). */
  gradientRows(y0: number, y1: number, stops: ReadonlyArray<readonly [number, Rgb]>, alpha = 1): void {
    const from = Math.max(0, Math.floor(y0)),
      to = Math.min(this.height, Math.ceil(y1));
    const span = Math.max(1, y1 - y0);
    for (let y = from; y < to; y++) {
      const t = (y + 0.5 - y0) / span;
      let j = 0;
      while (j < stops.length - 2 && t > stops[j + 1][0]) j++;
      const [ta, ca] = stops[j],
        [tb, cb] = stops[Math.min(j + 1, stops.length - 1)];
      const u = tb > ta ? Math.min(1, Math.max(0, (t - ta) / (tb - ta))) : 0;
      const r = ca[0] + (cb[0] - ca[0]) * u,
        g = ca[1] + (cb[1] - ca[1]) * u,
        b = ca[2] + (cb[2] - ca[2]) * u;
      if (alpha >= 1) {
        const d = this.data;
        for (let k = y * this.width * 3, end = k + this.width * 3; k < end; k += 3) {
          d[k] = r;
          d[k + 1] = g;
          d[k + 2] = b;
        }
        this.layer.fill(this.drawLayer, y * this.width, (y + 1) * this.width);
      } else {
        for (let x = 0, i = y * this.width; x < this.width; x++, i++) this.blend(i, r, g, b, alpha);
      }
    }
  }

  fillRect(x0: number, y0: number, x1: number, y1: number, paint: Paint, alpha = 1): void {
    const s = this.sampler.set(paint);
    const ya = Math.max(0, Math.floor(y0)),
      yb = Math.min(this.height, Math.ceil(y1));
    const xa = Math.max(0, Math.floor(x0)),
      xb = Math.min(this.width, Math.ceil(x1));
    for (let y = ya; y < yb; y++) {
      const cy = Math.min(y + 1, y1) - Math.max(y, y0);
      for (let x = xa; x < xb; x++) {
        const cx = Math.min(x + 1, x1) - Math.max(x, x0);
        s.at(x + 0.5, y + 0.5);
        this.blend(y * this.width + x, s.r, s.g, s.b, alpha * cx * cy);
      }
    }
  }

  /** An ellipse with radii rx, ry rotated by `rotation` radians; `feather` widens the soft edge (px). */
  fillEllipse(
    cx: number,
    cy: number,
    rx: number,
    ry: number,
    paint: Paint,
    alpha = 1,
    rotation = 0,
    feather = 1,
  ): void {
    if (rx <= 0 || ry <= 0) return;
    const s = this.sampler.set(paint);
    const cos = Math.cos(rotation),
      sin = Math.sin(rotation);
    const square = rotation === 0;
    const extX = (square ? rx : Math.max(rx, ry)) + feather + 1,
      extY = (square ? ry : Math.max(rx, ry)) + feather + 1;
    const ya = Math.max(0, Math.floor(cy - extY)),
      yb = Math.min(this.height, Math.ceil(cy + extY));
    const irx2 = 1 / (rx * rx),
      iry2 = 1 / (ry * ry),
      half = feather / 2;
    for (let y = ya; y < yb; y++) {
      const dy = y + 0.5 - cy;
      // Unrotated: only the span of this row that the (feathered) ellipse can reach.
      let span = extX;
      if (square) {
        const q = 1 - (dy * dy) / ((ry + feather + 1) * (ry + feather + 1));
        if (q <= 0) continue;
        span = (rx + feather + 1) * Math.sqrt(q);
      }
      const xa = Math.max(0, Math.floor(cx - span)),
        xb = Math.min(this.width, Math.ceil(cx + span));
      for (let x = xa; x < xb; x++) {
        const dx = x + 0.5 - cx;
        const u = dx * cos + dy * sin,
          v = -dx * sin + dy * cos;
        const f = u * u * irx2 + v * v * iry2;
        if (f > 4) continue;
        // First-order distance to the ellipse edge: (f - 1) / |grad f|.
        const grad = 2 * Math.sqrt(u * u * irx2 * irx2 + v * v * iry2 * iry2) + 1e-9;
        const sd = (f - 1) / grad;
        const cov = sd <= -half ? 1 : sd >= half ? 0 : 0.5 - sd / feather;
        if (cov <= 0) continue;
        s.at(x + 0.5, y + 0.5);
        this.blend(y * this.width + x, s.r, s.g, s.b, alpha * cov);
      }
    }
  }

  fillCircle(cx: number, cy: number, r: number, paint: Paint, alpha = 1, feather = 1): void {
    if (r <= 0) return;
    const s = this.sampler.set(paint);
    const ext = r + feather + 1,
      half = feather / 2;
    const ya = Math.max(0, Math.floor(cy - ext)),
      yb = Math.min(this.height, Math.ceil(cy + ext));
    for (let y = ya; y < yb; y++) {
      const dy = y + 0.5 - cy;
      const q = ext * ext - dy * dy;
      if (q <= 0) continue;
      const span = Math.sqrt(q);
      const xa = Math.max(0, Math.floor(cx - span)),
        xb = Math.min(this.width, Math.ceil(cx + span));
      for (let x = xa; x < xb; x++) {
        const dx = x + 0.5 - cx;
        const sd = Math.sqrt(dx * dx + dy * dy) - r;
        const cov = sd <= -half ? 1 : sd >= half ? 0 : 0.5 - sd / feather;
        if (cov <= 0) continue;
        s.at(x + 0.5, y + 0.5);
        this.blend(y * this.width + x, s.r, s.g, s.b, alpha * cov);
      }
    }
  }

  /** Adds light: colour * strength * (1 - (d/r)^2)^2 within radius r. */
  glow(cx: number, cy: number, r: number, c: Rgb, strength: number): void {
    const ya = Math.max(0, Math.floor(cy - r)),
      yb = Math.min(this.height, Math.ceil(cy + r));
    const xa = Math.max(0, Math.floor(cx - r)),
      xb = Math.min(this.width, Math.ceil(cx + r));
    const ir2 = 1 / (r * r),
      d = this.data;
    for (let y = ya; y < yb; y++) {
      const dy = y + 0.5 - cy;
      for (let x = xa; x < xb; x++) {
        const dx = x + 0.5 - cx;
        const q = 1 - (dx * dx + dy * dy) * ir2;
        if (q <= 0) continue;
        const f = q * q * strength,
          k = (y * this.width + x) * 3;
        d[k] += c[0] * f;
        d[k + 1] += c[1] * f;
        d[k + 2] += c[2] * f;
      }
    }
  }

  /** A round-capped line of the given width. */
  strokeLine(x0: number, y0: number, x1: number, y1: number, width: number, paint: Paint, alpha = 1): void {
    const s = this.sampler.set(paint);
    const hw = width / 2,
      dx = x1 - x0,
      dy = y1 - y0;
    const len2 = dx * dx + dy * dy || 1e-9;
    const ext = hw + 1.5;
    const ya = Math.max(0, Math.floor(Math.min(y0, y1) - ext)),
      yb = Math.min(this.height, Math.ceil(Math.max(y0, y1) + ext));
    const minX = Math.min(x0, x1) - ext,
      maxX = Math.max(x0, x1) + ext;
    // Per row, only the band around the line is visited (steep long strokes would waste their box).
    const slope = Math.abs(dy) > 1e-6 ? dx / dy : 0;
    const band = Math.abs(dy) > 1e-6 ? (ext * Math.sqrt(len2)) / Math.abs(dy) : Infinity;
    for (let y = ya; y < yb; y++) {
      const py = y + 0.5;
      let xa = minX,
        xb = maxX;
      if (band !== Infinity) {
        const xc = x0 + (py - y0) * slope;
        xa = Math.max(minX, xc - band);
        xb = Math.min(maxX, xc + band);
      }
      const ia = Math.max(0, Math.floor(xa)),
        ib = Math.min(this.width, Math.ceil(xb));
      for (let x = ia; x < ib; x++) {
        const px = x + 0.5;
        let t = ((px - x0) * dx + (py - y0) * dy) / len2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const ex = px - (x0 + t * dx),
          ey = py - (y0 + t * dy);
        const sd = Math.sqrt(ex * ex + ey * ey) - hw;
        const cov = sd <= -0.5 ? 1 : sd >= 0.5 ? 0 : 0.5 - sd;
        if (cov <= 0) continue;
        s.at(px, py);
        this.blend(y * this.width + x, s.r, s.g, s.b, alpha * Math.min(1, cov * Math.min(1, width)));
      }
    }
  }

  strokePath(points: ArrayLike<number>, width: number, paint: Paint, alpha = 1): void {
    for (let i = 0; i + 3 < points.length; i += 2) {
      this.strokeLine(points[i], points[i + 1], points[i + 2], points[i + 3], width, paint, alpha);
    }
  }

  /** A filled polygon (flat [x0, y0, x1, y1, ...], non-zero winding) with 4 sub-scanlines of AA. */
  fillPolygon(points: ArrayLike<number>, paint: Paint, alpha = 1): void {
    const n = points.length >> 1;
    if (n < 3) return;
    const s = this.sampler.set(paint);
    let minY = Infinity,
      maxY = -Infinity,
      minX = Infinity,
      maxX = -Infinity;
    for (let i = 0; i < n; i++) {
      minX = Math.min(minX, points[2 * i]);
      maxX = Math.max(maxX, points[2 * i]);
      minY = Math.min(minY, points[2 * i + 1]);
      maxY = Math.max(maxY, points[2 * i + 1]);
    }
    const ya = Math.max(0, Math.floor(minY)),
      yb = Math.min(this.height, Math.ceil(maxY));
    const xa = Math.max(0, Math.floor(minX)),
      xb = Math.min(this.width, Math.ceil(maxX));
    if (xa >= xb) return;
    const cov = this.coverage;
    const xs: number[] = [],
      dirs: number[] = [];
    const SUB = 4;
    for (let y = ya; y < yb; y++) {
      cov.fill(0, xa, xb + 1);
      for (let sub = 0; sub < SUB; sub++) {
        const sy = y + (sub + 0.5) / SUB;
        xs.length = 0;
        dirs.length = 0;
        for (let i = 0, j = n - 1; i < n; j = i++) {
          const ax = points[2 * j],
            ay = points[2 * j + 1],
            bx = points[2 * i],
            by = points[2 * i + 1];
          if (ay === by || sy < Math.min(ay, by) || sy >= Math.max(ay, by)) continue;
          const x = ax + ((sy - ay) * (bx - ax)) / (by - ay);
          let k = xs.length;
          xs.push(x);
          dirs.push(by > ay ? 1 : -1);
          while (k > 0 && xs[k - 1] > x) {
            xs[k] = xs[k - 1];
            dirs[k] = dirs[k - 1];
            k--;
          }
          xs[k] = x;
          dirs[k] = by > ay ? 1 : -1;
        }
        let winding = 0;
        for (let k = 0; k < xs.length - 1; k++) {
          winding += dirs[k];
          if (winding === 0) continue;
          this.addSpan(Math.max(xa, xs[k]), Math.min(xb, xs[k + 1]), 1 / SUB);
        }
      }
      for (let x = xa; x < xb; x++) {
        const c = cov[x];
        if (c <= 0) continue;
        s.at(x + 0.5, y + 0.5);
        this.blend(y * this.width + x, s.r, s.g, s.b, alpha * Math.min(1, c));
      }
    }
  }

  private addSpan(x0: number, x1: number, w: number): void {
    if (x1 <= x0) return;
    const cov = this.coverage;
    const i0 = Math.floor(x0),
      i1 = Math.floor(x1);
    if (i0 === i1) {
      cov[i0] += (x1 - x0) * w;
      return;
    }
    cov[i0] += (i0 + 1 - x0) * w;
    for (let i = i0 + 1; i < i1; i++) cov[i] += w;
    if (i1 < cov.length) cov[i1] += (x1 - i1) * w;
  }

  /**
   * Fills, for every column x, the span from top[x] down to bottom (a silhouette over a horizon),
   * shading each pixel with colourAt-like gradient from `topColor` at the ridge to `bottomColor` below.
   */
  fillColumns(top: Float32Array, bottom: number, topColor: Rgb, bottomColor: Rgb, alpha = 1, depth = 0): void {
    const yb = Math.min(this.height, Math.ceil(bottom));
    const span = depth > 0 ? depth : Math.max(1, bottom - Math.min(...top));
    for (let x = 0; x < this.width; x++) {
      const t0 = top[x];
      if (t0 >= yb) continue;
      const ya = Math.max(0, Math.floor(t0));
      for (let y = ya; y < yb; y++) {
        const cov = y === ya ? Math.min(1, ya + 1 - t0) : 1;
        const u = Math.min(1, (y + 0.5 - t0) / span);
        this.blend(
          y * this.width + x,
          topColor[0] + (bottomColor[0] - topColor[0]) * u,
          topColor[1] + (bottomColor[1] - topColor[1]) * u,
          topColor[2] + (bottomColor[2] - topColor[2]) * u,
          alpha * cov,
        );
      }
    }
  }
}
