// Image transformation, as Supabase Storage serves it at /render/image/authenticated/<bucket>/<name>
// (supabase-js: `download(path, { transform: { width, height, resize, quality, format } })`). The
// caller must be able to read the object (the same storage.objects RLS check as a plain download);
// the stored image is then decoded, scaled down and encoded again, so a gallery tile fetches tens of
// kilobytes instead of the full picture.
//
// The answer's format follows Supabase (its imgproxy with WebP detection): WebP when the request's
// Accept header names image/webp, the stored format with format=origin. Where it differs from hosted
// Supabase (docs/decisions/053-gallery-tiles-show-a-scaled-thumbnail.md and 061-gallery-thumbnails-webp-finer-ladder-settled-worker.md): other requests get JPEG rather than the stored format;
// pictures are never enlarged beyond their stored size; PNG, JPEG and GIF are read (anything else
// answers InvalidRequest). Rendered variants are kept in a small in-memory LRU, keyed by the object's
// ETag and the output format, so a gallery's tiles are decoded once, not on every view.
// deno-lint-ignore no-import-prefix -- a kept WebP encoder (Squoosh's libwebp build, WebAssembly)
import encodeWebpPixels, { init as initWebpEncoder } from "npm:@jsquash/webp@1.5.0/encode.js";
// deno-lint-ignore no-import-prefix -- the same kept encoder the image decoders use (npm:jpeg-js)
import { encode as encodeJpeg } from "npm:jpeg-js@0.4.4";
import { decodeImage } from "../../functions/_shared/image/decode.ts";
import type { DecodeLimits } from "../../functions/_shared/image/limits.ts";
import { encodePng } from "../../functions/_shared/image/png.ts";
import type { RgbaImage } from "../../functions/_shared/image/result.ts";
import { type Claims, type Db } from "../db.ts";
import { err, ok, type Result } from "../result.ts";
import type { BlobStore } from "./blob-store.ts";
import { findBucket } from "./buckets.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { etagMatches, type ObjectRow, parseRow, ROW_SQL } from "./read.ts";
import { asStorageRole, OPERATIONS } from "./operation.ts";

export type ResizeMode = "cover" | "contain" | "fill";

export interface Transform {
  width: number | null;
  height: number | null;
  resize: ResizeMode;
  /** JPEG quality, 20-100 (Supabase's range); 80 when not given. */
  quality: number;
  /** Keep the stored format (format=origin). */
  origin: boolean;
  /** Answer WebP: the request accepts it (its Accept header) and did not ask for the stored format. */
  webp: boolean;
}

/** Supabase's limits for a transformation's width and height. */
const MAX_SIDE = 2500;
/** The stored images this renders are at most a few megapixels; anything larger is refused. */
const RENDER_LIMITS: DecodeLimits = { maxDimension: 8192, maxPixels: 40_000_000, maxBytes: 50_000_000 };
/** Rendered variants kept in memory: a gallery page's tiles a few times over (about 40 KB each). */
const CACHE_ENTRIES = 300;

/**
 * An integer query parameter, refused as storage-api's schema (Ajv, `where` naming the part checked)
 * refuses it; the bounds past hosted's own (hosted lets a side be 0 and leaves the size to imgproxy) are
 * this backend's, stricter.
 */
function intParam(
  params: URLSearchParams,
  where: string,
  key: string,
  lo: number,
  hi: number,
): Result<number | null, StorageError> {
  const raw = params.get(key);
  if (raw === null || raw === "") return ok(null);
  const n = Number(raw);
  if (!Number.isInteger(n)) return err(storageErrors.validation(`${where}/${key} must be integer`));
  if (n < lo) return err(storageErrors.validation(`${where}/${key} must be >= ${lo}`));
  if (n > hi) return err(storageErrors.validation(`${where}/${key} must be <= ${hi}`));
  return ok(n);
}

