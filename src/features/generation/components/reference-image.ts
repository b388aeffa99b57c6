// The reference image (spec §5): only image files, read as a data URL. A large picture is shrunk to
// at most 1024 px on its longer side (as JPEG) so the request stays well inside the server's 4 MB /
// 4096 px limits and the queued task stays small in IndexedDB.
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";

export const REFERENCE_MAX_SIDE_PX = 1024;
/** Files at or below this size and side are sent as they are. */
const REFERENCE_KEEP_MAX_BYTES = 1_500_000;

export type ReadReference = { ok: true; dataUrl: string } | { ok: false; message: string };

export function isImageFile(file: Pick<File, "type">): boolean {
  return file.type.startsWith("image/");
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
}

async function shrink(file: File): Promise<string | null> {
  if (typeof createImageBitmap !== "function") return null;
  const bitmap = await createImageBitmap(file);
  try {
    const scale = Math.min(1, REFERENCE_MAX_SIDE_PX / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size <= REFERENCE_KEEP_MAX_BYTES) return null;
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext("2d");
    if (!ctx) return null;
    ctx.fillStyle = "#ffffff"; // JPEG has no transparency
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/jpeg", 0.88);
  } finally {
    bitmap.close();
  }
}

export async function readReference(file: File): Promise<ReadReference> {
  if (!isImageFile(file)) return { ok: false, message: VALIDATION_MESSAGES.notAnImage };
  try {
    return { ok: true, dataUrl: (await shrink(file)) ?? (await readAsDataUrl(file)) };
  } catch {
    return { ok: false, message: "That image could not be read. Try a PNG or JPEG file." };
  }
}
