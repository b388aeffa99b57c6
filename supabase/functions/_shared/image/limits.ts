// How much of an untrusted image the decoders accept. Every decoder checks the size its header declares
// against these before it allocates pixel memory, so a small file declaring a huge image is refused cheaply.
import {
  REFERENCE_IMAGE_MAX_BYTES,
  REFERENCE_IMAGE_MAX_PIXELS,
  REFERENCE_IMAGE_MAX_SIDE,
} from "../vocabulary/generation.ts";
import { fail, type ImageResult, ok } from "./result.ts";

export interface PixelLimits {
  /** Longest allowed side, in pixels. */
  maxDimension: number;
  /** Most pixels allowed (width x height). */
  maxPixels: number;
}

export interface DecodeLimits extends PixelLimits {
  /** Largest accepted encoded size, in bytes. */
  maxBytes: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = {
  maxDimension: REFERENCE_IMAGE_MAX_SIDE,
  maxPixels: REFERENCE_IMAGE_MAX_PIXELS,
  maxBytes: REFERENCE_IMAGE_MAX_BYTES,
};

/**
 * How much CPU time decoding one reference image may take where the decode runs off the event loop
 * (the local backend's render processes, generate-image/deps.ts). Hosted Edge Functions give a whole
 * request 2 s of CPU time, so no file that hosted could decode is refused here; the app's references
 * (at most 1024 px a side) decode in a few tens of milliseconds.
 */
export const DECODE_BUDGET_MS = 2_000;

export function checkPixelLimits(width: number, height: number, limits: PixelLimits): ImageResult<true> {
  if (width < 1 || height < 1) return fail("image_corrupt", `the image declares an empty size ${width}x${height}`);
  if (width > limits.maxDimension || height > limits.maxDimension) {
    return fail(
      "image_too_large",
      `the image is ${width}x${height}; the longest side may be ${limits.maxDimension} px`,
    );
  }
  if (width * height > limits.maxPixels) {
    return fail("image_too_large", `the image has ${width * height} pixels; at most ${limits.maxPixels} are allowed`);
  }
  return ok(true);
}
