// Prepares a reference image picked on a public page for the generator: checks it is an image (spec §5)
// and shrinks it to at most 1024 px on its longer side as a JPEG data URL, small enough for
// sessionStorage and well inside the server's 4 MB / 4096 px limits.

import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";

export const REFERENCE_MAX_SIDE_PX = 1024;

export type PreparedReference =
  { ok: true; dataUrl: string; width: number; height: number } | { ok: false; message: string };

export function isImageFile(file: Pick<File, "type">): boolean {
  return file.type.startsWith("image/");
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

export async function prepareReference(file: File): Promise<PreparedReference> {
  if (!isImageFile(file)) return { ok: false, message: VALIDATION_MESSAGES.notAnImage };
  try {
    const bitmap = await createImageBitmap(file);
    const size = fitWithin(bitmap.width, bitmap.height);
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext("2d");
    if (!ctx) return { ok: false, message: "This browser cannot read images." };
    ctx.fillStyle = "#ffffff"; // JPEG has no transparency: flatten onto white
    ctx.fillRect(0, 0, size.width, size.height);
    ctx.drawImage(bitmap, 0, 0, size.width, size.height);
    bitmap.close();
    return { ok: true, dataUrl: canvas.toDataURL("image/jpeg", 0.88), ...size };
  } catch {
    return { ok: false, message: "That image could not be read. Try a PNG or JPEG file." };
  }
}
