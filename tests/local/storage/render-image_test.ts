// Image transformation of the local Storage API: the query is read with Supabase's names and ranges,
// the crop and output size follow cover / contain / fill without enlarging, the box filter averages
// what it covers, variants are WebP when the request accepts it, JPEG otherwise (or the stored format
// with format=origin), a non-image is a
// value and not an exception, the variant cache forgets the least recently used, and the worker
// answers what rendering in-process answers.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- the decoder the image module itself uses
import { decode as decodeJpeg } from "npm:jpeg-js@0.4.4";
// deno-lint-ignore no-import-prefix -- a WebP decoder, to read back what the encoder wrote
import decodeWebp, { init as initWebpDecoder } from "npm:@jsquash/webp@1.5.0/decode.js";
import { decodeImage } from "../../../supabase/functions/_shared/image/decode.ts";
import { encodePng } from "../../../supabase/functions/_shared/image/png.ts";
import {
  acceptsWebp,
  createVariantRenderer,
  downscale,
  parseTransform,
  plan,
  renderVariant,
  type Transform,
  VariantCache,
} from "../../../supabase/local/storage/render-image.ts";

const q = (s: string) => new URLSearchParams(s);
const tile: Transform = { width: 64, height: 64, resize: "cover", quality: 75, origin: false, webp: false };

/** A w x h opaque image: left half red, right half blue. */
function halves(w: number, h: number): Uint8Array {
  const px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) px.set(x < w / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * w + x) * 4);
  }
  return px;
}

Deno.test("the query reads width, height, resize, quality and format with Supabase's ranges", () => {
  const t = parseTransform(q("width=512&height=256&resize=contain&quality=60&format=origin"));
  assert.deepEqual(t, {
    ok: true,
    value: { width: 512, height: 256, resize: "contain", quality: 60, origin: true, webp: false },
  });
  assert.deepEqual(parseTransform(q("")), {
    ok: true,
    value: { width: null, height: null, resize: "cover", quality: 80, origin: false, webp: false },
  });
  for (
    const bad of [
      "width=0",
      "width=2501",
      "height=1.5",
      "quality=19",
      "quality=101",
      "resize=crop",
      "format=webp",
    ]
  ) {
    const r = parseTransform(q(bad));
    assert.equal(r.ok, false, bad);
    if (!r.ok) assert.equal(r.error.code, "InvalidRequest");
  }
});

Deno.test("the output is WebP when the Accept header names it, and the stored format with format=origin", () => {
  const browserImage = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
  const webp = (query: string, accept: string | null) => {
    const t = parseTransform(q(query), accept);
    assert.ok(t.ok);
    return t.value.webp;
  };
  assert.equal(webp("width=64", browserImage), true);
  assert.equal(webp("width=64", "image/webp,*/*;q=0.8"), true);
  assert.equal(webp("width=64", "IMAGE/WEBP"), true);
  assert.equal(webp("width=64", "*/*"), false); // fetch()'s default
  assert.equal(webp("width=64", null), false);
  assert.equal(webp("width=64&format=origin", browserImage), false);
  assert.equal(acceptsWebp("image/webp;q=0, */*"), false);
  assert.equal(acceptsWebp("image/webp;q=0.5"), true);
  assert.equal(acceptsWebp("image/webpx"), false);
});

Deno.test("cover crops the overflow evenly and never enlarges; contain and fill keep inside the box", () => {
  assert.deepEqual(plan(1024, 768, { width: 512, height: 512, resize: "cover" }), {
    crop: { x: 128, y: 0, w: 768, h: 768 },
    w: 512,
    h: 512,
  });
  // A box larger than the picture shrinks, keeping its shape, until it fits.
  assert.deepEqual(plan(300, 200, { width: 600, height: 600, resize: "cover" }), {
    crop: { x: 50, y: 0, w: 200, h: 200 },
    w: 200,
    h: 200,
  });
  assert.deepEqual(plan(1024, 768, { width: 512, height: 512, resize: "contain" }).w, 512);
  assert.deepEqual(plan(1024, 768, { width: 512, height: 512, resize: "contain" }).h, 384);
  assert.deepEqual(plan(1024, 768, { width: 100, height: 50, resize: "fill" }), {
    crop: { x: 0, y: 0, w: 1024, h: 768 },
    w: 100,
    h: 50,
  });
  // One side given: the other follows the aspect ratio.
  assert.deepEqual(plan(1024, 768, { width: 256, height: null, resize: "cover" }).h, 192);
  assert.deepEqual(plan(100, 100, { width: 400, height: null, resize: "cover" }).w, 100);
});

Deno.test("the box filter averages the pixels each output pixel covers", () => {
  const src = { width: 4, height: 2, rgba: halves(4, 2) };
  const out = downscale(src, { x: 0, y: 0, w: 4, h: 2 }, 2, 1);
  assert.deepEqual([...out], [255, 0, 0, 255, 0, 0, 255, 255]);
  const mixed = downscale(src, { x: 0, y: 0, w: 4, h: 2 }, 1, 1);
  assert.deepEqual([...mixed], [128, 0, 128, 255]);
});

