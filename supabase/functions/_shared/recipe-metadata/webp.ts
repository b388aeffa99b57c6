// The recipe in a WebP: an "XMP " chunk with the XMP packet (xmp.ts), which only the extended format
// carries. An extended file (VP8X) gets its XMP flag set; a simple lossy ("VP8 ") or lossless ("VP8L")
// file is turned into an extended one: a VP8X chunk first, with the canvas size read from the bitstream's
// header and the alpha flag of a lossless image that uses alpha, then the image chunk as it was. The RIFF
// size is written anew; the compressed image is never touched.
import { ascii, concat, fromUtf8, u16le, u32le, utf8 } from "./bytes.ts";
import type { ImageRecipe } from "./recipe.ts";
import { recipeFromXmp, recipeXmp } from "./xmp.ts";

const XMP_FLAG = 0x04;
const ALPHA_FLAG = 0x10;
/** Chunks the extended format orders before XMP: the recipe goes after the last of them. */
const BEFORE_XMP = new Set(["VP8X", "ICCP", "ANIM", "ANMF", "ALPH", "VP8 ", "VP8L", "EXIF"]);

interface Chunk {
  fourcc: string;
  /** The whole chunk: header, payload and padding. */
  start: number;
  end: number;
  data: number;
  size: number;
}

export function isWebp(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP";
}

/** The chunks inside the RIFF container, or null when they do not fit in it. */
function chunksOf(webp: Uint8Array): Chunk[] | null {
  if (!isWebp(webp)) return null;
  const riffEnd = 8 + u32le(webp, 4);
  if (riffEnd > webp.length) return null;
  const chunks: Chunk[] = [];
  for (let at = 12; at < riffEnd;) {
    if (at + 8 > riffEnd) return null;
    const size = u32le(webp, at + 4);
    const end = at + 8 + size + (size & 1);
    if (at + 8 + size > riffEnd) return null;
    chunks.push({ fourcc: ascii(webp, at, at + 4), start: at, end: Math.min(end, riffEnd), data: at + 8, size });
    at = end;
  }
  return chunks.length > 0 ? chunks : null;
}

/** A chunk as it is, with the padding byte a writer left off at the end of the file put back. */
function copy(webp: Uint8Array, c: Chunk): Uint8Array {
  const bytes = webp.subarray(c.start, c.end);
  return bytes.length & 1 ? concat([bytes, new Uint8Array(1)]) : bytes;
}

function chunk(fourcc: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + payload.length + (payload.length & 1));
  for (let i = 0; i < 4; i++) out[i] = fourcc.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, payload.length, true);
  out.set(payload, 8);
  return out;
}

/** A VP8X chunk for a simple file's image chunk, or null when its header is not one this can read. */
function vp8xFor(webp: Uint8Array, image: Chunk): Uint8Array | null {
  let width: number, height: number, flags = XMP_FLAG;
  const d = image.data;
  if (
    image.fourcc === "VP8 " && image.size >= 10 && webp[d + 3] === 0x9d && webp[d + 4] === 0x01 && webp[d + 5] === 0x2a
  ) {
    width = u16le(webp, d + 6) & 0x3fff;
    height = u16le(webp, d + 8) & 0x3fff;
  } else if (image.fourcc === "VP8L" && image.size >= 5 && webp[d] === 0x2f) {
    const bits = u32le(webp, d + 1);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
    if ((bits >>> 28) & 1) flags |= ALPHA_FLAG;
  } else {
    return null;
  }
  if (width < 1 || height < 1) return null;
  const payload = new Uint8Array(10);
  payload[0] = flags;
  const w = width - 1,
    h = height - 1;
  payload.set([w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff], 4);
  return chunk("VP8X", payload);
}

export function readWebpRecipe(webp: Uint8Array): ImageRecipe | null {
  const xmp = chunksOf(webp)?.find((c) => c.fourcc === "XMP ");
  if (!xmp) return null;
  const text = fromUtf8(webp.subarray(xmp.data, xmp.data + xmp.size));
  return text === null ? null : recipeFromXmp(text);
}

/** The WebP carrying `r` in its XMP chunk, extended if it was simple; null when its chunks cannot be read. */
export function writeWebpRecipe(webp: Uint8Array, r: ImageRecipe): Uint8Array | null {
  const chunks = chunksOf(webp)?.filter((c) => c.fourcc !== "XMP ");
  if (!chunks?.length) return null;
  const parts: Uint8Array[] = [];
  if (chunks[0].fourcc === "VP8X") {
    if (chunks[0].size < 10) return null;
    const vp8x = webp.slice(chunks[0].start, chunks[0].end);
    vp8x[8] |= XMP_FLAG;
    parts.push(vp8x);
  } else {
    const vp8x = vp8xFor(webp, chunks[0]);
    if (!vp8x) return null;
    parts.push(vp8x, copy(webp, chunks[0]));
  }
  let after = 1;
  for (let i = 1; i < chunks.length; i++) if (BEFORE_XMP.has(chunks[i].fourcc)) after = i + 1;
  const copied = (list: Chunk[]) => list.map((c) => copy(webp, c));
  parts.push(...copied(chunks.slice(1, after)), chunk("XMP ", utf8(recipeXmp(r))), ...copied(chunks.slice(after)));
  const body = concat(parts);
  const out = new Uint8Array(12 + body.length);
  out.set(webp.subarray(0, 12));
  new DataView(out.buffer).setUint32(4, out.length - 8, true);
  out.set(body, 12);
  return out;
}
