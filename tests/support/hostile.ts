// The machinery of the hostile-input suite (tests/backend/hostile.test.ts): payload makers (deep and
// huge JSON, hostile text, image bombs, forged tokens), probes that send one hostile request and sort
// its answer into a class (2xx/3xx/4xx/5xx, a hang past HANG_MS, a reset connection, or a crash: the
// backend no longer answers at all), and a tally per probe family printed as a table.
import { createHmac } from "node:crypto";
import { connect } from "node:net";
import { deflateSync, gzipSync } from "node:zlib";
import WebSocket from "ws";
import type { Backend } from "./backend.ts";

/** A request that has not answered after this long is a hang. */
export const HANG_MS = 10_000;

export type AnswerClass = "2xx" | "3xx" | "4xx" | "5xx" | "hang" | "reset" | "crash";
export const CLASSES: AnswerClass[] = ["2xx", "3xx", "4xx", "5xx", "hang", "reset", "crash"];
/** What the suite fails on: a server error, no answer, or a dead backend. */
export const BAD: ReadonlySet<AnswerClass> = new Set(["5xx", "hang", "reset", "crash"]);

export interface Answer {
  cls: AnswerClass;
  status: number | null;
  /** The start of the body, or what went wrong, for the report. */
  detail: string;
  ms: number;
}

export function classOf(status: number): AnswerClass {
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  if (status >= 300) return "3xx";
  return "2xx";
}

/** Does the backend still answer at all? A refused connection means its process is gone. */
export async function alive(b: Backend, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(`${b.url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.text();
    return true;
  } catch (e) {
    // A timeout is a wedged backend (alive, not answering); anything else is a refused connection.
    return (e as Error).name === "TimeoutError";
  }
}

/** Sends one request; its answer classified (a hang after `hangMs`). Never throws. */
export async function send(b: Backend, path: string, init: RequestInit = {}, hangMs = HANG_MS): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${b.url}${path}`, {
      redirect: "manual",
      ...init,
      signal: AbortSignal.timeout(hangMs),
    });
    const text = await res.text();
    return { cls: classOf(res.status), status: res.status, detail: text.slice(0, 200), ms: performance.now() - t0 };
  } catch (e) {
    const ms = performance.now() - t0;
    const name = (e as Error).name;
    if (name === "TimeoutError" || name === "AbortError") {
      return { cls: "hang", status: null, detail: `no answer in ${hangMs} ms`, ms };
    }
    const cause = String((e as { cause?: unknown }).cause ?? e);
    return (await alive(b))
      ? { cls: "reset", status: null, detail: `connection closed without an answer: ${cause}`, ms }
      : { cls: "crash", status: null, detail: `backend gone: ${cause}`, ms };
  }
}

/** rawSend writes at most this much at a time. */
const RAW_PIECE_BYTES = 16 * 1024;
/** How long rawSend waits for an answer at its pause before writing on. */
const RAW_PAUSE_MS = 2000;
/**
 * The local backend's head limit (its HTTP server answers 400 once a request's head passes 64 KiB, and
 * closes): a head longer than this pauses there by default, so the answer is read before the rest is written
 * into a closed connection, whose reset would lose it (seen under load with a 1 MB header).
 */
const HEAD_LIMIT_BYTES = 64 * 1024;

/**
 * Sends a raw HTTP/1.1 request (`method`, `headers`, optional `body`) over a socket and reads what the
 * server answers, even when it answers (431, 414, 400) and closes before the client has finished writing
 * an oversize head or body: fetch reports that as a reset although the server did answer. With `pauseAt`
 * (a server's head limit), it stops there until answered, or for RAW_PAUSE_MS, before sending the rest.
 */