/** Whether an Accept header names WebP, as imgproxy's WebP detection reads it. */
export function acceptsWebp(accept: string | null): boolean {
  return (accept ?? "").split(",").some((part) => {
    const [type, ...params] = part.split(";").map((x) => x.trim().toLowerCase());
    return type === "image/webp" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/**
 * Reads the transformation from the query string, with Supabase's names and ranges, and the output
 * format from the request's Accept header.
 */
export function parseTransform(
  params: URLSearchParams,
  accept: string | null = null,
  where = "querystring",
): Result<Transform, StorageError> {
  const width = intParam(params, where, "width", 1, MAX_SIDE);
  if (!width.ok) return width;
  const height = intParam(params, where, "height", 1, MAX_SIDE);
  if (!height.ok) return height;
  const quality = intParam(params, where, "quality", 20, 100);
  if (!quality.ok) return quality;
  const resize = params.get("resize") || "cover";
  if (resize !== "cover" && resize !== "contain" && resize !== "fill") {
    return err(storageErrors.validation(`${where}/resize must be equal to one of the allowed values`));
  }
  const format = params.get("format");
  if (format !== null && format !== "" && format !== "origin") {
    // Hosted also takes avif and webp by name; here WebP comes only through the Accept header (stricter).
    return err(storageErrors.validation(`${where}/format must be equal to one of the allowed values`));
  }
  return ok({
    width: width.value,
    height: height.value,
    resize,
    quality: quality.value ?? 80,
    origin: format === "origin",
    webp: format !== "origin" && acceptsWebp(accept),
  });
}

/** imgproxy's names for the resize modes, as storage-api reports them. */
const RESIZING_TYPE: Record<ResizeMode, string> = { cover: "fill", contain: "fit", fill: "force" };

/**
 * storage-api's X-Transformations header for a render request's (checked) parameters: the segments it
 * hands imgproxy, in its order (height, width, resizing_type, quality, format); empty when none apply.
 */
export function transformationsHeader(params: URLSearchParams, t: Transform): string {
  const segments: string[] = [];
  if (t.height !== null) segments.push(`height:${t.height}`);
  if (t.width !== null) segments.push(`width:${t.width}`);
  if (t.width !== null || t.height !== null) segments.push(`resizing_type:${RESIZING_TYPE[t.resize]}`);
  if (params.get("quality")) segments.push(`quality:${t.quality}`);
  return segments.join(",");
}

/** The part of the source to read and the output size, never larger than the source. */
export function plan(
  sw: number,
  sh: number,
  t: Pick<Transform, "width" | "height" | "resize">,
): { crop: { x: number; y: number; w: number; h: number }; w: number; h: number } {
  const whole = { x: 0, y: 0, w: sw, h: sh };
  if (t.width === null && t.height === null) return { crop: whole, w: sw, h: sh };
  // One side given: the other follows the picture's aspect ratio.
  if (t.width === null || t.height === null) {
    const scale = Math.min(1, t.width !== null ? t.width / sw : t.height! / sh);
    return { crop: whole, w: Math.max(1, Math.round(sw * scale)), h: Math.max(1, Math.round(sh * scale)) };
  }
  if (t.resize === "fill") return { crop: whole, w: Math.min(sw, t.width), h: Math.min(sh, t.height) };
  if (t.resize === "contain") {
    const scale = Math.min(1, t.width / sw, t.height / sh);
    return { crop: whole, w: Math.max(1, Math.round(sw * scale)), h: Math.max(1, Math.round(sh * scale)) };
  }
  // cover: fill the box, cutting the overflow evenly from both sides; a box larger than the picture
  // shrinks (keeping its shape) until it fits.
  const fit = Math.min(1, sw / t.width, sh / t.height);
  const w = Math.max(1, Math.round(t.width * fit));
  const h = Math.max(1, Math.round(t.height * fit));
  const scale = Math.max(w / sw, h / sh);
  const cw = Math.min(sw, Math.round(w / scale));
  const ch = Math.min(sh, Math.round(h / scale));
  return { crop: { x: Math.floor((sw - cw) / 2), y: Math.floor((sh - ch) / 2), w: cw, h: ch }, w, h };
}

/**
 * Area-average resampling of a crop of an RGBA image to w x h RGBA (a box filter: each output pixel
 * is the mean of the source pixels it covers, so a large reduction does not alias).
 */
export function downscale(src: RgbaImage, crop: { x: number; y: number; w: number; h: number }, w: number, h: number) {
  const out = new Uint8Array(w * h * 4);
  const sx = crop.w / w;
  const sy = crop.h / h;
  for (let y = 0; y < h; y++) {
    const y0 = crop.y + Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, crop.y + Math.floor((y + 1) * sy));
    for (let x = 0; x < w; x++) {
      const x0 = crop.x + Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, crop.x + Math.floor((x + 1) * sx));
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let yy = y0; yy < y1; yy++) {
        let i = (yy * src.width + x0) * 4;
        for (let xx = x0; xx < x1; xx++, i += 4) {
          r += src.rgba[i];
          g += src.rgba[i + 1];
          b += src.rgba[i + 2];
          a += src.rgba[i + 3];
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
      out[o + 3] = Math.round(a / n);
    }
  }
  return out;
}

/** JPEG has no alpha: a translucent pixel is laid over white, as a browser would show it on the page. */
function overWhite(rgba: Uint8Array): Uint8Array {
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3];
    if (a === 255) continue;
    for (let c = 0; c < 3; c++) rgba[i + c] = Math.round((rgba[i + c] * a + 255 * (255 - a)) / 255);
    rgba[i + 3] = 255;
  }
  return rgba;
}

