// PNG decoding with fast-png, behind two guards fast-png does not have: the header's size is checked
// against the limits before anything is inflated, and the image data must not inflate past what that
// size needs (a decompression bomb), checked with zlib's output cap before fast-png inflates it unbounded.
// fast-png yields samples at the file's depth; they are converted to 8-bit RGBA here.
// deno-lint-ignore no-import-prefix -- deployed functions have no package.json to map a bare name
import { decode, type DecodedPng } from "npm:fast-png@8.0.0";
import { constants, inflateSync } from "node:zlib";
import { crc32 } from "./crc32.ts";
import { checkPixelLimits, type PixelLimits } from "./limits.ts";
import { fail, type ImageResult, ok, type RgbaImage } from "./result.ts";

/** Samples per pixel by colour type (grey, -, RGB, palette, grey+alpha, -, RGBA). */
const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface Header {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlaced: boolean;
}

/** Walks the chunks: a valid IHDR first, within the limits, and the concatenated image data. */
function readStructure(bytes: Uint8Array, limits: PixelLimits): ImageResult<{ header: Header; idat: Uint8Array }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 33 || view.getUint32(8) !== 13 || crc32(bytes, 12, 29) !== view.getUint32(29)) {
    return fail("image_corrupt", "PNG header is missing or fails its CRC");
  }
  const header: Header = {
    width: view.getUint32(16),
    height: view.getUint32(20),
    depth: bytes[24],
    colorType: bytes[25],
    interlaced: bytes[28] === 1,
  };
  if (!SAMPLES[header.colorType]) return fail("image_corrupt", `PNG colour type ${header.colorType} is invalid`);
  const sized = checkPixelLimits(header.width, header.height, limits);
  if (!sized.ok) return sized;
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let at = 33; at + 12 <= bytes.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const end = at + 8 + length;
    if (end + 4 > bytes.length) return fail("image_corrupt", `PNG chunk ${type} runs past the end`);
    if (type === "IDAT") {
      parts.push(bytes.subarray(at + 8, end));
      total += length;
    }
    if (type === "IEND") break;
    at = end + 4;
  }
  if (parts.length === 0) return fail("image_corrupt", "PNG is truncated: it has no image data");
  const idat = new Uint8Array(total);
  parts.reduce((offset, p) => (idat.set(p, offset), offset + p.length), 0);
  return ok({ header, idat });
}

/** Bytes the image data must inflate to: each row (of each Adam7 pass) plus its filter byte. */
function inflatedSize(h: Header): number {
  const bitsPerPixel = h.depth * SAMPLES[h.colorType];
  const passes = h.interlaced ?
    [
      [0, 0, 8, 8],
      [4, 0, 8, 8],
      [0, 4, 4, 8],
      [2, 0, 4, 4],
      [0, 2, 2, 4],
      [1, 0, 2, 2],
      [0, 1, 1, 2],
    ] :
    [[0, 0, 1, 1]];
  let size = 0;
  for (const [xs, ys, dx, dy] of passes) {
    const pw = Math.ceil((h.width - xs) / dx),
      ph = Math.ceil((h.height - ys) / dy);
    if (pw > 0 && ph > 0) size += ph * (1 + Math.ceil((pw * bitsPerPixel) / 8));
  }
  return size;
}

export function decodePng(bytes: Uint8Array, limits: PixelLimits): ImageResult<RgbaImage> {
  const structure = readStructure(bytes, limits);
  if (!structure.ok) return structure;
  const { header, idat } = structure.value;
  try {
    // Throws once the output would pass the cap; the inflated copy is dropped (fast-png inflates again).
    inflateSync(idat, { maxOutputLength: inflatedSize(header), finishFlush: constants.Z_SYNC_FLUSH });
  } catch (e) {
    return fail("image_corrupt", `PNG image data does not inflate to its declared size: ${(e as Error).message}`);
  }
  let png: DecodedPng;
  try {
    png = decode(bytes, { checkCrc: true });
  } catch (e) {
    return fail("image_corrupt", `PNG does not decode: ${(e as Error).message}`);
  }
  return toRgba(png);
}

/** 8-bit RGBA from fast-png's samples: packed sub-byte rows, 16-bit samples, palettes and tRNS keys. */
function toRgba(png: DecodedPng): ImageResult<RgbaImage> {
  const { width, height, depth, channels, data, palette, transparency } = png;
  const max = (1 << depth) - 1;
  const rowSamples = width * channels;
  const rowBytes = Math.ceil((rowSamples * depth) / 8);
  const sample = (y: number, k: number): number => {
    if (depth >= 8) return data[y * rowSamples + k];
    const bit = k * depth;
    return (data[y * rowBytes + (bit >> 3)] >> (8 - depth - (bit & 7))) & max;
  };
  const to8 = (v: number) => (depth === 16 ? v >> 8 : depth === 8 ? v : Math.round((v * 255) / max));
  const key = transparency && !palette ? transparency : null;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 4) {
      const k = x * channels;
      if (palette) {
        const entry = palette[sample(y, k)];
        if (!entry) return fail("image_corrupt", "PNG pixel refers past the end of its palette");
        rgba[o] = entry[0];
        rgba[o + 1] = entry[1];
        rgba[o + 2] = entry[2];
        rgba[o + 3] = entry[3] ?? 255;
      } else if (channels <= 2) {
        const v = sample(y, k);
        rgba[o] = rgba[o + 1] = rgba[o + 2] = to8(v);
        rgba[o + 3] = channels === 2 ? to8(sample(y, k + 1)) : key && v === key[0] ? 0 : 255;
      } else {
        const r = sample(y, k),
          g = sample(y, k + 1),
          b = sample(y, k + 2);
        rgba[o] = to8(r);
        rgba[o + 1] = to8(g);
        rgba[o + 2] = to8(b);
        const keyed = key !== null && key.length >= 3 && r === key[0] && g === key[1] && b === key[2];
        rgba[o + 3] = channels === 4 ? to8(sample(y, k + 3)) : keyed ? 0 : 255;
      }
    }
  }
  return ok({ width, height, rgba });
}
