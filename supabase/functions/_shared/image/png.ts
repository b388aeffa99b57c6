// PNG in and out. The encoder writes 8-bit RGB (or RGBA when any pixel is not opaque) with one filter
// per row, picked by a sampled sum-of-absolute-differences estimate, and zlib from node:zlib (measured
// faster in Deno than CompressionStream('deflate'); bench/engine-bench.ts prints both). The decoder reads
// every colour type and bit depth of the PNG spec, Adam7 interlacing included, and always yields RGBA.
import { constants, deflateSync, inflateSync } from "node:zlib";
import { crc32 } from "./crc32.ts";
import { fail, type ImageResult, ok, type RgbaImage } from "./result.ts";

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

export interface EncodePngOptions {
  /** Layout of the input: 4 = RGBA (default), 3 = RGB. */
  channels?: 3 | 4;
  /** tEXt chunks, e.g. { Software: "..." }; non-ASCII characters become '?'. */
  text?: Record<string, string>;
  /** zlib level 0-9; 4 is within 1% of level 6 in size for rendered images at two thirds of the time. */
  compressionLevel?: number;
}

export function encodePng(
  pixels: Uint8Array,
  width: number,
  height: number,
  options: EncodePngOptions = {},
): Promise<Uint8Array> {
  const inChannels = options.channels ?? 4;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    return Promise.reject(new RangeError(`PNG size must be positive integers, got ${width}x${height}`));
  }
  if (pixels.length !== width * height * inChannels) {
    return Promise.reject(new RangeError(`expected ${width * height * inChannels} bytes, got ${pixels.length}`));
  }
  const outChannels = inChannels === 4 && !isOpaque(pixels) ? 4 : 3;
  const scanlines = filterScanlines(pixels, width, height, inChannels, outChannels);
  const idat = deflateSync(scanlines, { level: options.compressionLevel ?? 4 });

  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = outChannels === 4 ? 6 : 2;
  const chunks = [chunk("IHDR", ihdr)];
  for (const [key, value] of Object.entries(options.text ?? {})) chunks.push(chunk("tEXt", textPayload(key, value)));
  chunks.push(chunk("IDAT", idat), chunk("IEND", new Uint8Array(0)));

  const out = new Uint8Array(8 + chunks.reduce((n, c) => n + c.length, 0));
  out.set(SIGNATURE, 0);
  let at = 8;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return Promise.resolve(out);
}

function isOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

/**
 * The filtered image data (one filter-type byte before each row) that goes into zlib. Exported so the
 * benchmark can compare compressors on exactly what the encoder compresses.
 */
