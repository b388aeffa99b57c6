// The recipe in a JPEG: an APP1 segment with the XMP packet (xmp.ts) and a COM segment with the
// human-readable text, both placed after the JFIF and Exif headers that must come first. The compressed
// image is copied byte for byte; earlier XMP (standard and extended) and comment segments are dropped, so
// a file written twice carries one recipe.
import { concat, fromUtf8, startsWith, u16be, utf8 } from "./bytes.ts";
import { type ImageRecipe, parametersText } from "./recipe.ts";
import { recipeFromXmp, recipeXmp } from "./xmp.ts";

const XMP_ID = utf8("http://ns.adobe.com/xap/1.0/\0");
const EXTENDED_XMP_ID = utf8("http://ns.adobe.com/xmp/extension/\0");
const EXIF_ID = utf8("Exif\0\0");
const JFIF_ID = utf8("JFIF\0");
/** Largest payload of a segment: its 16-bit length counts itself. */
const SEGMENT_MAX_BYTES = 0xffff - 2;

const APP0 = 0xe0,
  APP1 = 0xe1,
  COM = 0xfe,
  SOS = 0xda;

interface Segment {
  marker: number;
  start: number;
  end: number;
  /** Where the payload (after the length) starts. */
  data: number;
}

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** The header segments before the scan, and where the scan starts; null when they do not parse. */
function segmentsOf(jpg: Uint8Array): { segments: Segment[]; scan: number } | null {
  if (!isJpeg(jpg)) return null;
  const segments: Segment[] = [];
  let at = 2;
  while (at + 4 <= jpg.length) {
    if (jpg[at] !== 0xff) return null;
    const marker = jpg[at + 1];
    // Fill bytes: a marker may be preceded by any number of 0xFF.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === SOS) return { segments, scan: at };
    // Markers with no length (TEM, RSTn) do not belong in a header; SOI again or EOI means no image.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) return null;
    const end = at + 2 + u16be(jpg, at + 2);
    if (end > jpg.length) return null;
    segments.push({ marker, start: at, end, data: at + 4 });
    at = end;
  }
  return null;
}

function segment(marker: number, payload: Uint8Array): Uint8Array {
  if (payload.length > SEGMENT_MAX_BYTES) throw new RangeError(`JPEG segment of ${payload.length} bytes`);
  const length = payload.length + 2;
  return concat([new Uint8Array([0xff, marker, length >> 8, length & 0xff]), payload]);
}

function isXmp(jpg: Uint8Array, s: Segment): boolean {
  return s.marker === APP1 && (startsWith(jpg, s.data, XMP_ID) || startsWith(jpg, s.data, EXTENDED_XMP_ID));
}

export function readJpegRecipe(jpg: Uint8Array): ImageRecipe | null {
  const parsed = segmentsOf(jpg);
  const xmp = parsed?.segments.find((s) => s.marker === APP1 && startsWith(jpg, s.data, XMP_ID));
  if (!xmp) return null;
  const text = fromUtf8(jpg.subarray(xmp.data + XMP_ID.length, xmp.end));
  return text === null ? null : recipeFromXmp(text);
}

/** The JPEG carrying `r` (XMP and a comment); null when its header segments cannot be read. */
export function writeJpegRecipe(jpg: Uint8Array, r: ImageRecipe): Uint8Array | null {
  const parsed = segmentsOf(jpg);
  if (!parsed) return null;
  const kept = parsed.segments.filter((s) => s.marker !== COM && !isXmp(jpg, s));
  // JFIF's APP0 must be the first segment and Exif's APP1 comes before XMP: the recipe goes after them.
  let lead = 0;
  while (
    lead < kept.length &&
    ((kept[lead].marker === APP0 && startsWith(jpg, kept[lead].data, JFIF_ID)) ||
      (kept[lead].marker === APP1 && startsWith(jpg, kept[lead].data, EXIF_ID)))
  ) lead++;
  const recipe = [
    segment(APP1, concat([XMP_ID, utf8(recipeXmp(r))])),
    segment(COM, utf8(parametersText(r))),
  ];
  const copy = (s: Segment) => jpg.subarray(s.start, s.end);
  return concat([
    jpg.subarray(0, 2),
    ...kept.slice(0, lead).map(copy),
    ...recipe,
    ...kept.slice(lead).map(copy),
    jpg.subarray(parsed.scan),
  ]);
}
