// Turns untrusted upload bytes (a reference image sent as a data URL) into RGBA pixels. The format comes
// from the bytes' magic numbers, never from the declared MIME type; the size the header declares is
// checked before any decoder runs, so a small file declaring a huge image is refused cheaply. The
// decoders are kept libraries (fast-png, omggif, jpeg-js); each is told the limits it can enforce itself.
// deno-lint-ignore no-import-prefix -- deployed functions have no package.json to map a bare name
import { decode as decodeJpegData } from "npm:jpeg-js@0.4.4";
import { decodeGif } from "./gif.ts";
import { checkPixelLimits, DEFAULT_DECODE_LIMITS, type DecodeLimits, type PixelLimits } from "./limits.ts";
import { decodePng } from "./png-decode.ts";
import { fail, type ImageResult, ok, type RgbaImage } from "./result.ts";
import { headerSize, sniffFormat } from "./sniff.ts";

export interface DecodedImage extends RgbaImage {
  format: "png" | "jpeg" | "gif";
}

export function decodeImage(
  bytes: Uint8Array,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): ImageResult<DecodedImage> {
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
  // A PNG header carries a CRC: png-decode.ts checks it, then the size, before it inflates anything.
  if (format === "png") return withFormat(decodePng(bytes, limits), format);
  const size = headerSize(bytes, format);
  if (!size) return fail("image_corrupt", `${format.toUpperCase()} is truncated: its header has no image size`);
  const sized = checkPixelLimits(size.width, size.height, limits);
  if (!sized.ok) return sized;
  return withFormat(format === "jpeg" ? decodeJpeg(bytes, limits) : decodeGif(bytes), format);
}

function withFormat(result: ImageResult<RgbaImage>, format: DecodedImage["format"]): ImageResult<DecodedImage> {
  return result.ok ? ok({ ...result.value, format }) : result;
}

function decodeJpeg(bytes: Uint8Array, limits: PixelLimits): ImageResult<RgbaImage> {
  try {
    const image = decodeJpegData(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: limits.maxPixels / 1_000_000,
      maxMemoryUsageInMB: Math.ceil((limits.maxPixels * 12) / 1_000_000) + 64,
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
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) {
    return fail("image_invalid_data_url", "the data URL's base64 is malformed");
  }
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  const size = (payload.length / 4) * 3 - padding;
  if (size > maxBytes) {
    return fail("image_too_large", `the reference image is ${size} bytes; at most ${maxBytes} are allowed`);
  }
  if (size === 0) return fail("image_invalid_data_url", "the data URL is empty");
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return ok({ declaredType: meta[0].toLowerCase(), bytes });
}