export type Rendered = { bytes: Uint8Array; type: string };

/** What the storage service posts to the render worker, and what it answers. */
export type RenderJob = { id: number; source: Uint8Array; transform: Transform };
export type RenderJobReply =
  | { id: number; result: Result<Rendered, StorageError>; failure?: undefined }
  | { id: number; failure: string; result?: undefined };

export interface VariantRenderer {
  render(source: Uint8Array, transform: Transform): Promise<Result<Rendered, StorageError>>;
  close(): void;
}

/**
 * One worker, started on the first render, that renders variants in order. One is enough: variants
 * are cached, so only a gallery's first showing renders, and the other cores stay with the server and
 * the engine's render pool. A worker that dies fails its job and is started again for the next.
 */
export function createVariantRenderer(
  workerUrl = new URL("./render-image-worker.ts", import.meta.url),
): VariantRenderer {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, (reply: RenderJobReply) => void>();
  const start = () => {
    const w = new Worker(workerUrl, { type: "module" });
    w.onmessage = ({ data }: MessageEvent<RenderJobReply>) => {
      pending.get(data.id)?.(data);
      pending.delete(data.id);
    };
    w.onerror = (e) => {
      e.preventDefault();
      for (const [id, done] of pending) done({ id, failure: e.message || "the render worker failed" });
      pending.clear();
      w.terminate();
      if (worker === w) worker = null;
    };
    return w;
  };
  return {
    render(source, transform) {
      const id = nextId++;
      const reply = new Promise<RenderJobReply>((resolve) => pending.set(id, resolve));
      (worker ??= start()).postMessage({ id, source, transform } satisfies RenderJob, [source.buffer as ArrayBuffer]);
      return reply.then((r) => r.result ?? err(storageErrors.internal()));
    },
    close() {
      worker?.terminate();
      worker = null;
      pending.clear();
    },
  };
}

/** Decodes, scales and encodes one stored image; a value, never an exception, for bad input. */
export async function renderVariant(source: Uint8Array, t: Transform): Promise<Result<Rendered, StorageError>> {
  const decoded = decodeImage(source, RENDER_LIMITS);
  if (!decoded.ok) {
    // storage-api's words for a source imgproxy cannot read.
    return err(storageErrors.invalidRequest("The source image is invalid or unsupported for rendering"));
  }
  const img = decoded.value;
  const p = plan(img.width, img.height, t);
  const pixels = downscale(img, p.crop, p.w, p.h);
  if (t.origin && img.format === "png") return ok({ bytes: await encodePng(pixels, p.w, p.h), type: "image/png" });
  if (t.webp) {
    const webp = await encodeWebp(pixels, p.w, p.h, t.quality);
    if (webp) return ok({ bytes: webp, type: "image/webp" });
  }
  const jpeg = encodeJpeg({ data: overWhite(pixels), width: p.w, height: p.h }, t.quality);
  return ok({ bytes: new Uint8Array(jpeg.data), type: "image/jpeg" });
}

let webpEncoder: Promise<unknown> | null = null;

/**
 * Lossy WebP at `quality`, alpha kept; null when the encoder cannot start here, and the caller answers
 * JPEG, which every client accepts. The WebAssembly is compiled once per worker, from the installed
 * package (Deno's V8 has the SIMD build's instructions).
 */
export async function encodeWebp(rgba: Uint8Array, w: number, h: number, quality: number): Promise<Uint8Array | null> {
  webpEncoder ??= (async () => {
    const wasm = new URL(import.meta.resolve("npm:@jsquash/webp@1.5.0/codec/enc/webp_enc_simd.wasm"));
    return initWebpEncoder(await WebAssembly.compile(await Deno.readFile(wasm)));
  })();
  try {
    await webpEncoder;
  } catch (e) {
    webpEncoder = null;
    console.warn(`[storage] the WebP encoder did not start, answering JPEG: ${e instanceof Error ? e.message : e}`);
    return null;
  }
  const data = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  const image = { data, width: w, height: h, colorSpace: "srgb" } as ImageData;
  return new Uint8Array(await encodeWebpPixels(image, { quality }));
}

