// The contract between the render pipeline and a style technique: a technique gets the planned scene
// and a way to compose it at any size (so it can work at a lower resolution where its look allows),
// and returns the finished canvas at exactly width x height.
import type { Canvas } from "../canvas.ts";
import type { Rng } from "../prng.ts";
import type { Scene } from "../scene.ts";
import type { StyleDef } from "../styles.ts";

export interface Job {
  width: number;
  height: number;
  scene: Scene;
  style: StyleDef;
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