Deno.test("a variant is a JPEG of the planned size; format=origin keeps a PNG a PNG", async () => {
  const png = await encodePng(halves(200, 100), 200, 100);
  const jpeg = await renderVariant(png, tile);
  assert.ok(jpeg.ok);
  assert.equal(jpeg.value.type, "image/jpeg");
  const decoded = decodeJpeg(jpeg.value.bytes);
  assert.equal(decoded.width, 64);
  assert.equal(decoded.height, 64);
  // The centre crop keeps both halves: red on the left, blue on the right.
  assert.ok(decoded.data[(32 * 64 + 4) * 4] > 200 && decoded.data[(32 * 64 + 4) * 4 + 2] < 60);
  assert.ok(decoded.data[(32 * 64 + 60) * 4 + 2] > 200 && decoded.data[(32 * 64 + 60) * 4] < 60);

  const kept = await renderVariant(png, { ...tile, origin: true });
  assert.ok(kept.ok);
  assert.equal(kept.value.type, "image/png");
  const back = decodeImage(kept.value.bytes);
  assert.ok(back.ok);
  assert.deepEqual([back.value.width, back.value.height], [64, 64]);
});

Deno.test("a WebP variant has the planned size and keeps colours and transparency", async () => {
  const wasm = new URL(import.meta.resolve("npm:@jsquash/webp@1.5.0/codec/dec/webp_dec.wasm"));
  await initWebpDecoder(await WebAssembly.compile(await Deno.readFile(wasm)));
  const px = halves(200, 100);
  // The bottom row of the left half is transparent: WebP keeps alpha, where JPEG lays it over white.
  for (let x = 0; x < 100; x++) px[(99 * 200 + x) * 4 + 3] = 0;
  const png = await encodePng(px, 200, 100);
  const webp = await renderVariant(png, { ...tile, webp: true });
  assert.ok(webp.ok);
  assert.equal(webp.value.type, "image/webp");
  const bytes = webp.value.bytes;
  assert.equal(new TextDecoder().decode(bytes.slice(0, 4)), "RIFF");
  assert.equal(new TextDecoder().decode(bytes.slice(8, 12)), "WEBP");
  const jpeg = await renderVariant(png, tile);
  assert.ok(jpeg.ok);
  assert.ok(bytes.length < jpeg.value.bytes.length, `WebP ${bytes.length} B, JPEG ${jpeg.value.bytes.length} B`);
  const image = await decodeWebp(bytes.slice().buffer);
  assert.deepEqual([image.width, image.height], [64, 64]);
  const at = (x: number, y: number) => [...image.data.slice((y * 64 + x) * 4, (y * 64 + x) * 4 + 4)];
  const [r, , b, a] = at(4, 32);
  assert.ok(r > 200 && b < 60 && a === 255, `left ${at(4, 32)}`);
  const right = at(60, 32);
  assert.ok(right[2] > 200 && right[0] < 60, `right ${right}`);
  // 64 output rows from 100 source rows: the last one averages a transparent and an opaque row.
  assert.ok(at(4, 63)[3] < 255, `bottom-left ${at(4, 63)}`);
});

Deno.test("bytes that are no image answer InvalidRequest instead of throwing", async () => {
  const r = await renderVariant(new TextEncoder().encode("<html>not a picture</html>"), tile);
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.error.code, "InvalidRequest");
});

Deno.test("the variant cache forgets the least recently used entry first", () => {
  const cache = new VariantCache(2);
  const v = (n: number) => ({ bytes: new Uint8Array([n]), type: "image/jpeg" });
  cache.set("a", v(1));
  cache.set("b", v(2));
  assert.ok(cache.get("a")); // a is now the most recent
  cache.set("c", v(3));
  assert.equal(cache.get("b"), undefined);
  assert.deepEqual(cache.get("a")?.bytes, new Uint8Array([1]));
  assert.deepEqual(cache.get("c")?.bytes, new Uint8Array([3]));
  assert.equal(cache.size, 2);
});

Deno.test("the render worker answers the same bytes as rendering in-process, and errors as values", async () => {
  const renderer = createVariantRenderer();
  try {
    const png = await encodePng(halves(120, 90), 120, 90);
    const here = await renderVariant(png.slice(), tile);
    const there = await renderer.render(png.slice(), tile);
    assert.ok(here.ok && there.ok);
    assert.deepEqual(there.value, here.value);
    const webpHere = await renderVariant(png.slice(), { ...tile, webp: true });
    const webpThere = await renderer.render(png.slice(), { ...tile, webp: true });
    assert.ok(webpHere.ok && webpThere.ok);
    assert.equal(webpThere.value.type, "image/webp");
    assert.deepEqual(webpThere.value, webpHere.value);
    const bad = await renderer.render(new Uint8Array([1, 2, 3]), tile);
    assert.equal(bad.ok, false);
  } finally {
    renderer.close();
  }
});