export function filterScanlines(
  pixels: Uint8Array,
  width: number,
  height: number,
  inChannels: 3 | 4,
  outChannels: 3 | 4,
): Uint8Array {
  const bpp = outChannels;
  const rowLen = width * outChannels;
  const out = new Uint8Array((rowLen + 1) * height);
  const zero = new Uint8Array(rowLen);
  const rowA = new Uint8Array(rowLen);
  const rowB = new Uint8Array(rowLen);
  let prev: Uint8Array = zero;
  // Sampling every 7th byte keeps the estimate honest across channels (7 is coprime to 3 and 4).
  const step = 7;
  for (let y = 0; y < height; y++) {
    let cur: Uint8Array;
    if (inChannels === outChannels) {
      cur = pixels.subarray(y * rowLen, (y + 1) * rowLen);
    } else {
      cur = y & 1 ? rowB : rowA;
      for (let x = 0, s = y * width * 4, d = 0; x < width; x++, s += 4, d += 3) {
        cur[d] = pixels[s];
        cur[d + 1] = pixels[s + 1];
        cur[d + 2] = pixels[s + 2];
      }
    }
    let sNone = 0,
      sSub = 0,
      sUp = 0,
      sAvg = 0,
      sPaeth = 0;
    for (let i = 0; i < rowLen; i += step) {
      const x = cur[i];
      const a = i >= bpp ? cur[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      sNone += signedAbs(x);
      sSub += signedAbs(x - a);
      sUp += signedAbs(x - b);
      sAvg += signedAbs(x - ((a + b) >> 1));
      sPaeth += signedAbs(x - paeth(a, b, c));
    }
    let filter = 0,
      best = sNone;
    if (sSub < best) ((filter = 1), (best = sSub));
    if (sUp < best) ((filter = 2), (best = sUp));
    if (sAvg < best) ((filter = 3), (best = sAvg));
    if (sPaeth < best) filter = 4;

    const o = y * (rowLen + 1);
    out[o] = filter;
    const d = o + 1;
    switch (filter) {
      case 0:
        out.set(cur, d);
        break;
      case 1:
        for (let i = 0; i < rowLen; i++) out[d + i] = cur[i] - (i >= bpp ? cur[i - bpp] : 0);
        break;
      case 2:
        for (let i = 0; i < rowLen; i++) out[d + i] = cur[i] - prev[i];
        break;
      case 3:
        for (let i = 0; i < rowLen; i++) out[d + i] = cur[i] - (((i >= bpp ? cur[i - bpp] : 0) + prev[i]) >> 1);
        break;
      default:
        for (let i = 0; i < rowLen; i++) {
          const a = i >= bpp ? cur[i - bpp] : 0;
          const c = i >= bpp ? prev[i - bpp] : 0;
          out[d + i] = cur[i] - paeth(a, prev[i], c);
        }
    }
    prev = cur;
  }
  return out;
}

function signedAbs(d: number): number {
  const v = d & 0xff;
  return v < 128 ? v : 256 - v;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a),
    pb = Math.abs(p - b),
    pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

function textPayload(key: string, value: string): Uint8Array {
  const ascii = (s: string) => Array.from(s, (ch) => (ch.charCodeAt(0) < 128 ? ch.charCodeAt(0) : 63));
  const keyword = ascii(key).slice(0, 79);
  return new Uint8Array([...keyword, 0, ...ascii(value)]);
}

// ---------------------------------------------------------------------------------------------------
// Decoding

export interface PixelLimits {
  /** Longest allowed side, in pixels. */
  maxDimension: number;
  /** Most pixels allowed (width x height). */
  maxPixels: number;
}

export const DEFAULT_PIXEL_LIMITS: PixelLimits = { maxDimension: 4096, maxPixels: 16_000_000 };

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

const ALLOWED_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
// Adam7 passes: x start, y start, x step, y step.
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

interface Header {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlaced: boolean;
}

export function decodePng(bytes: Uint8Array, limits: PixelLimits = DEFAULT_PIXEL_LIMITS): ImageResult<RgbaImage> {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) return fail("image_corrupt", "not a PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: Header | null = null;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  let at = 8;
  let ended = false;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]);
    const end = at + 8 + length;
    if (length > 0x7fffffff || end + 4 > bytes.length) {
      return fail("image_corrupt", `PNG chunk ${type} runs past the end`);
    }
    if (crc32(bytes, at + 4, end) !== view.getUint32(end)) {
      return fail("image_corrupt", `PNG chunk ${type} fails its CRC`);
    }
    const data = bytes.subarray(at + 8, end);
    if (header === null && type !== "IHDR") return fail("image_corrupt", "PNG does not start with IHDR");
    if (type === "IHDR") {
      if (length !== 13) return fail("image_corrupt", "PNG IHDR has the wrong length");
      const d = new DataView(data.buffer, data.byteOffset, 13);
      header = {
        width: d.getUint32(0),
        height: d.getUint32(4),
        depth: data[8],
        colorType: data[9],
        interlaced: data[12] === 1,
      };
      if (
        !ALLOWED_DEPTHS[header.colorType]?.includes(header.depth) ||
        data[10] !== 0 ||
        data[11] !== 0 ||
        data[12] > 1
      ) {
        return fail("image_corrupt", `PNG header is invalid (colour type ${header.colorType}, depth ${header.depth})`);
      }
      const sized = checkPixelLimits(header.width, header.height, limits);
      if (!sized.ok) return sized;
    } else if (type === "PLTE") palette = data;
    else if (type === "tRNS") trns = data;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") {
      ended = true;
      break;
    }
    at = end + 4;
  }
  if (!header) return fail("image_corrupt", "PNG has no header");
  if (!ended && idat.length === 0) return fail("image_corrupt", "PNG is truncated");
  if (header.colorType === 3 && !palette) return fail("image_corrupt", "palette PNG without a PLTE chunk");

  const passes = header.interlaced ? ADAM7 : [[0, 0, 1, 1]];
  const bitsPerPixel = header.depth * SAMPLES[header.colorType];
  let expected = 0;
  for (const [xs, ys, dx, dy] of passes) {
    const pw = Math.ceil((header.width - xs) / dx),
      ph = Math.ceil((header.height - ys) / dy);
    if (pw > 0 && ph > 0) expected += ph * (1 + Math.ceil((pw * bitsPerPixel) / 8));
  }
  let raw: Uint8Array;
  try {
    raw = inflateSync(concat(idat), { maxOutputLength: expected, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (e) {
    return fail("image_corrupt", `PNG image data does not inflate: ${(e as Error).message}`);
  }
  if (raw.length < expected) return fail("image_corrupt", "PNG image data is truncated");

  const rgba = new Uint8Array(header.width * header.height * 4);
  let offset = 0;
  for (const [xs, ys, dx, dy] of passes) {
    const pw = Math.ceil((header.width - xs) / dx),
      ph = Math.ceil((header.height - ys) / dy);
    if (pw <= 0 || ph <= 0) continue;
    const rowBytes = Math.ceil((pw * bitsPerPixel) / 8);
    const bpp = Math.max(1, bitsPerPixel >> 3);
    let prev: Uint8Array = new Uint8Array(rowBytes);
    for (let j = 0; j < ph; j++) {
      const filter = raw[offset];
      const row = raw.subarray(offset + 1, offset + 1 + rowBytes);
      if (!unfilter(filter, row, prev, bpp)) return fail("image_corrupt", `PNG row uses unknown filter ${filter}`);
      writeRow(header, row, pw, xs, ys + j * dy, dx, palette, trns, rgba);
      prev = row;
      offset += 1 + rowBytes;
    }
  }
  return ok({ width: header.width, height: header.height, rgba });
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

function unfilter(filter: number, row: Uint8Array, prev: Uint8Array, bpp: number): boolean {
  const n = row.length;
  switch (filter) {
    case 0:
      return true;
    case 1:
      for (let i = bpp; i < n; i++) row[i] = row[i] + row[i - bpp];
      return true;
    case 2:
      for (let i = 0; i < n; i++) row[i] = row[i] + prev[i];
      return true;
    case 3:
      for (let i = 0; i < n; i++) row[i] = row[i] + (((i >= bpp ? row[i - bpp] : 0) + prev[i]) >> 1);
      return true;
    case 4:
      for (let i = 0; i < n; i++) {
        row[i] = row[i] + paeth(i >= bpp ? row[i - bpp] : 0, prev[i], i >= bpp ? prev[i - bpp] : 0);
      }
      return true;
    default:
      return false;
  }
}

/** Converts one unfiltered row (of a pass) to RGBA pixels at x = xs + i * dx on output row y. */
function writeRow(
  h: Header,
  row: Uint8Array,
  count: number,
  xs: number,
  y: number,
  dx: number,
  palette: Uint8Array | null,
  trns: Uint8Array | null,
  out: Uint8Array,
): void {
  const { depth, colorType } = h;
  const samples = SAMPLES[colorType];
  const max = (1 << depth) - 1;
  // Reads sample s of pixel i at the row's native depth (16-bit samples as 0..65535).
  const sample = (i: number, s: number): number => {
    if (depth === 8) return row[i * samples + s];
    if (depth === 16) {
      const k = (i * samples + s) * 2;
      return (row[k] << 8) | row[k + 1];
    }
    const bit = i * depth;
    return (row[bit >> 3] >> (8 - depth - (bit & 7))) & max;
  };
  const to8 = (v: number) => (depth === 16 ? v >> 8 : depth === 8 ? v : Math.round((v * 255) / max));
  const keyGrey = trns && colorType === 0 && trns.length >= 2 ? (trns[0] << 8) | trns[1] : -1;
  const keyRgb =
    trns && colorType === 2 && trns.length >= 6
      ? [(trns[0] << 8) | trns[1], (trns[2] << 8) | trns[3], (trns[4] << 8) | trns[5]]
      : null;
  let o = (y * h.width + xs) * 4;
  const step = dx * 4;
  for (let i = 0; i < count; i++, o += step) {
    switch (colorType) {
      case 0: {
        const v = sample(i, 0);
        const g = to8(v);
        out[o] = out[o + 1] = out[o + 2] = g;
        out[o + 3] = v === keyGrey ? 0 : 255;
        break;
      }
      case 2: {
        const r = sample(i, 0),
          g = sample(i, 1),
          b = sample(i, 2);
        out[o] = to8(r);
        out[o + 1] = to8(g);
        out[o + 2] = to8(b);
        out[o + 3] = keyRgb && r === keyRgb[0] && g === keyRgb[1] && b === keyRgb[2] ? 0 : 255;
        break;
      }
      case 3: {
        const p = sample(i, 0);
        const k = p * 3;
        const inRange = palette !== null && k + 2 < palette.length;
        out[o] = inRange ? palette![k] : 0;
        out[o + 1] = inRange ? palette![k + 1] : 0;
        out[o + 2] = inRange ? palette![k + 2] : 0;
        out[o + 3] = trns && p < trns.length ? trns[p] : 255;
        break;
      }
      case 4: {
        const g = to8(sample(i, 0));
        out[o] = out[o + 1] = out[o + 2] = g;
        out[o + 3] = to8(sample(i, 1));
        break;
      }
      default:
        out[o] = to8(sample(i, 0));
        out[o + 1] = to8(sample(i, 1));
        out[o + 2] = to8(sample(i, 2));
        out[o + 3] = to8(sample(i, 3));
    }
  }
}
