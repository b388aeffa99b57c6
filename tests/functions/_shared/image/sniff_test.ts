// Format and size from the leading bytes, never from a declared type or a file name.
import assert from "node:assert/strict";
import { encodePng } from "../../../../supabase/functions/_shared/image/png.ts";
import { sniffFormat, sniffImage } from "../../../../supabase/functions/_shared/image/sniff.ts";

const fixture = (name: string) => Deno.readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));

Deno.test("sniffs formats from their bytes, not from names", () => {
  const ascii = (s: string) => new TextEncoder().encode(s);
  assert.equal(sniffFormat(fixture("chromium-halves.png")), "png");
  assert.equal(sniffFormat(fixture("chromium-halves.jpeg")), "jpeg");
  assert.equal(sniffFormat(fixture("chromium-halves.webp")), "webp");
  assert.equal(sniffFormat(ascii("GIF87a......")), "gif");
  assert.equal(sniffFormat(ascii("BM\0\0\0\0\0\0\0\0\0\0\0\0\0\0")), "bmp");
  assert.equal(sniffFormat(ascii("\0\0\0\x1cftypavif\0\0\0\0")), "avif");
  assert.equal(sniffFormat(ascii("  <?xml version='1.0'?><svg xmlns='x'></svg>")), "svg");
  assert.equal(sniffFormat(ascii("hello, this is text")), null);
});

Deno.test("reads the storable formats' size and names their content type and extension", async () => {
  assert.deepEqual(sniffImage(await encodePng(new Uint8Array(7 * 5 * 4).fill(9), 7, 5)), {
    contentType: "image/png",
    extension: "png",
    width: 7,
    height: 5,
  });
  assert.deepEqual(sniffImage(fixture("chromium-halves.jpeg")), {
    contentType: "image/jpeg",
    extension: "jpg",
    width: 12,
    height: 8,
  });
  assert.deepEqual(sniffImage(fixture("chromium-halves.webp")), {
    contentType: "image/webp",
    extension: "webp",
    width: 12,
    height: 8,
  });
  const gif = new Uint8Array([...new TextEncoder().encode("GIF89a"), 3, 0, 2, 0, 0, 0, 0]);
  assert.deepEqual(sniffImage(gif), { contentType: "image/gif", extension: "gif", width: 3, height: 2 });
  // A format that is an image but not one we store, and text, are not storable images.
  assert.equal(sniffImage(new TextEncoder().encode("BM\0\0\0\0\0\0\0\0\0\0\0\0\0\0")), null);
  assert.equal(sniffImage(new TextEncoder().encode("hello")), null);
});
