// What each quality of the vocabulary (standard, high, ultra) changes in the built-in renderer. Standard is
// the renderer as it was designed (its images are unchanged); high adds finer noise, finer marks and a
// fine sharpening pass; ultra also draws the scene at twice the size and averages it down, and its marks
// are finer still. None of it
// touches the plan: the same seed lays out the same scene at every quality, only drawn finer.
import type { Quality } from "../vocabulary/generation.ts";

export interface QualityPlan {
  quality: Quality;
  /** Scene pixels per technique pixel along each side: the scene is drawn this much larger, then box-averaged. */
  supersample: 1 | 2;
  /** Octaves of the scene's 256-texel noise texture: 5 reaches cells of 4 texels, 7 reaches single texels. */
  noiseOctaves: number;
  /**
   * How much finer than designed a technique lays its own marks (strokes, dabs, hatching, dots, pixel
   * cells) and how much less it shrinks the picture it works on; 1 is as designed.
   */
  detail: number;
  /** Strength of an unsharp mask of radius 1 px over the finished picture (0: none). */
  clarity: number;
}

const PLANS: Readonly<Record<Quality, Omit<QualityPlan, "quality">>> = {
  standard: { supersample: 1, noiseOctaves: 5, detail: 1, clarity: 0 },
  high: { supersample: 1, noiseOctaves: 7, detail: 1.5, clarity: 0.35 },
  ultra: { supersample: 2, noiseOctaves: 7, detail: 2, clarity: 0.5 },
};

/**
 * Most pixels a supersampled scene may have: the product's largest size (1536 x 1024) at 2x is 6.3 M.
 * Larger scenes (only benchmarks and tests ask for them) are drawn at 1x, so memory stays bounded: a
 * canvas is 13 bytes a pixel.
 */
export const SUPERSAMPLED_MAX_PIXELS = 8_000_000;

/** Styles whose look is exact flat colour, where sharpening would ring at every edge. */
const NO_CLARITY: ReadonlySet<string> = new Set(["pixel-art", "minimalist"]);

export function qualityPlan(quality: Quality, style: string): QualityPlan {
  return { quality, ...PLANS[quality], clarity: NO_CLARITY.has(style) ? 0 : PLANS[quality].clarity };
}
