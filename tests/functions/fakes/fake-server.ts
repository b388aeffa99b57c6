// What the fake provider servers share: a server on 127.0.0.1 with a free port, a log of the requests
// it received, PNG files it serves (and can let expire, like provider output URLs), and JSON answers.
import { crc32, deflateSync } from "node:zlib";

export interface Received {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

export interface FakeServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** A FastAPI 429 saying `detail`, with a Retry-After header when `retryAfter` is given. */
export function tooManyRequests(detail: string, retryAfter?: string | null): Response {
  return json({ detail }, 429, retryAfter ? { "Retry-After": retryAfter } : {});
}

/** A check of one input field: the validation message, or null when the value passes. */
export type Check = (v: unknown) => string | null;

/** How a FastAPI provider words its 422: the message for a body that is no object, a failed check's type. */
interface FastApiWording {
  notObject: string;
  checkType: string;
  /** Fields that must be present. */
  required?: string[];
}

/**
 * FastAPI's validation answer for `body` against `schema` (null when it passes). The fakes also refuse keys
 * the schema does not know, to hold an adapter to the documented input.
 */
export function validateBody(schema: Record<string, Check>, body: unknown, wording: FastApiWording): Response | null {
  const b = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (!b) return json({ detail: [{ loc: ["body"], msg: wording.notObject, type: "dict_type" }] }, 422);
  const detail = [];
  for (const key of wording.required ?? []) {
    if (!(key in b)) detail.push({ loc: ["body", key], msg: "Field required", type: "missing" });
  }
  for (const [key, value] of Object.entries(b)) {
    const check: Check | undefined = schema[key];
    if (!check) {
      detail.push({ loc: ["body", key], msg: "Extra inputs are not permitted", type: "extra_forbidden" });
      continue;
    }
    const msg = check(value);
    if (msg) detail.push({ loc: ["body", key], msg, type: wording.checkType });
  }
  return detail.length ? json({ detail }, 422) : null;
}

export function startFakeServer(
  handle: (req: Request, url: URL, body: unknown) => Response | Promise<Response>,
): FakeServer {
  const received: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const type = req.headers.get("content-type") ?? "";
    let body: unknown = null;
    if (req.method !== "GET" && req.method !== "HEAD") {
      if (type.startsWith("multipart/form-data")) body = await req.formData();
      else {
        const text = await req.text();
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = { unparsable: text };
        }
      }
    }
    received.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body });
    return handle(req, url, body);
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    received,
    close: () => server.shutdown(),
  };
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A PNG from raw filtered scanlines (deflated and with CRCs by node:zlib, independently of the image
 * code under test), with any `extra` chunks between IHDR and IDAT.
 */
export function assemblePng(
  ihdr: { width: number; height: number; depth: number; colorType: number; interlace?: number },
  raw: Uint8Array,
  extra: [string, Uint8Array][] = [],
): Uint8Array {
  const head = new Uint8Array(13);
  const hv = new DataView(head.buffer);
  hv.setUint32(0, ihdr.width);
  hv.setUint32(4, ihdr.height);
  head.set([ihdr.depth, ihdr.colorType, 0, 0, ihdr.interlace ?? 0], 8);
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", head),
    ...extra.map(([t, d]) => chunk(t, d)),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const pngCache = new Map<string, Uint8Array>();

/** A real PNG of one colour, as a provider would return a drawn image. */
export function solidPng(width: number, height: number, rgb: [number, number, number] = [40, 90, 200]): Uint8Array {
  const key = `${width}x${height}:${rgb.join(",")}`;
  const cached = pngCache.get(key);
  if (cached) return cached;
  const row = new Uint8Array(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = new Uint8Array(row.length * height);
  for (let y = 0; y < height; y++) raw.set(row, y * row.length);
  const out = assemblePng({ width, height, depth: 8, colorType: 2 }, raw);
  pngCache.set(key, out);
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Output files a fake serves under /files/<name>; `expired` makes every one of them 404. */
export class FileHost {
  files = new Map<string, Uint8Array>();
  expired = false;
  add(name: string, bytes: Uint8Array): string {
    this.files.set(name, bytes);
    return `/files/${name}`;
  }
  serve(path: string): Response | null {
    if (!path.startsWith("/files/")) return null;
    const bytes = this.files.get(path.slice("/files/".length));
    if (this.expired || !bytes) return new Response("Not Found", { status: 404 });
    return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png" } });
  }
}
