// Turns untrusted upload bytes (a reference image sent as a data URL) into RGBA pixels. The format comes
// from the bytes' magic numbers, never from the declared MIME type; the size the header declares is
// checked before any decoder runs, so a small file declaring a huge image is refused cheaply. The
// decoders are kept libraries (fast-png, omggif, jpeg-js); each is told the limits it can enforce itself.
// deno-lint-ignore no-import-prefix -- deployed functions have no package.json to map a bare name
import { decode as decodeJpegData } from "npm:jpeg-js@0.4.4";
import { crc32 } from "./crc32.ts";
import { decodeGif } from "./gif.ts";
import { checkPixelLimits, type DecodeLimits, DEFAULT_DECODE_LIMITS, type PixelLimits } from "./limits.ts";
import { decodePng } from "./png-decode.ts";
import { fail, type ImageResult, ok, type RgbaImage } from "./result.ts";
import { headerSize, sniffFormat } from "./sniff.ts";

export interface DecodedImage extends RgbaImage {
  format: "png" | "jpeg" | "gif";
  /**
   * What the built-in engine reads of the pixels (engine/reference.ts referenceCells), where the decoder
   * answered these instead of the pixels (`rgba` is then empty): the local backend's render processes.
   */
  cells?: Float32Array;
}

export interface InspectedImage {
  format: DecodedImage["format"];
  width: number;
  height: number;
}

/**
 * Everything that can be known about an upload without decoding it: its real format, the size its
 * header declares (within the limits) and whether its byte count can hold that many pixels at all. It
 * reads the header only and allocates nothing, so it may run before the caller is identified; a file
 * it refuses never reaches a decoder.
 */
export function inspectImage(
  bytes: Uint8Array,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): ImageResult<InspectedImage> {
  if (bytes.length > limits.maxBytes) {
    return fail("image_too_large", `the image is ${bytes.length} bytes; at most ${limits.maxBytes} are allowed`);
  }
  const format = sniffFormat(bytes);
  if (format === null) return fail("image_not_an_image", "the file is not an image (its bytes match no image format)");
  if (format !== "png" && format !== "jpeg" && format !== "gif") {
    return fail(
      "image_unsupported_format",
      `${format.toUpperCase()} images cannot be used as a reference; use PNG, JPEG or GIF`,
    );
  }
  // A PNG's header carries a CRC: a damaged one says nothing about the size, so it is checked first.
  if (format === "png" && !pngHeaderIntact(bytes)) {
    return fail("image_corrupt", "PNG header is missing or fails its CRC");
  }
  const size = headerSize(bytes, format);
  if (!size) return fail("image_corrupt", `${format.toUpperCase()} is truncated: its header has no image size`);
  const sized = checkPixelLimits(size.width, size.height, limits);
  if (!sized.ok) return sized;
  if (format === "jpeg" && bytes.length < jpegBytesFloor(size.width, size.height)) {
    return fail(
      "image_corrupt",
      `JPEG declares ${size.width}x${size.height} but its ${bytes.length} bytes cannot hold that many pixels`,
    );
  }
  return ok({ format, ...size });
}

function pngHeaderIntact(bytes: Uint8Array): boolean {
  if (bytes.length < 33) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(8) === 13 && crc32(bytes, 12, 29) === view.getUint32(29);
}

/**
 * The fewest bytes a JPEG the decoder accepts can have for this size. jpeg-js reads Huffman-coded JPEGs
 * only, and there every 8x8 block of every component carries a DC difference of at least one bit (a
 * Huffman code is 1 to 16 bits long), so the luma blocks alone need ceil(w/8) * ceil(h/8) bits. A
 * file below that is truncated or lying about its size; either way it is refused before the decoder
 * allocates the frame's blocks and the output buffer for the declared size.
 */
export function jpegBytesFloor(width: number, height: number): number {
  return Math.ceil((Math.ceil(width / 8) * Math.ceil(height / 8)) / 8);
}

export function decodeImage(
  bytes: Uint8Array,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): ImageResult<DecodedImage> {
  const inspected = inspectImage(bytes, limits);
  if (!inspected.ok) return inspected;
  const { format } = inspected.value;
  // png-decode.ts checks the header again (it is also used alone) and bounds the inflated data.
  if (format === "png") return withFormat(decodePng(bytes, limits), format);
  const { width, height } = inspected.value;
  return withFormat(format === "jpeg" ? decodeJpeg(bytes, width * height, limits) : decodeGif(bytes), format);
}

