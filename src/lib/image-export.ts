// Downloads of a generated image (docs/spec.md §1: PNG, JPG and WebP): the cached bytes are re-encoded in the
// browser with a canvas, JPG flattened onto white (it has no transparency), the file is named from the
// prompt so a folder of downloads stays readable, and it carries the generation's recipe, which a canvas
// drops (#shared/recipe-metadata: PNG text chunks, JPEG and WebP XMP).
import { writeRecipe } from "#shared/recipe-metadata/recipe-file.ts";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";

export type ExportFormat = "png" | "jpg" | "webp";

export const EXPORT_FORMATS: readonly { format: ExportFormat; label: string; mime: string }[] = [
  { format: "png", label: "PNG", mime: "image/png" },
  { format: "jpg", label: "JPG", mime: "image/jpeg" },
  { format: "webp", label: "WebP", mime: "image/webp" },
];

/** Long prompts make unwieldy file names; the slug stops at a word boundary before this. */
export const FILE_SLUG_MAX_CHARS = 60;
const FALLBACK_NAME = "promptcanvas-image";
const LOSSY_QUALITY = 0.92;

export function mimeFor(format: ExportFormat): string {
  return EXPORT_FORMATS.find((f) => f.format === format)!.mime;
}

/** `a-red-fox-in-snow.png` from "A red fox in snow!" (accents dropped, other symbols become dashes). */
export function fileNameFor(prompt: string, format: ExportFormat): string {
  let slug = prompt
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length > FILE_SLUG_MAX_CHARS) {
    const cut = slug.slice(0, FILE_SLUG_MAX_CHARS + 1);
    const lastDash = cut.lastIndexOf("-");
    slug = (lastDash > 0 ? cut.slice(0, lastDash) : cut.slice(0, FILE_SLUG_MAX_CHARS)).replace(/-+$/, "");
  }
  return `${slug || FALLBACK_NAME}.${format}`;
}

/** The image in `format`; bytes already in that type are returned unchanged (no quality loss). */
export async function convertImage(source: Blob, format: ExportFormat): Promise<Blob> {
  const mime = mimeFor(format);
  if (source.type === mime) return source;
  const bitmap = await createImageBitmap(source);
  try {
    const canvas = document.createElement("canvas");
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("This browser cannot convert images.");
    if (format === "jpg") {
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
    }
    ctx.drawImage(bitmap, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, mime, format === "png" ? undefined : LOSSY_QUALITY),
    );
    // A browser that cannot encode a type silently answers PNG; saving that as .webp would mislead.
    if (!blob || blob.type !== mime) throw new Error(`This browser cannot save ${format.toUpperCase()} files.`);
    return blob;
  } finally {
    bitmap.close();
  }
}

/** `image` with `recipe` written into it, its pixels untouched; as it is when its format cannot carry one. */
export async function withRecipe(image: Blob, recipe: ImageRecipe): Promise<Blob> {
  const bytes = new Uint8Array(await image.arrayBuffer());
  const written = writeRecipe(bytes, recipe);
  return written && written !== bytes ? new Blob([written as Uint8Array<ArrayBuffer>], { type: image.type }) : image;
}

/** The file a download saves: the image in `format`, carrying its recipe. */
export async function exportImage(source: Blob, format: ExportFormat, recipe: ImageRecipe): Promise<Blob> {
  return withRecipe(await convertImage(source, format), recipe);
}

/** Hands `blob` to the browser as a download called `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the URL by now; freeing it on the next task is safe.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
