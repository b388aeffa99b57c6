// Grid thumbnails: a generation's image scaled so its longer side is THUMBNAIL_PX, as WebP. A tile is
// at most a few hundred CSS pixels wide, so decoding a 1024 or 1792 pixel PNG for it would cost the
// scroll its frames; the thumbnail is a few kilobytes and decodes at once. Made in the page or in the
// service worker (both have createImageBitmap and OffscreenCanvas); where either is missing, or the
// bytes are not an image, there is no thumbnail and grids show the full image. It is kept as a data:
// URL (a few kilobytes of text): a tile shows it as it is, with no object URL to make and no Blob to read.
export const THUMBNAIL_PX = 384;
const QUALITY = 0.8;

export async function makeThumbnail(image: Blob): Promise<string | undefined> {
  if (typeof createImageBitmap !== "function" || typeof OffscreenCanvas !== "function") return undefined;
  try {
    const bitmap = await createImageBitmap(image);
    const scale = Math.min(1, THUMBNAIL_PX / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext("2d");
    if (!context) return undefined;
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    return await toDataUrl(await canvas.convertToBlob({ type: "image/webp", quality: QUALITY }));
  } catch {
    return undefined;
  }
}

/** A Blob as a base64 data: URL (FileReader is missing from some workers; this works everywhere). */
export async function toDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type || "application/octet-stream"};base64,${btoa(binary)}`;
}
