// What the render pool (render-pool.ts) and a render process (render-process.ts) say to each other over
// the process's stdin and stdout: frames of [header length: u32][payload length: u32][header: JSON]
// [payload: bytes], big-endian. A request's header is { id, input } with the reference image's pixels
// as the payload; a reply's is { id, ok: true } with the PNG as the payload, or { id, ok: false,
// message }. Bytes travel as they are, never through JSON.
import type { RenderFn } from "../functions/_shared/providers/builtin.ts";

export type RenderInput = Parameters<RenderFn>[0];

/** A request's input without the reference's pixels, which travel as the frame's payload. */
type WireInput = Omit<RenderInput, "reference"> & {
  reference?: { width: number; height: number } | null;
};

export type RequestHeader = { id: number; input: WireInput };
export type ReplyHeader = { id: number; ok: true } | { id: number; ok: false; message: string };

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
  const wire: WireInput = reference ?
    { ...rest, reference: { width: reference.width, height: reference.height } } :
    rest;
  return encodeFrame({ id, input: wire } satisfies RequestHeader, reference?.rgba);
}

export function decodeRequest(header: RequestHeader, payload: Uint8Array): { id: number; input: RenderInput } {
  const { reference, ...rest } = header.input;
  return { id: header.id, input: reference ? { ...rest, reference: { ...reference, rgba: payload } } : rest };
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

/** Runs `serve` for every request read from stdin and writes its reply to stdout, until stdin ends. */
export async function serveRenders(
  serve: (input: RenderInput) => Promise<Uint8Array>,
): Promise<void> {
  const reader = new FrameReader();
  const out = Deno.stdout.writable.getWriter();
  for await (const chunk of Deno.stdin.readable) {
    for (const frame of reader.push(chunk)) {
      const { id, input } = decodeRequest(frame.header as RequestHeader, frame.payload);
      let reply: Uint8Array;
      try {
        reply = encodeFrame({ id, ok: true } satisfies ReplyHeader, await serve(input));
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        reply = encodeFrame({ id, ok: false, message } satisfies ReplyHeader);
      }
      await out.write(reply);
    }
  }
}
