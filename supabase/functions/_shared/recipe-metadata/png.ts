// The recipe in a PNG: an iTXt chunk (UTF-8, uncompressed) with the JSON under "promptcanvas:recipe", and
// AUTOMATIC1111's "parameters" text (tEXt when it is Latin-1, as Pillow writes it, else iTXt). Writing
// moves no pixel: the image's own chunks are copied as they are, any earlier recipe chunks are dropped and
// the new ones go before IEND.
import { crc32 } from "../image/crc32.ts";
import { ascii, concat, fromUtf8, latin1, u32be, utf8 } from "./bytes.ts";
import {
  type ImageRecipe,
  PARAMETERS_KEYWORD,
  parametersText,
  RECIPE_KEYWORD,
  recipeFromJson,
  recipeJson,
} from "./recipe.ts";

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
const TEXT_TYPES = new Set(["tEXt", "iTXt", "zTXt"]);

interface Chunk {
  type: string;
  /** The whole chunk, length to CRC. */
  start: number;
  end: number;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((v, i) => bytes[i] === v);
}

/** Every chunk up to IEND, or null when the file is not a PNG whose chunks fit in it. */
function chunksOf(png: Uint8Array): Chunk[] | null {
  if (!isPng(png)) return null;
  const chunks: Chunk[] = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = u32be(png, at);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > png.length) return null;
    const type = ascii(png, at + 4, at + 8);
    chunks.push({ type, start: at, end });
    if (type === "IEND") return chunks;
    at = end;
  }
  return null;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** iTXt: keyword, NUL, not compressed (0, 0), no language tag, no translated keyword, UTF-8 text. */
function itxtChunk(keyword: string, text: string): Uint8Array {
  return pngChunk("iTXt", concat([latin1(keyword)!, new Uint8Array([0, 0, 0, 0, 0]), utf8(text)]));
}

function textChunk(keyword: string, text: string): Uint8Array {
  const bytes = text.includes("\0") ? null : latin1(text);
  return bytes ? pngChunk("tEXt", concat([latin1(keyword)!, new Uint8Array([0]), bytes])) : itxtChunk(keyword, text);
}

/** The two chunks that carry `r`, for an encoder to write among its own (image/png.ts). */
export function recipePngChunks(r: ImageRecipe): Uint8Array[] {
  return [itxtChunk(RECIPE_KEYWORD, recipeJson(r)), textChunk(PARAMETERS_KEYWORD, parametersText(r))];
}

/** A text chunk's keyword and text (null text when compressed or not valid UTF-8). */
function readText(png: Uint8Array, c: Chunk): { keyword: string; text: string | null } {
  const data = png.subarray(c.start + 8, c.end - 4);
  const nul = data.indexOf(0);
  if (nul < 0) return { keyword: ascii(data), text: null };
  const keyword = ascii(data, 0, nul);
  if (c.type === "tEXt") return { keyword, text: ascii(data, nul + 1) };
  if (c.type !== "iTXt" || data[nul + 1] !== 0) return { keyword, text: null };
  const lang = data.indexOf(0, nul + 3);
  const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
  return { keyword, text: translated < 0 ? null : fromUtf8(data.subarray(translated + 1)) };
}

function texts(png: Uint8Array, chunks: Chunk[]): { chunk: Chunk; keyword: string; text: string | null }[] {
  return chunks.filter((c) => TEXT_TYPES.has(c.type)).map((chunk) => ({ chunk, ...readText(png, chunk) }));
}

export function readPngRecipe(png: Uint8Array): ImageRecipe | null {
  const chunks = chunksOf(png);
  if (!chunks) return null;
  const found = texts(png, chunks).find((t) => t.keyword === RECIPE_KEYWORD && t.text !== null);
  return found ? recipeFromJson(found.text!) : null;
}

/**
 * The PNG with `r` as its recipe: unchanged when it already carries exactly this recipe, else its
 * chunks with any earlier recipe and parameters text dropped and the new ones before IEND. Null when
 * the bytes are not a PNG whose chunks can be read.
 */
export function writePngRecipe(png: Uint8Array, r: ImageRecipe): Uint8Array | null {
  const chunks = chunksOf(png);
  if (!chunks) return null;
  const ours = texts(png, chunks).filter((t) => t.keyword === RECIPE_KEYWORD || t.keyword === PARAMETERS_KEYWORD);
  const json = recipeJson(r),
    parameters = parametersText(r);
  const same = ours.length === 2 && ours.some((t) => t.keyword === RECIPE_KEYWORD && t.text === json) &&
    ours.some((t) => t.keyword === PARAMETERS_KEYWORD && t.text === parameters);
  if (same) return png;
  const dropped = new Set(ours.map((t) => t.chunk));
  const parts: Uint8Array[] = [SIGNATURE];
  for (const c of chunks) {
    if (dropped.has(c)) continue;
    if (c.type === "IEND") parts.push(...recipePngChunks(r));
    parts.push(png.subarray(c.start, c.end));
  }
  return concat(parts);
}
