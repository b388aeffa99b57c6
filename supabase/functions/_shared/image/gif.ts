// GIF decoding, first frame only (a reference image is a still): LZW, local or global colour table,
// interlaced rows and the graphic-control transparency index. Pixels outside the frame stay transparent.
import { fail, type ImageResult, ok, type RgbaImage } from "./result.ts";
import { checkPixelLimits, type PixelLimits } from "./png.ts";

export function decodeGif(bytes: Uint8Array, limits: PixelLimits): ImageResult<RgbaImage> {
  if (bytes.length < 13) return fail("image_corrupt", "GIF is truncated");
  const u16 = (at: number) => bytes[at] | (bytes[at + 1] << 8);
  const width = u16(6),
    height = u16(8);
  const sized = checkPixelLimits(width, height, limits);
  if (!sized.ok) return sized;
  let at = 13;
  let globalTable: Uint8Array | null = null;
  if (bytes[10] & 0x80) {
    const size = 3 * (2 << (bytes[10] & 7));
    globalTable = bytes.subarray(at, at + size);
    at += size;
  }
  let transparent = -1;
  while (at < bytes.length) {
    const block = bytes[at++];
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = bytes[at++];
      if (label === 0xf9 && bytes[at] >= 4 && bytes[at + 1] & 1) transparent = bytes[at + 4];
      at = skipSubBlocks(bytes, at);
      continue;
    }
    if (block !== 0x2c) return fail("image_corrupt", `GIF has an unknown block 0x${block.toString(16)}`);
    if (at + 9 > bytes.length) return fail("image_corrupt", "GIF image descriptor is truncated");
    const left = u16(at),
      top = u16(at + 2),
      fw = u16(at + 4),
      fh = u16(at + 6),
      flags = bytes[at + 8];
    at += 9;
    let table = globalTable;
    if (flags & 0x80) {
      const size = 3 * (2 << (flags & 7));
      table = bytes.subarray(at, at + size);
      at += size;
    }
    if (!table) return fail("image_corrupt", "GIF frame has no colour table");
    const minCodeSize = bytes[at++];
    if (minCodeSize < 2 || minCodeSize > 11) return fail("image_corrupt", "GIF has an invalid LZW code size");
    const dataEnd = skipSubBlocks(bytes, at);
    const data = new Uint8Array(dataEnd - at);
    let n = 0;
    for (let p = at; p < dataEnd - 1;) {
      const len = bytes[p++];
      data.set(bytes.subarray(p, p + len), n);
      n += len;
      p += len;
    }
    const indices = lzwDecode(minCodeSize, data.subarray(0, n), fw * fh);
    if (!indices) return fail("image_corrupt", "GIF image data is corrupt");
    const rgba = new Uint8Array(width * height * 4);
    const rows = flags & 0x40 ? interlacedRows(fh) : null;
    for (let j = 0; j < fh; j++) {
      const y = top + (rows ? rows[j] : j);
      if (y >= height) continue;
      for (let i = 0; i < fw; i++) {
        const x = left + i;
        const p = indices[j * fw + i];
        if (x >= width || p === transparent || p * 3 + 2 >= table.length) continue;
        const o = (y * width + x) * 4;
        rgba[o] = table[p * 3];
        rgba[o + 1] = table[p * 3 + 1];
        rgba[o + 2] = table[p * 3 + 2];
        rgba[o + 3] = 255;
      }
    }
    return ok({ width, height, rgba });
  }
  return fail("image_corrupt", "GIF has no image frame");
}

function skipSubBlocks(bytes: Uint8Array, at: number): number {
  while (at < bytes.length) {
    const len = bytes[at++];
    if (len === 0) return at;
    at += len;
  }
  return bytes.length;
}

/** Row order of an interlaced frame: stored row j is image row rows[j]. */
function interlacedRows(h: number): Uint32Array {
  const rows = new Uint32Array(h);
  let j = 0;
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ])
    for (let y = start; y < h; y += step) rows[j++] = y;
  return rows;
}

function lzwDecode(minCodeSize: number, data: Uint8Array, count: number): Uint8Array | null {
  const out = new Uint8Array(count);
  const prefix = new Uint16Array(4096);
  const suffix = new Uint8Array(4096);
  const stack = new Uint8Array(4097);
  const clear = 1 << minCodeSize,
    eoi = clear + 1;
  for (let i = 0; i < clear; i++) suffix[i] = i;
  let codeSize = minCodeSize + 1,
    next = eoi + 1,
    old = -1,
    first = 0;
  let bits = 0,
    bitCount = 0,
    pos = 0,
    n = 0;
  while (n < count) {
    while (bitCount < codeSize && pos < data.length) {
      bits |= data[pos++] << bitCount;
      bitCount += 8;
    }
    if (bitCount < codeSize) break;
    let code = bits & ((1 << codeSize) - 1);
    bits >>>= codeSize;
    bitCount -= codeSize;
    if (code === clear) {
      codeSize = minCodeSize + 1;
      next = eoi + 1;
      old = -1;
      continue;
    }
    if (code === eoi) break;
    if (old === -1) {
      if (code >= clear) return null;
      out[n++] = first = suffix[code];
      old = code;
      continue;
    }
    const incoming = code;
    let sp = 0;
    if (code >= next) {
      if (code > next) return null;
      stack[sp++] = first;
      code = old;
    }
    while (code > eoi) {
      stack[sp++] = suffix[code];
      code = prefix[code];
    }
    first = suffix[code];
    stack[sp++] = first;
    while (sp > 0 && n < count) out[n++] = stack[--sp];
    if (next < 4096) {
      prefix[next] = old;
      suffix[next] = first;
      next++;
      if (next === 1 << codeSize && codeSize < 12) codeSize++;
    }
    old = incoming;
  }
  return out;
}
