// Failures of image decoding are values, not exceptions: callers (the generate function) map each code
// to their own error answer once, at their boundary.
import type { Result } from "../vocabulary/result.ts";

export type ImageErrorCode =
  | "image_invalid_data_url" // not a base64 data URL, or its base64 is malformed
  | "image_too_large" // more bytes, pixels or a longer side than the limits allow
  | "image_not_an_image" // the bytes are no image format at all (text, archives, ...)
  | "image_unsupported_format" // a real image format this decoder does not read (WebP, AVIF, ...)
  | "image_corrupt" // the format is recognised but the data is truncated or inconsistent
  | "image_too_slow"; // decoding ran past its time budget (only where the decode runs off the event loop)

export interface ImageError {
  code: ImageErrorCode;
  message: string;
}

/** The shared Result (../vocabulary/result.ts) with the decoder's error. */
export type ImageResult<T> = Result<T, ImageError>;

export function ok<T>(value: T): ImageResult<T> {
  return { ok: true, value };
}

export function fail<T>(code: ImageErrorCode, message: string): ImageResult<T> {
  return { ok: false, error: { code, message } };
}

/** Decoded pixels, always 8-bit RGBA, row-major, no padding. */
export interface RgbaImage {
  width: number;
  height: number;
  rgba: Uint8Array;
}
