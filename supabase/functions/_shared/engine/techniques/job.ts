// The contract between the render pipeline and a style technique: a technique gets the planned scene
// and a way to compose it at any size (so it can work at a lower resolution where its look allows),
// and returns the finished canvas at exactly width x height. `detail` (the quality's, see ../quality.ts)
// asks for finer marks and less shrinking where a technique's look would otherwise hide the difference.
import type { Canvas } from "../canvas.ts";
import type { Rng } from "../prng.ts";
import type { Scene } from "../scene.ts";
import type { StyleDef } from "../styles.ts";

export interface Job {
  width: number;
  height: number;
  scene: Scene;
  style: StyleDef;
  /** 1 as designed; above 1 the technique works finer (marks and work sizes divided by it). */
  detail: number;
  /** The technique's own random stream. */
  rng: Rng;
  /** The scene drawn at w x h, with the reference layout and the style's grade applied. */
  compose(w: number, h: number): Canvas;
}

export type Technique = (job: Job) => Canvas;

/** The shorter side: the unit sizes are expressed in. */
export function unit(job: Job): number {
  return Math.min(job.width, job.height);
}

/** A side of the picture a technique works on at 1/`factor` of the size: less reduced at higher detail. */
export function workSide(job: Job, side: number, factor: number): number {
  return Math.max(8, Math.round(side / Math.max(1, factor / job.detail)));
}

/** A mark's size (stroke, dab, hatch spacing, dot cell) as designed, made finer at higher detail. */
export function markSize(job: Job, designed: number): number {
  return designed / job.detail;
}
