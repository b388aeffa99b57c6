// The frames between the render pool and its processes: whatever sizes the pipe cuts a stream into,
// every frame comes out whole, in order, with its payload in an array of its own.
import assert from "node:assert/strict";
import { encodeFrame, FrameReader } from "../../supabase/local/render-protocol.ts";

function stream(): { bytes: Uint8Array; sent: { header: unknown; payload: Uint8Array }[] } {
  const sent = [
    { header: { id: 1, ok: true }, payload: Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) % 251) },
    { header: { id: 2, ok: false, message: "no" }, payload: new Uint8Array(0) },
    { header: { id: 3, ok: true }, payload: Uint8Array.from({ length: 70_000 }, (_, i) => i % 253) },
  ];
  const frames = sent.map((f) => encodeFrame(f.header, f.payload));
  const bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    bytes.set(f, at);
    at += f.length;
  }
  return { bytes, sent };
}

Deno.test("frames come out whole and in order whatever the chunk sizes", () => {
  const { bytes, sent } = stream();
  // One byte at a time, a prefix split across chunks, pipe-sized chunks, and the stream in one piece.
  for (const sizes of [[1], [3, 5, 7], [65_536], [bytes.length], [7, 65_536, 13, 100_000]]) {
    const reader = new FrameReader();
    const got: { header: unknown; payload: Uint8Array }[] = [];
    let at = 0;
    for (let k = 0; at < bytes.length; k++) {
      const size = sizes[k % sizes.length];
      got.push(...reader.push(bytes.subarray(at, at + size)));
      at += size;
    }
    assert.equal(got.length, sent.length, `chunks of ${sizes.join("/")}`);
    got.forEach((frame, i) => {
      assert.deepEqual(frame.header, sent[i].header);
      assert.deepEqual(frame.payload, sent[i].payload);
      assert.equal(frame.payload.byteOffset, 0, "a payload is an array of its own");
      assert.equal(frame.payload.buffer.byteLength, sent[i].payload.length);
    });
  }
});

Deno.test("a frame no writer would send is refused, and an empty chunk changes nothing", () => {
  const reader = new FrameReader();
  assert.deepEqual(reader.push(new Uint8Array(0)), []);
  const prefix = new Uint8Array(8);
  new DataView(prefix.buffer).setUint32(4, 300 * 1024 * 1024);
  assert.throws(() => reader.push(prefix), /too large/);
});
