// Names an upload's real format from its leading bytes. The MIME type a browser declares is never used:
// a text file renamed to .png, or a WebP labelled image/png, is identified here for what it is.
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

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = "";
  for (let i = start; i < start + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

export function sniffFormat(bytes: Uint8Array): SniffedFormat | null {
  const b = bytes;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    ascii(b, 1, 3) === "PNG" &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return "png";
  }
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