export function rawSend(
  b: Backend,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Uint8Array,
  options: { hangMs?: number; pauseAt?: number } = {},
): Promise<Answer> {
  const { hangMs = HANG_MS } = options;
  const t0 = performance.now();
  const url = new URL(b.url);
  return new Promise<Answer>((resolve) => {
    let got = "";
    let settled = false;
    const sock = connect(Number(url.port), url.hostname);
    const finish = async (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      const ms = performance.now() - t0;
      if (m) return resolve({ cls: classOf(Number(m[1])), status: Number(m[1]), detail: got.slice(0, 200), ms });
      if (why === "timeout") return resolve({ cls: "hang", status: null, detail: `no answer in ${hangMs} ms`, ms });
      resolve({ cls: (await alive(b)) ? "reset" : "crash", status: null, detail: `no answer: ${why}`, ms });
    };
    const timer = setTimeout(() => finish("timeout"), hangMs);
    sock.on("data", (d) => {
      got += d.toString("latin1");
      if (/\r\n\r\n/.test(got)) void finish("answered");
    });
    sock.on("error", (e) => void finish(String(e)));
    sock.on("close", () => void finish("closed"));
    const bytes = body === undefined ? undefined : Buffer.from(body);
    // The request target as fetch would send it (percent-encoded where a URL must be).
    const target = ((u) => u.pathname + u.search)(new URL(`${b.url}${path}`));
    const all = {
      host: url.host,
      connection: "close",
      ...headers,
      ...(bytes ? { "content-length": String(bytes.length) } : {}),
    };
    const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
    const head = Buffer.from(`${method} ${target} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`, "latin1");
    const request = Buffer.concat([head, bytes ?? Buffer.alloc(0)]);
    const pauseAt = options.pauseAt ?? (head.length > HEAD_LIMIT_BYTES ? HEAD_LIMIT_BYTES : undefined);
    // Written a piece at a time, with the event loop's poll between pieces, and no more once the server
    // has answered. Past `pauseAt` bytes (a server's head limit) it waits up to RAW_PAUSE_MS for an answer
    // before writing on: a server that refuses an oversize head answers and closes, and a client that kept
    // writing would meet the reset (the rest unread) before it read the answer.
    let paused = false;
    const writeFrom = (at: number) => {
      if (settled || got || at >= request.length) return;
      if (pauseAt !== undefined && at >= pauseAt && !paused) {
        paused = true;
        setTimeout(() => writeFrom(at), RAW_PAUSE_MS);
        return;
      }
      const end =
        pauseAt !== undefined && at < pauseAt ? Math.min(at + RAW_PIECE_BYTES, pauseAt) : at + RAW_PIECE_BYTES;
      sock.write(request.subarray(at, end), (err) => {
        if (!err) setImmediate(() => writeFrom(end));
      });
    };
    writeFrom(0);
  });
}

/** rawSend of a GET. */
export function rawGet(b: Backend, path: string, headers: Record<string, string>): Promise<Answer> {
  return rawSend(b, "GET", path, headers);
}

/** Headers of a request with the project key (the gateway refuses any without) and a token. */
export function authHeaders(b: Backend, token: string | null, json = true): Record<string, string> {
  return {
    apikey: b.anonKey,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(json ? { "content-type": "application/json" } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// Payloads

/** `depth` nested arrays: [[[...]]]. */
export const deepArray = (depth: number, inner = "1"): string => "[".repeat(depth) + inner + "]".repeat(depth);

/** `depth` nested objects: {"a":{"a":...}}. */
export const deepObject = (depth: number, inner = "1"): string => '{"a":'.repeat(depth) + inner + "}".repeat(depth);

/** A JSON object with `fields` ending in a deep value under `key`: {"key": <deep>, ...fields}. */
export function withDeep(fields: Record<string, unknown>, key: string, deep: string): string {
  const rest = JSON.stringify(fields).slice(1, -1);
  return `{${JSON.stringify(key)}:${deep}${rest ? "," + rest : ""}}`;
}

/** A JSON document of about `bytes` bytes: an object whose `key` is one long string. */
export function hugeJson(bytes: number, fields: Record<string, unknown> = {}, key = "padding"): string {
  return JSON.stringify({ ...fields, [key]: "x".repeat(bytes) });
}

/** Text no database should store or that hides what it says. */
export const HOSTILE_TEXT: Record<string, string> = {
  nul: "before\u0000after",
  "lone high surrogate": "before\ud800after",
  "lone low surrogate": "before\udc00after",
  "RTL override": "invoice\u202Egnp.exe",
  "zero-width": "a\u200Bb\u200Cc\u200Dd\uFEFFe",
};

/** A JSON string literal of `s` as a client would send it, lone surrogates escaped (\udxxx), not replaced. */
export function jsonText(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0x22 || c === 0x5c) out += "\\" + ch;
    else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

/** Percent-encodes `s` for a URL; a lone surrogate becomes its three WTF-8 bytes, as a hostile client sends it. */
export function pctEncode(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => "%" + b.toString(16).toUpperCase())
        .join("");
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** A JSON object whose listed string fields are written with jsonText (so lone surrogates survive). */
export function jsonWith(fields: Record<string, unknown>, texts: Record<string, string>): string {
  const parts = Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  for (const [k, v] of Object.entries(texts)) parts.push(`${JSON.stringify(k)}:${jsonText(v)}`);
  return `{${parts.join(",")}}`;
}

// Images that are tiny on the wire and claim enormous dimensions.

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A valid-looking PNG of `width` x `height` RGBA pixels whose IDAT is a short deflate stream of zeros:
 * a few kilobytes that inflate to width*height*4 bytes (gigabytes for 50,000 x 50,000).
 */
export function pngBomb(width = 50_000, height = 50_000): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  // The first rows only (16 MB of zeros deflate to ~16 KB); a decoder that trusts IHDR allocates the rest.
  const rows = Math.min(height, Math.floor((16 * 1024 * 1024) / (width * 4 + 1)) || 1);
  const idat = deflateSync(Buffer.alloc(rows * (width * 4 + 1)), { level: 9 });
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk("IHDR", ihdr),
      pngChunk("IDAT", idat),
      pngChunk("IEND", new Uint8Array()),
    ]),
  );
}

