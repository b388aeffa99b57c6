// What the render pool (render-pool.ts) and a render process (render-process.ts) say to each other over
// the process's stdin and stdout: frames of [header length: u32][payload length: u32][header: JSON]
// [payload: bytes], big-endian. Three kinds of job share the frames. A render's header is { id, input }
// with the reference image's pixels as the payload, or (input.reference.cells) what the engine reads of
// them; its reply is { id, ok: true } with the PNG as the payload. A decode's header is { id, decode: true }
// with an untrusted image file as the payload; its reply is { id, ok: true, image: { width, height, format } }
// with what the engine reads of the pixels as the payload (engine/reference.ts referenceCells), or
// { id, ok: false, message, code } when the file does not decode (a value, not a crash). A classify's
// header is { id, classify: true } with a stored image file as the payload; its reply is
// { id, ok: true, scores } (the image check's scores, no payload), or { id, ok: false, message, code }
// when the file does not decode. Any other failure is { id, ok: false, message }. Bytes travel as they
// are, never through JSON.
import { referenceCells } from "../functions/_shared/engine/reference.ts";
import type { DecodedImage } from "../functions/_shared/image/decode.ts";
import type { ImageErrorCode, ImageResult } from "../functions/_shared/image/result.ts";
import type { RenderFn } from "../functions/_shared/providers/builtin.ts";
import type { ImageScores } from "../functions/_shared/moderation/image-verdict.ts";

export type RenderInput = Parameters<RenderFn>[0];

/** A request's input without the reference's pixels, which travel as the frame's payload. */
/** A reference travels as its pixels, or (`cells`) as what the engine reads of them (engine/reference.ts). */
type WireInput = Omit<RenderInput, "reference"> & {
  reference?: { width: number; height: number; cells?: true } | null;
};

export type RequestHeader =
  | { id: number; input: WireInput }
  | { id: number; decode: true }
  | { id: number; classify: true };
export type ReplyHeader =
  | { id: number; ok: true; image?: Omit<DecodedImage, "rgba" | "cells">; scores?: ImageScores }
  | { id: number; ok: false; message: string; code?: ImageErrorCode };

/** What a process does with an untrusted image file: the shared decoder, with its limits. */
export type DecodeFn = (bytes: Uint8Array) => ImageResult<DecodedImage>;

/** What a process does with a stored image file: the image check (decode, then classify). */
export type ClassifyFn = (bytes: Uint8Array) => Promise<ImageResult<ImageScores>>;

/** No frame is larger: a 2500 px square render is about 19 MB as raw RGB, far less as PNG. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;
const PREFIX = 8;

export function encodeFrame(header: unknown, payload: Uint8Array = new Uint8Array()): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const frame = new Uint8Array(PREFIX + json.length + payload.length);
  const view = new DataView(frame.buffer);
  view.setUint32(0, json.length);
  view.setUint32(4, payload.length);
  frame.set(json, PREFIX);
  frame.set(payload, PREFIX + json.length);
  return frame;
}

export function encodeRequest(id: number, input: RenderInput): Uint8Array {
  const { reference, ...rest } = input;
  if (reference?.cells) {
    const wire: WireInput = { ...rest, reference: { width: reference.width, height: reference.height, cells: true } };
    return encodeFrame({ id, input: wire } satisfies RequestHeader, bytesOf(reference.cells));
  }
  const wire: WireInput = reference ?
    { ...rest, reference: { width: reference.width, height: reference.height } } :
    rest;
  return encodeFrame({ id, input: wire } satisfies RequestHeader, reference?.rgba);
}

const bytesOf = (cells: Float32Array) => new Uint8Array(cells.buffer, cells.byteOffset, cells.byteLength);
/** Cells from a frame's payload (an array of its own at offset 0, so aligned for floats). */
const cellsOf = (payload: Uint8Array) =>
  new Float32Array(payload.buffer, payload.byteOffset, payload.byteLength / Float32Array.BYTES_PER_ELEMENT);

export function encodeDecodeRequest(id: number, file: Uint8Array): Uint8Array {
  return encodeFrame({ id, decode: true } satisfies RequestHeader, file);
}

export function encodeClassifyRequest(id: number, file: Uint8Array): Uint8Array {
  return encodeFrame({ id, classify: true } satisfies RequestHeader, file);
}

export function decodeRequest(
  header: { id: number; input: WireInput },
  payload: Uint8Array,
): { id: number; input: RenderInput } {
  const { reference, ...rest } = header.input;
  if (!reference) return { id: header.id, input: rest };
  const { cells, ...size } = reference;
  const ref = cells ? { ...size, rgba: new Uint8Array(0), cells: cellsOf(payload) } : { ...size, rgba: payload };
  return { id: header.id, input: { ...rest, reference: ref } };
}

/**
 * A decode job's reply as the decoder's result: its size and format, and what the engine reads of the
 * pixels (the frame's payload), with no pixels.
 */
export function decodeReply(header: ReplyHeader, payload: Uint8Array): ImageResult<DecodedImage> | null {
  if (header.ok) {
    return header.image ?
      { ok: true, value: { ...header.image, rgba: new Uint8Array(0), cells: cellsOf(payload) } } :
      null;
  }
  return header.code ? { ok: false, error: { code: header.code, message: header.message } } : null;
}

