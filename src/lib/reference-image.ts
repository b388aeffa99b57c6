// Every way of picking a reference image (docs/spec.md §5: the generator's field, the advanced-options page)
// prepares it here: only image files ('Please select an image file' otherwise), within the server's
// limits (4096 px a side, 16 M pixels, stated once in #shared/vocabulary/generation.ts), redrawn at most
// 1024 px on its longer side as a JPEG so the request stays well inside the server's 4 MB limit and a
// queued task stays small in IndexedDB. A picture within the limits is always shrunk, never refused;
// one beyond them gets the size message. The server decodes PNG, JPEG and GIF only, so any other picture
// the browser can decode (WebP, AVIF, BMP...) is redrawn here, and one it cannot decode is refused in the
// field at once: nothing is accepted that Generate would then be refused.
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { REFERENCE_IMAGE_MAX_PIXELS, REFERENCE_IMAGE_MAX_SIDE } from "#shared/vocabulary/generation.ts";

export const REFERENCE_MAX_SIDE_PX = 1024;
/** A picture that fails to decode is, for the generator, not an image file (docs/spec.md §5's message). */
const UNREADABLE_IMAGE = VALIDATION_MESSAGES.notAnImage;
const NOT_REDRAWN = "This device could not redraw that image. Try a smaller one.";

/** The formats the server decodes (supabase/functions/_shared/image/decode.ts); others are redrawn here. */
const SERVER_FORMATS: readonly string[] = ["image/png", "image/jpeg", "image/gif"];

export function isImageFile(file: Pick<File, "type">): boolean {
  return file.type.startsWith("image/");
}

/** The message for a picture beyond the server's limits, or null when it is within them. */
export function referenceSizeError(width: number, height: number): string | null {
  if (width > REFERENCE_IMAGE_MAX_SIDE || height > REFERENCE_IMAGE_MAX_SIDE)
    return VALIDATION_MESSAGES.referenceTooLarge;
  if (width * height > REFERENCE_IMAGE_MAX_PIXELS) return VALIDATION_MESSAGES.referenceTooLarge;
  return null;
}

/** The size that keeps the aspect ratio and fits `maxSide` (never enlarges). */
export function fitWithin(
  width: number,
  height: number,
  maxSide = REFERENCE_MAX_SIDE_PX,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export type ShrunkReference =
  { ok: true; dataUrl: string; width: number; height: number; resized: boolean } | { ok: false; message: string };

/**
 * Decodes the picture, checks its size against the limits, and draws it at most 1024 px a side on
 * white as a JPEG data URL. Throws when the browser cannot decode it.
 */
export async function shrinkToJpeg(file: Blob): Promise<ShrunkReference> {
  const bitmap = await createImageBitmap(file);
  try {
    const tooLarge = referenceSizeError(bitmap.width, bitmap.height);
    if (tooLarge) return { ok: false, message: tooLarge };
    const size = fitWithin(bitmap.width, bitmap.height);
    const resized = size.width !== bitmap.width || size.height !== bitmap.height;
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext("2d");
    if (!ctx) return { ok: false, message: NOT_REDRAWN };
    ctx.fillStyle = "#ffffff"; // JPEG has no transparency: flatten onto white
    ctx.fillRect(0, 0, size.width, size.height);
    ctx.drawImage(bitmap, 0, 0, size.width, size.height);
    const dataUrl = canvas.toDataURL("image/jpeg", 0.88);
    // A canvas the browser could not allocate exports as "data:,": the device's limit, not a non-image.
    if (!dataUrl.startsWith("data:image/")) return { ok: false, message: NOT_REDRAWN };
    return { ok: true, dataUrl, ...size, resized };
  } finally {
    bitmap.close();
  }
}

/** Files at or below this size, and within 1024 px a side, are sent as they are (unless redrawn always). */
const REFERENCE_KEEP_MAX_BYTES = 1_500_000;

export type PreparedReference = { ok: true; dataUrl: string } | { ok: false; message: string };

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
}

/**
 * A picked file as the reference image's data URL, or the message to show. A PNG, JPEG or GIF already
 * small in size and bytes keeps its own format and quality, unless `alwaysRedraw` (a page handing it to
 * the generator through sessionStorage, where a small JPEG is safest); any other format is redrawn.
 */
export async function prepareReference(file: File, opts: { alwaysRedraw?: boolean } = {}): Promise<PreparedReference> {
  if (!isImageFile(file)) return { ok: false, message: VALIDATION_MESSAGES.notAnImage };
  const serverReads = SERVER_FORMATS.includes(file.type.toLowerCase());
  try {
    // Without a way to decode it here, only a file the server reads, small enough to be within every
    // limit, is sent; the server checks it again.
    if (typeof createImageBitmap !== "function") {
      return serverReads && file.size <= REFERENCE_KEEP_MAX_BYTES
        ? { ok: true, dataUrl: await readAsDataUrl(file) }
        : { ok: false, message: UNREADABLE_IMAGE };
    }
    const shrunk = await shrinkToJpeg(file);
    if (!shrunk.ok) return shrunk;
    if (serverReads && !opts.alwaysRedraw && !shrunk.resized && file.size <= REFERENCE_KEEP_MAX_BYTES)
      return { ok: true, dataUrl: await readAsDataUrl(file) };
    return { ok: true, dataUrl: shrunk.dataUrl };
  } catch {
    return { ok: false, message: UNREADABLE_IMAGE };
  }
}