/** A GIF whose screen and frame claim 65,535 x 65,535 pixels, with a short LZW stream. */
export function gifBomb(): Uint8Array<ArrayBuffer> {
  const w = 0xffff;
  const h = 0xffff;
  return new Uint8Array([
    ...Buffer.from("GIF89a", "latin1"),
    w & 0xff,
    w >> 8,
    h & 0xff,
    h >> 8,
    0x80,
    0,
    0, // global colour table of 2 entries
    0,
    0,
    0,
    255,
    255,
    255,
    0x2c,
    0,
    0,
    0,
    0,
    w & 0xff,
    w >> 8,
    h & 0xff,
    h >> 8,
    0, // image descriptor
    2, // LZW minimum code size
    2,
    0x4c,
    0x01, // one data sub-block: clear code, then end of information
    0, // block terminator
    0x3b, // trailer
  ]);
}

/** A baseline JPEG header claiming 65,535 x 65,535 pixels, then the end of the image. */
export function jpegBomb(): Uint8Array<ArrayBuffer> {
  const sof = [0xff, 0xc0, 0, 17, 8, 0xff, 0xff, 0xff, 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([
    0xff,
    0xd8, // SOI
    0xff,
    0xe0,
    0,
    16,
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0, // APP0 JFIF
    ...sof,
    0xff,
    0xd9, // EOI
  ]);
}

export const dataUrl = (mime: string, bytes: Uint8Array): string =>
  `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;

export const gzip = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(gzipSync(Buffer.from(text)));

// Tokens.

const b64url = (v: string | Buffer) => Buffer.from(v).toString("base64url");

/** An HS256 JWT signed with `secret` (or `alg: none` and no signature). */
export function mintJwt(payload: Record<string, unknown>, secret: string | null, alg = "HS256"): string {
  const head = b64url(JSON.stringify({ alg: secret === null ? "none" : alg, typ: "JWT" }));
  const body = b64url(JSON.stringify(payload));
  if (secret === null) return `${head}.${body}.`;
  return `${head}.${body}.${createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url")}`;
}

/** Claims as the backend signs them for `sub`, valid for an hour unless `exp` says otherwise. */
export function claimsFor(sub: string, role = "authenticated", exp = Math.floor(Date.now() / 1000) + 3600) {
  return { sub, role, aud: "authenticated", exp, iat: Math.floor(Date.now() / 1000) - 10, email: "x@example.test" };
}

// ---------------------------------------------------------------------------------------------------
// Realtime

/**
 * Opens the realtime socket (vsn 2.0.0, as supabase-js does) and sends `frame` as is; the answer is
 * the first reply to it: `ok` is 2xx, `error` 4xx, a close 1011 (server error) 5xx, another close 4xx,
 * no reply and no close in HANG_MS a hang.
 */
export function realtimeProbe(b: Backend, frame: string): Promise<Answer> {
  const t0 = performance.now();
  const url = `${b.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${b.anonKey}&vsn=2.0.0`;
  return new Promise<Answer>((resolve) => {
    let settled = false;
    const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
    const done = (a: Omit<Answer, "ms">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        ws.terminate();
      } catch {
        /* already closed */
      }
      resolve({ ...a, ms: performance.now() - t0 });
    };
    const timer = setTimeout(() => done({ cls: "hang", status: null, detail: `no reply in ${HANG_MS} ms` }), HANG_MS);
    ws.on("open", () => ws.send(frame));
    ws.on("message", (data) => {
      const text = String(data);
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        return;
      }
      if (!Array.isArray(msg) || msg[3] !== "phx_reply") return;
      const status = (msg[4] as { status?: string } | null)?.status;
      done({ cls: status === "ok" ? "2xx" : "4xx", status: null, detail: text.slice(0, 200) });
    });
    ws.on("unexpected-response", (_req, res) =>
      done({ cls: classOf(res.statusCode ?? 500), status: res.statusCode ?? null, detail: "upgrade refused" }),
    );
    ws.on("close", (code, reason) =>
      done({
        cls: code === 1011 ? "5xx" : "4xx",
        status: code,
        detail: `closed ${code} ${String(reason).slice(0, 120)}`,
      }),
    );
    ws.on("error", async (e) => {
      if (settled) return;
      const up = await alive(b);
      done({ cls: up ? "reset" : "crash", status: null, detail: String(e) });
    });
  });
}

