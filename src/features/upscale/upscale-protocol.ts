// The messages between the page and the upscale worker (upscale-worker.ts), and the recipe an upscaled
// file carries. One job at a time: the page sends "upscale", the worker answers "started" (with the
// backend it runs on), then "progress" after each patch, then "done" with the PNG, or "failed"; "cancel"
// stops the job between two patches and is answered "cancelled".
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { fileNameFor, type ExportFormat } from "../../lib/image-export";
import { modelName, type BackendName, type ModelSize, type UpscaleScale } from "./upscale-models";

export type UpscaleRequest =
  | {
      type: "upscale";
      job: number;
      image: Blob;
      scale: UpscaleScale;
      /** Defaults to the scale's model (MODEL_FOR_SCALE); the benchmark asks for each. */
      model?: ModelSize;
      /** Defaults to the fastest the browser has; the benchmark asks for each. */
      backend?: BackendName;
    }
  | { type: "cancel"; job: number };

export type UpscaleAnswer =
  | { type: "started"; job: number; backend: BackendName; model: ModelSize }
  | { type: "progress"; job: number; done: number }
  | { type: "done"; job: number; image: Blob; width: number; height: number; ms: number }
  | { type: "cancelled"; job: number }
  | { type: "failed"; job: number; message: string };

export type UpscaleNote = { scale: UpscaleScale; model: string };

/** The recipe with the upscale noted; the drawn size stays (it is what makes the picture again). */
export function upscaledRecipe(
  recipe: ImageRecipe,
  scale: UpscaleScale,
  model: ModelSize,
): ImageRecipe & {
  upscale: UpscaleNote;
} {
  return { ...recipe, upscale: { scale, model: modelName({ size: model }) } };
}

/** `a-red-fox-2x.png`: the download's name says it is the upscaled copy. */
export function upscaledFileName(prompt: string, scale: UpscaleScale, format: ExportFormat): string {
  return fileNameFor(prompt, format).replace(/\.[a-z]+$/, `-${scale}x.${format}`);
}

/** A progress fraction (0..1, from the worker) as a whole percent for the bar and its label. */
export function percent(done: number): number {
  if (!Number.isFinite(done)) return 0;
  return Math.round(Math.min(1, Math.max(0, done)) * 100);
}
