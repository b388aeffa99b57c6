// Grid thumbnails: a generation's image scaled so its longer side is THUMBNAIL_PX, as JPEG (Chromium
// encodes it in under half WebP's time, for a file about half again as large; made images are opaque).
// A tile is at most a few hundred CSS pixels wide, so decoding a 1024 or 1792 pixel PNG for it would
// cost the scroll its frames; the thumbnail is a few kilobytes and decodes at once. Made in the page or
// in the service worker (both have createImageBitmap and OffscreenCanvas); where either is missing, or
// the bytes are not an image, there is no thumbnail and grids show the full image. It is kept as a data:
// URL (a few kilobytes of text): a tile shows it as it is, with no object URL to make and no Blob to read.
// In the page, makeThumbnail hands the work to a worker (thumbnail-worker.ts, the same code) so the
// decode, scaling and encoding leave the main thread: a tile scrolled into view and the background fill
// both make thumbnails while the person scrolls (docs/decisions/091-background-fill-costs-history-scroll.md).
import ThumbnailWorker from "./thumbnail-worker?worker";
import type { ThumbnailAnswer, ThumbnailRequest } from "./thumbnail-worker";
export const THUMBNAIL_PX = 384;
const QUALITY = 0.8;

/** A thumbnail made in this thread (the worker's, the service worker's, or the page's without a worker). */
export async function makeThumbnailHere(image: Blob): Promise<string | undefined> {
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
    return await toDataUrl(await canvas.convertToBlob({ type: "image/jpeg", quality: QUALITY }));
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

type Waiting = { image: Blob; resolve: (url: string | undefined) => void };
let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, Waiting>();

/** The page's thumbnail worker, started on first use; null where workers are missing or fail. */
function thumbnailWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = typeof Worker === "function" && typeof window !== "undefined" ? new ThumbnailWorker() : null;
  } catch {
    worker = null;
  }
  worker?.addEventListener("message", (event: MessageEvent<ThumbnailAnswer>) => {
    const entry = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    entry?.resolve(event.data.url);
  });
  // A worker that cannot start (or dies) answers nothing: what waits is made here instead, and so is
  // everything after.
  worker?.addEventListener("error", () => {
    worker?.terminate();
    worker = null;
    const left = [...waiting.values()];
    waiting.clear();
    for (const { image, resolve } of left) void makeThumbnailHere(image).then(resolve);
  });
  return worker;
}

/**
 * The thumbnail of `image`, or undefined where it cannot be made. In the page it is made in a worker,
 * so the decode, the scaling and the encoding leave the main thread; where there is no worker (the
 * service worker, a worker that fails to start), in this thread. Same thumbnail either way.
 */
export async function makeThumbnail(image: Blob): Promise<string | undefined> {
  const running = thumbnailWorker();
  if (!running) return makeThumbnailHere(image);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, { image, resolve });
    running.postMessage({ id, image } satisfies ThumbnailRequest);
  });
}