// ---------------------------------------------------------------------------------------------------
// Tally

export interface ProbeResult {
  database: string;
  family: string;
  probe: string;
  answer: Answer;
}

/** The table of answer classes per database and family, and the list of bad answers. */
export function report(results: ProbeResult[]): string {
  const keys = [...new Set(results.map((r) => `${r.database}\u0000${r.family}`))];
  const lines = [
    `${"database".padEnd(10)} ${"family".padEnd(22)} ${CLASSES.map((c) => c.padStart(5)).join(" ")}  probes`,
  ];
  for (const key of keys) {
    const [database, family] = key.split("\u0000");
    const rows = results.filter((r) => r.database === database && r.family === family);
    const counts = CLASSES.map((c) => String(rows.filter((r) => r.answer.cls === c).length).padStart(5));
    lines.push(`${database.padEnd(10)} ${family.padEnd(22)} ${counts.join(" ")}  ${String(rows.length).padStart(6)}`);
  }
  // HOSTILE_VERBOSE=1 lists every answer, not only the bad ones.
  const bad = results.filter((r) => process.env.HOSTILE_VERBOSE || BAD.has(r.answer.cls));
  if (bad.length) {
    lines.push("", process.env.HOSTILE_VERBOSE ? "Answers:" : "Bad answers:");
    for (const r of bad) {
      lines.push(
        `  [${r.database}] ${r.family} › ${r.probe}: ${r.answer.cls}${r.answer.status ? ` ${r.answer.status}` : ""}` +
          ` after ${r.answer.ms.toFixed(0)} ms — ${r.answer.detail.replace(/\s+/g, " ").slice(0, 160)}`,
      );
    }
  }
  return lines.join("\n");
}

/** A seeded generator (an LCG), so a generated probe that fails can be made again from its name. */
export function seeded(seed: number): { int(n: number): number; pick<T>(xs: readonly T[]): T } {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31);
  return { int: (n) => next() % n, pick: (xs) => xs[next() % xs.length] };
}

/**
 * Queries whose values Postgres compiles into recursive structures (decision 125): regular expressions
 * and text-search queries nested or repeated to a seeded depth, from well within the bounds to far past
 * them. Each is `[name, the value]`.
 */
export function pathologicalValues(seed: number, count: number): { regex: string[][]; tsquery: string[][] } {
  const r = seeded(seed);
  const regex: string[][] = [];
  const tsquery: string[][] = [];
  const depth = () => r.pick([2, 8, 40, 200, 1000, 3000, 8000]);
  for (let i = 0; i < count; i++) {
    const n = depth();
    regex.push(
      r.pick([
        [`${n} nested groups`, `${"(".repeat(n)}a${")".repeat(n)}`],
        [`${n} repeated bracket atoms`, "[a]".repeat(n)],
        [`(a{1,${n % 256}}){1,${n % 256}}`, `(a{1,${n % 256}}){1,${n % 256}}b`],
        [`${n} back references`, `(a*)*${"\\1".repeat(n)}`],
        [`${n} starred groups`, "(a*)*".repeat(n)],
      ]),
    );
    const m = depth();
    tsquery.push(
      r.pick([
        [`fts: ${m} nested parentheses`, `${"(".repeat(m)}cat${")".repeat(m)}`],
        [`fts: ${m} negations`, `${"!".repeat(m)}cat`],
        [`fts: ${m} negated groups`, `${"!(".repeat(m)}cat${")".repeat(m)}`],
        [`wfts: ${m} minus signs`, "-".repeat(m)],
        [`wfts: ${m} minus signs and spaces`, "- ".repeat(m) + "cat"],
        [`plfts: ${m} words`, "cat ".repeat(m)],
        [`phfts: ${m} words`, "cat dog ".repeat(m)],
      ]),
    );
  }
  return { regex, tsquery };
}