/** A least-recently-used map of rendered variants. */
export class VariantCache {
  #entries = new Map<string, Rendered>();
  constructor(readonly capacity: number = CACHE_ENTRIES) {}
  get(key: string): Rendered | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: Rendered): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }
  get size(): number {
    return this.#entries.size;
  }
}

const variantKey = (t: Transform) =>
  `w${t.width ?? ""}h${t.height ?? ""}${t.resize}q${t.quality}${t.origin ? "o" : ""}${t.webp ? "webp" : ""}`;

/** GET/HEAD /render/image/authenticated/<bucket>/<name>: the caller's read right, then the variant. */
export async function renderAuthenticated(
  db: Db,
  store: BlobStore,
  renderer: Pick<VariantRenderer, "render">,
  cache: VariantCache,
  req: Request,
  claims: Claims,
  bucket: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const t = parseTransform(new URL(req.url).searchParams, req.headers.get("accept"));
  if (!t.ok) return t;
  const row = await asStorageRole(
    db,
    claims,
    OPERATIONS.renderAuthenticated,
    async (tx) => parseRow((await tx.query<{ o: string }>(ROW_SQL, [bucket, name])).rows),
  );
  if (!row) return err(storageErrors.noSuchKey());
  const applied = transformationsHeader(new URL(req.url).searchParams, t.value);
  return await renderRow(store, renderer, cache, req, bucket, row, t.value, applied);
}

/**
 * GET/HEAD /render/image/public/<bucket>/<name>: as storage-api, only a public bucket's objects, read with
 * the server's rights; any other bucket (private or missing) answers NoSuchBucket.
 */
export async function renderPublic(
  db: Db,
  store: BlobStore,
  renderer: Pick<VariantRenderer, "render">,
  cache: VariantCache,
  req: Request,
  bucketId: string,
  name: string,
): Promise<Result<Response, StorageError>> {
  const params = new URL(req.url).searchParams;
  const t = parseTransform(params, req.headers.get("accept"));
  if (!t.ok) return t;
  const bucket = await findBucket(db, bucketId);
  if (!bucket || !bucket.public) return err(storageErrors.noSuchBucket());
  const row = parseRow((await db.query<{ o: string }>(ROW_SQL, [bucketId, name])).rows);
  if (!row) return err(storageErrors.noSuchKey());
  return await renderRow(store, renderer, cache, req, bucketId, row, t.value, transformationsHeader(params, t.value));
}

/** Serves `t` of an object whose read was already granted (its row in hand). */
export async function renderRow(
  store: BlobStore,
  renderer: Pick<VariantRenderer, "render">,
  cache: VariantCache,
  req: Request,
  bucket: string,
  row: ObjectRow,
  t: Transform,
  /** The X-Transformations header (transformationsHeader). */
  applied: string,
): Promise<Result<Response, StorageError>> {
  const name = row.name;
  const meta = row.metadata ?? {};
  // The variant's tag changes with the stored bytes (their ETag or time) and with the transformation.
  const version = meta.eTag?.replace(/"/g, "") ?? row.updated_at ?? "";
  const etag = `"${version}-${variantKey(t)}"`;
  const headers = new Headers({
    "cache-control": meta.cacheControl || "no-cache",
    "x-content-type-options": "nosniff",
    // The format follows the Accept header, so caches must keep one copy per kind of request.
    vary: "Accept",
    etag,
  });
  if (row.updated_at) headers.set("last-modified", new Date(row.updated_at).toUTCString());
  if (applied) headers.set("x-transformations", applied);
  if (etagMatches(req.headers.get("if-none-match"), etag)) {
    return ok(new Response(null, { status: 304, headers }));
  }
  const key = `${bucket}/${name}@${etag}`;
  let rendered = cache.get(key);
  if (!rendered) {
    const opened = await store.open(bucket, row.name);
    if (!opened) return err(storageErrors.blobMissing());
    const source = new Uint8Array(await new Response(opened.file.readable).arrayBuffer());
    const made = await renderer.render(source, t);
    if (!made.ok) return made;
    rendered = made.value;
    cache.set(key, rendered);
  }
  headers.set("content-type", rendered.type);
  headers.set("content-length", String(rendered.bytes.length));
  return ok(new Response(req.method === "HEAD" ? null : rendered.bytes.slice(), { status: 200, headers }));
}