/** A classify job's reply as the image check's own result. */
export function classifyReply(header: ReplyHeader): ImageResult<ImageScores> | null {
  if (header.ok) return header.scores ? { ok: true, value: header.scores } : null;
  return header.code ? { ok: false, error: { code: header.code, message: header.message } } : null;
}

/**
 * Splits a byte stream into frames, whatever sizes its chunks come in. Chunks are kept as they come and
 * joined once a frame is whole: a PNG reply arrives in pipe-sized pieces (64 KiB), and joining the whole
 * buffer again at every piece copied a 1 MB image about twenty times
 * (docs/decisions/122-less-cpu-around-each-render.md).
 */
export class FrameReader {
  #chunks: Uint8Array[] = [];
  /** Index of the first chunk not yet consumed (taken chunks are dropped in one go, not one by one). */
  #first = 0;
  #length = 0;

  /** Adds a chunk; answers every frame now complete, in order. Throws on a frame no writer would send. */
  push(chunk: Uint8Array): { header: unknown; payload: Uint8Array }[] {
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#length += chunk.length;
    }
    const frames: { header: unknown; payload: Uint8Array }[] = [];
    while (this.#length >= PREFIX) {
      const view = new DataView(this.#peek(PREFIX).buffer);
      const headerLength = view.getUint32(0);
      const payloadLength = view.getUint32(4);
      if (headerLength + payloadLength > MAX_FRAME_BYTES) throw new Error("render frame too large");
      const size = PREFIX + headerLength + payloadLength;
      if (this.#length < size) break;
      const head = this.#take(PREFIX + headerLength);
      const header = JSON.parse(new TextDecoder().decode(head.subarray(PREFIX)));
      // The payload is an array of its own (offset 0, its own buffer), as a copy was before.
      frames.push({ header, payload: this.#take(payloadLength) });
    }
    return frames;
  }

  /** The first `n` buffered bytes, copied (n is at most a frame's prefix). */
  #peek(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = 0;
    for (let k = this.#first; k < this.#chunks.length && at < n; k++) {
      const part = this.#chunks[k].subarray(0, n - at);
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /** Removes and answers the first `n` buffered bytes as one array of their own. */
  #take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const c = this.#chunks[this.#first];
      const want = n - at;
      if (c.length <= want) {
        out.set(c, at);
        at += c.length;
        this.#first++;
      } else {
        out.set(c.subarray(0, want), at);
        // The rest is kept as a view; what a frame hands on is always a fresh array, so it pins no
        // read buffer.
        this.#chunks[this.#first] = c.subarray(want);
        at = n;
      }
    }
    this.#chunks = this.#chunks.slice(this.#first);
    this.#first = 0;
    this.#length -= n;
    return out;
  }
}

/**
 * Runs every request read from stdin, a render with `render`, a decode with `decode` and a classify with
 * `classify`, and writes its reply to stdout, until stdin ends.
 */
export async function serveRenders(
  render: (input: RenderInput) => Promise<Uint8Array>,
  decode?: DecodeFn,
  classify?: ClassifyFn,
): Promise<void> {
  // Stdout carries the frames alone: a library's message there (omggif logs a short GIF stream with
  // console.log) would break the protocol and cost the process, so the console writes to stderr.
  console.log = console.info = console.debug = console.error;
  const reader = new FrameReader();
  const out = Deno.stdout.writable.getWriter();
  for await (const chunk of Deno.stdin.readable) {
    for (const frame of reader.push(chunk)) {
      const header = frame.header as RequestHeader;
      let reply: Uint8Array;
      try {
        reply = "decode" in header ?
          decodeAnswer(header.id, frame.payload, decode) :
          "classify" in header ?
          await classifyAnswer(header.id, frame.payload, classify) :
          await renderAnswer(decodeRequest(header, frame.payload), render);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        reply = encodeFrame({ id: header.id, ok: false, message } satisfies ReplyHeader);
      }
      await out.write(reply);
    }
  }
}

async function renderAnswer(
  { id, input }: { id: number; input: RenderInput },
  render: (input: RenderInput) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  return encodeFrame({ id, ok: true } satisfies ReplyHeader, await render(input));
}

function decodeAnswer(id: number, file: Uint8Array, decode: DecodeFn | undefined): Uint8Array {
  if (!decode) throw new Error("this process does not decode images");
  const result = decode(file);
  if (!result.ok) {
    return encodeFrame({ id, ok: false, message: result.error.message, code: result.error.code } satisfies ReplyHeader);
  }
  // What the engine reads of the pixels, not the pixels: a 16 MP reference is 64 MB, which the server's event
  // loop would copy in and out again, against 12 KB (decision 161).
  const { rgba, cells: _none, ...image } = result.value;
  return encodeFrame({ id, ok: true, image } satisfies ReplyHeader, bytesOf(referenceCells({ ...image, rgba })));
}

async function classifyAnswer(id: number, file: Uint8Array, classify: ClassifyFn | undefined): Promise<Uint8Array> {
  if (!classify) throw new Error("this process does not classify images");
  const result = await classify(file);
  if (!result.ok) {
    return encodeFrame({ id, ok: false, message: result.error.message, code: result.error.code } satisfies ReplyHeader);
  }
  return encodeFrame({ id, ok: true, scores: result.value } satisfies ReplyHeader);
}
