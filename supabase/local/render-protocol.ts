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

/** Splits a byte stream into frames, whatever sizes its chunks come in. */
export class FrameReader {
  #buffer = new Uint8Array(0);

  /** Adds a chunk; answers every frame now complete, in order. Throws on a frame no writer would send. */
  push(chunk: Uint8Array): { header: unknown; payload: Uint8Array }[] {
    const joined = new Uint8Array(this.#buffer.length + chunk.length);
    joined.set(this.#buffer);
    joined.set(chunk, this.#buffer.length);
    const frames: { header: unknown; payload: Uint8Array }[] = [];
    let at = 0;
    while (joined.length - at >= PREFIX) {
      const view = new DataView(joined.buffer, at, PREFIX);
      const headerLength = view.getUint32(0);
      const payloadLength = view.getUint32(4);
      if (headerLength + payloadLength > MAX_FRAME_BYTES) throw new Error("render frame too large");
      const end = at + PREFIX + headerLength + payloadLength;
      if (joined.length < end) break;
      const header = JSON.parse(new TextDecoder().decode(joined.subarray(at + PREFIX, at + PREFIX + headerLength)));
      // A copy, so the payload does not pin the whole read buffer.
      frames.push({ header, payload: joined.slice(at + PREFIX + headerLength, end) });
      at = end;
    }
    this.#buffer = joined.slice(at);
    return frames;
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
