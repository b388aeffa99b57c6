// The hand-written PNG encoder (docs/decisions/015-built-in-engine-is-a-procedural-renderer.md): what it writes decodes back to the same pixels.
import assert from "node:assert/strict";
import { decodeImage } from "../../../../supabase/functions/_shared/image/decode.ts";
import { encodePng } from "../../../../supabase/functions/_shared/image/png.ts";

Deno.test("encodes RGBA pixels to a PNG that decodes back to the same pixels", async () => {
  const width = 37,
    height = 23;
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 37 + (i >> 5) * 11) & 255;
  const png = await encodePng(rgba, width, height);
  const back = decodeImage(png);
  assert.ok(back.ok);
  assert.equal(back.value.width, width);
  assert.equal(back.value.height, height);
  assert.deepEqual(back.value.rgba, rgba);
});

Deno.test("writes RGB (colour type 2) when every pixel is opaque, and it round-trips", async () => {
  const width = 64,
    height = 48;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set([x * 4, y * 5, (x * y) & 255, 255], (y * width + x) * 4);
  }
  const png = await encodePng(rgba, width, height, { text: { Software: "test" } });
  assert.equal(png[25], 2, "IHDR colour type");
  const back = decodeImage(png);
  assert.ok(back.ok);
  assert.deepEqual(back.value.rgba, rgba);
});

Deno.test("encodes 3-channel input directly", async () => {
  const rgb = new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);
  const back = decodeImage(await encodePng(rgb, 2, 2, { channels: 3 }));
  assert.ok(back.ok);
  assert.deepEqual([...back.value.rgba], [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 255]);
});

Deno.test("refuses to encode a buffer of the wrong length", async () => {
  await assert.rejects(() => encodePng(new Uint8Array(10), 2, 2), RangeError);
});