function withFormat(result: ImageResult<RgbaImage>, format: DecodedImage["format"]): ImageResult<DecodedImage> {
  return result.ok ? ok({ ...result.value, format }) : result;
}

/**
 * What jpeg-js counts against its memory cap, per pixel of the frame, at worst (four full-resolution
 * components): 256 bytes per 8x8 block of each (16), each component's samples (4), the interleaved
 * samples (4) and the RGBA output (4). Tables and markers fit in the fixed allowance.
 */
const JPEG_BYTES_PER_PIXEL = 28;
const JPEG_FIXED_BYTES = 16 * 1024 * 1024;

function decodeJpeg(bytes: Uint8Array, declaredPixels: number, limits: PixelLimits): ImageResult<RgbaImage> {
  try {
    // The cap follows the size the header declared (already within the limits), so every image the
    // limits allow decodes (16 M pixels needs far more than a flat 12 bytes a pixel: such JPEGs were
    // refused as "not an image"), and no file gets more than its own declared size needs.
    const image = decodeJpegData(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: limits.maxPixels / 1_000_000,
      maxMemoryUsageInMB: (declaredPixels * JPEG_BYTES_PER_PIXEL + JPEG_FIXED_BYTES) / (1024 * 1024),
    });
    return ok({ width: image.width, height: image.height, rgba: image.data });
  } catch (e) {
    return fail("image_corrupt", `JPEG does not decode: ${(e as Error).message}`);
  }
}

export interface DataUrlPayload {
  /** The media type the sender declared; informative only, never used to pick a decoder. */
  declaredType: string;
  bytes: Uint8Array;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Splits a `data:<type>;base64,<payload>` URL, checking its base64 and its decoded size. */
export function parseDataUrl(dataUrl: string, maxBytes: number): ImageResult<DataUrlPayload> {
  if (typeof dataUrl !== "string" || !/^data:/i.test(dataUrl)) {
    return fail("image_invalid_data_url", "the reference image must be a data: URL");
  }
  const comma = dataUrl.indexOf(",");
  if (comma < 0) return fail("image_invalid_data_url", "the data URL has no payload");
  const meta = dataUrl
    .slice(5, comma)
    .split(";")
    .map((s) => s.trim());
  if (meta[meta.length - 1].toLowerCase() !== "base64") {
    return fail("image_invalid_data_url", "the data URL must be base64 encoded");
  }
  // Checked on the encoded length first, so an oversize upload is refused before it is scanned.
  const encodedLength = dataUrl.length - comma - 1;
  if (Math.floor((encodedLength * 3) / 4) > maxBytes + 3) {
    return fail("image_too_large", `the reference image exceeds ${maxBytes} bytes`);
  }
  const payload = dataUrl.slice(comma + 1).replace(/[\t\n\f\r ]+/g, "");
  if (payload.length % 4 !== 0) return fail("image_invalid_data_url", "the data URL's base64 is malformed");
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  const size = (payload.length / 4) * 3 - padding;
  if (size > maxBytes) {
    return fail("image_too_large", `the reference image is ${size} bytes; at most ${maxBytes} are allowed`);
  }
  if (size === 0) return fail("image_invalid_data_url", "the data URL is empty");
  const bytes = fromBase64(payload);
  if (!bytes) return fail("image_invalid_data_url", "the data URL's base64 is malformed");
  return ok({ declaredType: meta[0].toLowerCase(), bytes });
}

type NativeFromBase64 = (s: string, options: { lastChunkHandling: "strict" }) => Uint8Array;

/**
 * Strict base64 (padded, no stray characters) to bytes; null when malformed. This runs on the caller's
 * request before anything else, so it must be quick: where the runtime has Uint8Array.fromBase64 (the
 * local backend's Deno has) it checks and decodes 4 MB in a few milliseconds; the regular expression and
 * atob it falls back on elsewhere take 50 ms and more of the event loop for the same.
 */
function fromBase64(payload: string): Uint8Array | null {
  const native = (Uint8Array as unknown as { fromBase64?: NativeFromBase64 }).fromBase64;
  if (native) {
    try {
      return native(payload, { lastChunkHandling: "strict" });
    } catch {
      return null;
    }
  }
  if (!BASE64.test(payload)) return null;
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
