// Reference images that are small on the wire and expensive to decode, within the documented limits
// (4096 px a side, 16 M pixels), so only a decode can tell them apart from a real picture. Shared by the
// functions and local tiers (Deno), the hostile-input suite (Node) and bench/hostile-decode-bench.ts.
import { crc32, deflateSync } from "node:zlib";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/**
 * A black RGBA PNG of `width` x `height` whose image data is complete and of exactly the declared size
 * (no decompression-bomb check refuses it): 4096 x 3900 is 64 MB of pixels in about 62 KB. With
 * `failAtLastRow` its last row names filter type 5, which does not exist, so a decoder does all the
 * work and fails at the very end.
 */
export function pngDeclaringHuge(width = 4096, height = 3900, failAtLastRow = false): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rowBytes = 1 + width * 4;
  const raw = new Uint8Array(rowBytes * height);
  if (failAtLastRow) raw[(height - 1) * rowBytes] = 5;
  const idat = new Uint8Array(deflateSync(raw, { level: 9 }));
  return concat([new Uint8Array(SIGNATURE), chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new Uint8Array())]);
}

/** The same PNG cut off halfway through its image data (no IEND). */
export function pngTruncated(width = 4096, height = 3900): Uint8Array<ArrayBuffer> {
  const whole = pngDeclaringHuge(width, height);
  return whole.slice(0, Math.floor(whole.length / 2));
}

/**
 * A GIF whose screen and only frame declare `width` x `height`, with an LZW stream that ends at once:
 * a decoder allocates the whole frame for a few dozen bytes.
 */
export function gifDeclaringHuge(width = 4096, height = 3900): Uint8Array<ArrayBuffer> {
  const size = [width & 0xff, width >> 8, height & 0xff, height >> 8];
  const head = [...new TextEncoder().encode("GIF89a"), ...size, 0x80, 0, 0];
  const palette = [0, 0, 0, 255, 255, 255];
  const frame = [0x2c, 0, 0, 0, 0, ...size, 0];
  // LZW minimum code size 2; one sub-block holding a clear code and the end code; the trailer.
  return new Uint8Array([...head, ...palette, ...frame, 2, 2, 0x4c, 0x01, 0, 0x3b]);
}

/**
 * A JPEG whose start of frame declares `width` x `height` and whose comment pads it past the fewest
 * bytes that size needs (decode.ts's jpegBytesFloor), with no scan at all: only the decoder can tell.
 */
export function jpegDeclaringHuge(width = 4000, height = 3900): Uint8Array<ArrayBuffer> {
  const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3];
  const components = [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  const padding = Math.min(65_000, Math.ceil((Math.ceil(width / 8) * Math.ceil(height / 8)) / 8) + 1024);
  const comment = [0xff, 0xfe, (padding + 2) >> 8, (padding + 2) & 0xff, ...new Uint8Array(padding).fill(0x20)];
  return new Uint8Array([0xff, 0xd8, ...sof, ...components, ...comment, 0xff, 0xd9]);
}
