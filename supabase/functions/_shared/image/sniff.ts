// Names an image's real format from its leading bytes, and reads its pixel size from the header, without
// decoding anything. The MIME type a browser or a provider declares is never used: a text file renamed to
// .png, or a WebP labelled image/png, is identified here for what it is. The decoder checks the header size
// against its limits before it allocates pixels; the generate function uses the same reading to name and
// store a provider's output.
export type SniffedFormat = "png" | "jpeg" | "gif" | "webp" | "bmp" | "tiff" | "ico" | "avif" | "heic" | "svg";

const HEIF_BRANDS: Record<string, "avif" | "heic"> = {
  avif: "avif",
  avis: "avif",
  heic: "heic",
  heix: "heic",
  hevc: "heic",
  heim: "heic",
  heis: "heic",
  mif1: "heic",
  msf1: "heic",
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16be = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const u16le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u24le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16);
const u32be = (b: Uint8Array, o: number) => ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = "";
  for (let i = start; i < start + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

export function sniffFormat(bytes: Uint8Array): SniffedFormat | null {
  const b = bytes;
  if (b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v)) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  const head6 = ascii(b, 0, 6);
  if (head6 === "GIF87a" || head6 === "GIF89a") return "gif";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  if (b.length >= 14 && b[0] === 0x42 && b[1] === 0x4d) return "bmp";
  const head4 = ascii(b, 0, 4);
  if (head4 === "II*\0" || head4 === "MM\0*") return "tiff";
  if (b.length >= 6 && b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0) return "ico";
  if (b.length >= 12 && ascii(b, 4, 4) === "ftyp") {
    const brand = HEIF_BRANDS[ascii(b, 8, 4)];
    if (brand) return brand;
  }
  // SVG is text: look past a BOM, whitespace, an XML declaration and comments for an <svg element.
  const text = ascii(b, 0, 1024)
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
    .trimStart()
    .toLowerCase();
  if (text.startsWith("<svg") || (text.startsWith("<?xml") && text.includes("<svg"))) return "svg";
  return null;
}

export interface ImageSize {
  width: number;
  height: number;
}

/** The size the first start-of-frame marker declares, skipping the markers that carry no length. */
function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    }
    at += 2 + u16be(b, at + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 ") return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/** The pixel size a PNG, JPEG, GIF or WebP header declares; null when the header is missing or cut short. */
export function headerSize(bytes: Uint8Array, format: SniffedFormat): ImageSize | null {
  switch (format) {
    case "png":
      return bytes.length >= 24 && ascii(bytes, 12, 4) === "IHDR" ?
        { width: u32be(bytes, 16), height: u32be(bytes, 20) } :
        null;
    case "jpeg":
      return jpegSize(bytes);
    case "gif":
      return bytes.length >= 10 ? { width: u16le(bytes, 6), height: u16le(bytes, 8) } : null;
    case "webp":
      return webpSize(bytes);
    default:
      return null;
  }
}

/** The formats an image can be stored as, with their content type and file extension. */
const STORABLE = {
  png: { contentType: "image/png", extension: "png" },
  jpeg: { contentType: "image/jpeg", extension: "jpg" },
  webp: { contentType: "image/webp", extension: "webp" },
  gif: { contentType: "image/gif", extension: "gif" },
} as const;
type Storable = keyof typeof STORABLE;

export interface SniffedImage extends ImageSize {
  contentType: (typeof STORABLE)[Storable]["contentType"];
  extension: (typeof STORABLE)[Storable]["extension"];
}

/** Recognises a stored image by its bytes: a full decode is not needed to store an image, only to trust it is one. */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  const format = sniffFormat(bytes);
  if (!format || !(format in STORABLE)) return null;
  const size = headerSize(bytes, format);
  if (!size || size.width <= 0 || size.height <= 0) return null;
  return { ...STORABLE[format as Storable], ...size };
}
