// What keep-upscale trusts of an upscaled file before it stores it (decision 158): its bytes are the format
// the request states (PNG, JPEG or WebP; the magic numbers decide, never the declared type), its header is
// whole (a PNG's IHDR passes its CRC, a JPEG's byte count can hold its declared size, a WebP's RIFF length is
// the file's and its frame chunk starts as VP8, VP8L or VP8X must), and it is within the limits below. The
// pixels are not decoded: a 4096² image's decode alone would pass the hosted 2 s CPU budget, and the size
// check needs only the header. The size the header declares is then matched to the original's by the handler.
import { inspectImage } from "../_shared/image/decode.ts";
import type { DecodeLimits } from "../_shared/image/limits.ts";
import { checkPixelLimits } from "../_shared/image/limits.ts";
import { fail, type ImageResult, ok } from "../_shared/image/result.ts";
import { headerSize, sniffImage } from "../_shared/image/sniff.ts";
import { DIMENSIONS } from "../_shared/vocabulary/generation.ts";

/** The largest file kept: the generations bucket's own limit (20 MiB). */
export const UPSCALE_MAX_BYTES = 20 * 1024 * 1024;
const LONGEST_SIDE = Math.max(...Object.values(DIMENSIONS).flatMap((d) => [d.width, d.height]));
const MOST_PIXELS = Math.max(...Object.values(DIMENSIONS).map((d) => d.width * d.height));

/** A 4× upscale of the largest size the engines draw fits; nothing larger is kept. */
export const UPSCALE_LIMITS: DecodeLimits = {
  maxBytes: UPSCALE_MAX_BYTES,
  maxDimension: LONGEST_SIDE * 4,
  maxPixels: MOST_PIXELS * 16,
};

/** The types a kept upscale may be sent as, and the format each names. */
export const UPSCALE_TYPES = { "image/webp": "webp", "image/png": "png", "image/jpeg": "jpeg" } as const;
export type UpscaleType = keyof typeof UPSCALE_TYPES;

export interface CheckedUpscale {
  width: number;
  height: number;
  contentType: UpscaleType;
  extension: "webp" | "png" | "jpg";
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** A WebP's container is whole: its RIFF length is the file's, and its first chunk is a frame as its kind starts. */
function webpIntact(b: Uint8Array): boolean {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return false;
  const riff = u32le(b, 4);
  if (riff + 8 !== b.length && riff + 9 !== b.length) return false;
  const chunk = ascii(b, 12, 4);
  if (u32le(b, 16) + 20 > b.length) return false;
  if (chunk === "VP8 ") return b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a;
  if (chunk === "VP8L") return b[20] === 0x2f;
  return chunk === "VP8X" && u32le(b, 16) === 10;
}

/** The file as the handler may store it, or why it may not (the image vocabulary's codes). */
export function checkUpscaleFile(bytes: Uint8Array, stated: UpscaleType): ImageResult<CheckedUpscale> {
  const format = UPSCALE_TYPES[stated];
  const sniffed = sniffImage(bytes);
  if (!sniffed) return fail("image_not_an_image", "the file is not a PNG, JPEG or WebP image");
  if (sniffed.contentType !== stated) {
    return fail("image_unsupported_format", `the file is ${sniffed.contentType}, not ${stated} as the request states`);
  }
  if (format !== "webp") {
    const inspected = inspectImage(bytes, UPSCALE_LIMITS);
    if (!inspected.ok) return inspected;
    return ok({ ...inspected.value, contentType: stated, extension: sniffed.extension as "png" | "jpg" });
  }
  if (bytes.length > UPSCALE_MAX_BYTES) {
    return fail("image_too_large", `the image is ${bytes.length} bytes; at most ${UPSCALE_MAX_BYTES} are allowed`);
  }
  const size = headerSize(bytes, "webp");
  if (!size || !webpIntact(bytes)) return fail("image_corrupt", "the WebP container or its frame header is damaged");
  const sized = checkPixelLimits(size.width, size.height, UPSCALE_LIMITS);
  if (!sized.ok) return sized;
  return ok({ ...size, contentType: stated, extension: "webp" });
}
