// What every motif drawer gets: the canvas, the planned scene, its palette, the canvas size in pixels
// (U is the shorter side, the unit motifs are sized in), the horizon row and the motif's own random
// stream.
import type { Canvas } from "../canvas.ts";
import type { ScenePalette } from "../palette.ts";
import { Rng } from "../prng.ts";
import type { Scene } from "../scene.ts";

export interface Draw {
  c: Canvas;
  s: Scene;
  p: ScenePalette;
  W: number;
  H: number;
  U: number;
  /** Horizon row in pixels (H when there is no ground). */
  hy: number;
  rng: Rng;
}

export function drawContext(c: Canvas, s: Scene, motif: string): Draw {
  return {
    c,
    s,
    p: s.palette,
    W: c.width,
    H: c.height,
    U: Math.min(c.width, c.height),
    hy: Math.round(s.horizon * c.height),
    rng: new Rng(s.seed).fork(motif),
  };
}

/** Where ground-standing subjects put their feet, by depth 0 (horizon) .. 1 (bottom edge). */
export function groundY(d: Draw, depth: number): number {
  return d.s.horizon >= 1 ? d.H * (0.55 + 0.35 * depth) : d.hy + (d.H - d.hy) * depth;
}
