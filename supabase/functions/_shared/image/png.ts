// The PNG encoder (untrusted PNGs are decoded by png-decode.ts, with fast-png). It writes 8-bit RGB (or
// RGBA when any pixel is not opaque) with one filter per row, picked by a sampled sum-of-absolute-
// differences estimate, and zlib from node:zlib (measured faster in Deno than CompressionStream('deflate');
// bench/engine-bench.ts prints both). It stays hand-written for determinism, the tEXt label and speed
// (docs/decisions/015-built-in-engine-is-a-procedural-renderer.md).
import { deflateSync } from "node:zlib";
import { crc32 } from "./crc32.ts";

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

export interface EncodePngOptions {
  /** Layout of the input: 4 = RGBA (default), 3 = RGB. */
  channels?: 3 | 4;
  /** tEXt chunks, e.g. { Software: "..." }; non-ASCII characters become '?'. */
  text?: Record<string, string>;
  /** Ready-made ancillary chunks written after the text chunks, e.g. a recipe's (recipe-metadata/png.ts). */
  chunks?: readonly Uint8Array[];
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
  chunks.push(...(options.chunks ?? []));
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
    if (sSub < best) {
      filter = 1;
      best = sSub;
    }
    if (sUp < best) {
      filter = 2;
      best = sUp;
    }
    if (sAvg < best) {
      filter = 3;
      best = sAvg;
    }
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
