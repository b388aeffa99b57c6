// Decoding untrusted reference images: PNG (fast-png behind the header and inflate guards), JPEG (jpeg-js),
// GIF (omggif), data URLs, and the limits on uploads. Fixtures: chromium-halves.{png,jpeg,webp} and
// chromium-alpha.png were written by Chromium's own encoders (canvas.toDataURL in /usr/bin/chromium): a
// 12x8 image, left half #ff0000, right half #0000ff; a 4x2 image whose columns 0-1 are opaque green and
// column 2 is 50% yellow. Other PNG variants are assembled with node:zlib (assemblePng), independently of
// any encoder under test.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- the same specifier the decoder under test uses
import { encode as encodeJpeg } from "npm:jpeg-js@0.4.4";
import {
  decodeImage,
  inspectImage,
  jpegBytesFloor,
  parseDataUrl,
} from "../../../../supabase/functions/_shared/image/decode.ts";
import { encodePng } from "../../../../supabase/functions/_shared/image/png.ts";
import { assemblePng } from "../../fakes/fake-server.ts";
import { jpegDeclaring } from "../../fixtures/jpeg-declaring.ts";

const fixture = (name: string) => Deno.readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));

function pixel(img: { width: number; rgba: Uint8Array }, x: number, y: number): number[] {
  const k = (y * img.width + x) * 4;
  return [...img.rgba.subarray(k, k + 4)];
}

function near(actual: number[], expected: number[], tolerance: number, what: string): void {
  assert.ok(
    actual.every((v, i) => Math.abs(v - expected[i]) <= tolerance),
    `${what}: got ${actual}, expected ~${expected}`,
  );
}

/** A 2-bit GIF palette: index 0 red, 1 blue. */
const RED_BLUE = [
  [255, 0, 0],
  [0, 0, 255],
  [0, 0, 0],
  [0, 0, 0],
];

/** Unfiltered scanlines (filter byte 0 before each row). */
function rows(list: number[][]): Uint8Array {
  return new Uint8Array(list.flatMap((r) => [0, ...r]));
}

/** A GIF whose LZW stream resets before codes grow, so it needs no dictionary (an independent writer). */
function assembleGif(width: number, height: number, palette: number[][], indices: number[]): Uint8Array {
  const minCode = 2,
    clear = 4,
    end = 5,
    size = 3;
  const bits: number[] = [];
  const put = (code: number) => {
    for (let b = 0; b < size; b++) bits.push((code >> b) & 1);
  };
  put(clear);
  indices.forEach((p, i) => {
    if (i > 0 && i % 2 === 0) put(clear);
    put(p);
  });
  put(end);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((v, b, k) => v | (b << k), 0));
  const blocks: number[] = [];
  for (let i = 0; i < data.length; i += 255) blocks.push(Math.min(255, data.length - i), ...data.slice(i, i + 255));
  const le = (v: number) => [v & 255, v >> 8];
  return new Uint8Array([
    ...new TextEncoder().encode("GIF89a"),
    ...le(width),
    ...le(height),
    0xf1,
    0,
    0,
    ...palette.flat(),
    0x2c,
    0,
    0,
    0,
    0,
    ...le(width),
    ...le(height),
    0,
    minCode,
    ...blocks,
    0,
    0x3b,
  ]);
}

Deno.test("decodes the PNG written by Chromium's encoder", () => {
  const img = decodeImage(fixture("chromium-halves.png"));
  assert.ok(img.ok, img.ok ? "" : img.error.message);
  assert.equal(img.value.width, 12);
  assert.equal(img.value.height, 8);
  assert.deepEqual(pixel(img.value, 0, 0), [255, 0, 0, 255]);
  assert.deepEqual(pixel(img.value, 11, 7), [0, 0, 255, 255]);
});

Deno.test("decodes partial transparency from Chromium's PNG", () => {
  const img = decodeImage(fixture("chromium-alpha.png"));
  assert.ok(img.ok);
  near(pixel(img.value, 0, 1), [0, 128, 0, 255], 1, "opaque green");
  near(pixel(img.value, 2, 0), [255, 255, 0, 128], 2, "half yellow");
  assert.equal(pixel(img.value, 3, 0)[3], 0, "untouched pixel is transparent");
});

Deno.test("decodes palette PNGs at 8 and 1 bits with tRNS", () => {
  const plte = new Uint8Array([255, 0, 0, 0, 0, 255]);
  const trns = new Uint8Array([255, 100]);
  const eight = decodeImage(
    assemblePng({ width: 3, height: 1, depth: 8, colorType: 3 }, rows([[0, 1, 0]]), [
      ["PLTE", plte],
      ["tRNS", trns],
    ]),
  );
  assert.ok(eight.ok);
  assert.deepEqual([...eight.value.rgba], [255, 0, 0, 255, 0, 0, 255, 100, 255, 0, 0, 255]);
  const one = decodeImage(
    assemblePng({ width: 10, height: 1, depth: 1, colorType: 3 }, rows([[0b10100000, 0b01000000]]), [["PLTE", plte]]),
  );
  assert.ok(one.ok);
  const alphaOne = [...one.value.rgba].filter((_, i) => i % 4 === 2);
  assert.deepEqual(alphaOne, [255, 0, 255, 0, 0, 0, 0, 0, 0, 255]);
});

Deno.test("decodes 16-bit grey, grey with alpha, 2-bit grey and filtered rows", () => {
  const g16 = decodeImage(
    assemblePng({ width: 2, height: 1, depth: 16, colorType: 0 }, rows([[0x12, 0x34, 0xff, 0xff]])),
  );
  assert.ok(g16.ok);
  assert.deepEqual([...g16.value.rgba], [0x12, 0x12, 0x12, 255, 255, 255, 255, 255]);
  const ga = decodeImage(assemblePng({ width: 1, height: 1, depth: 8, colorType: 4 }, rows([[77, 9]])));
  assert.ok(ga.ok);
  assert.deepEqual([...ga.value.rgba], [77, 77, 77, 9]);
  const g2 = decodeImage(assemblePng({ width: 4, height: 1, depth: 2, colorType: 0 }, rows([[0b00011011]])));
  assert.ok(g2.ok);
  assert.deepEqual(
    [...g2.value.rgba].filter((_, i) => i % 4 === 0),
    [0, 85, 170, 255],
  );
  // Sub filter on row 0, Up on row 1, Paeth on row 2, of an RGB image 2 px wide.
  const raw = new Uint8Array([1, 10, 20, 30, 5, 5, 5, 2, 1, 1, 1, 1, 1, 1, 4, 2, 2, 2, 2, 2, 2]);
  const filtered = decodeImage(assemblePng({ width: 2, height: 3, depth: 8, colorType: 2 }, raw));
  assert.ok(filtered.ok);
  assert.deepEqual(pixel(filtered.value, 1, 0).slice(0, 3), [15, 25, 35]);
  assert.deepEqual(pixel(filtered.value, 0, 1).slice(0, 3), [11, 21, 31]);
  assert.deepEqual(pixel(filtered.value, 1, 2).slice(0, 3), [18, 28, 38]);
});

Deno.test("decodes Adam7-interlaced PNGs", () => {
  // 3x3 grey: pass 1 holds (0,0); pass 4 holds (2,0); pass 5 holds (0,2),(2,2); pass 6 holds (1,0),(1,2);
  // pass 7 holds row 1. Values are x + 10y so the placement is checked.
  const raw = new Uint8Array([0, 0, 0, 2, 0, 20, 22, 0, 1, 0, 21, 0, 10, 11, 12]);
  const img = decodeImage(assemblePng({ width: 3, height: 3, depth: 8, colorType: 0, interlace: 1 }, raw));
  assert.ok(img.ok, img.ok ? "" : img.error.message);
  assert.deepEqual(
    [...img.value.rgba].filter((_, i) => i % 4 === 0),
    [0, 1, 2, 10, 11, 12, 20, 21, 22],
  );
});

Deno.test("rejects a PNG with a broken chunk CRC or truncated data", async () => {
  const png = await encodePng(new Uint8Array(16 * 16 * 4).fill(200), 16, 16);
  const broken = png.slice();
  broken[20] ^= 0xff;
  const crc = decodeImage(broken);
  assert.equal(crc.ok ? "" : crc.error.code, "image_corrupt");
  const cut = decodeImage(png.subarray(0, png.length - 20));
  assert.equal(cut.ok, false);
});

Deno.test("refuses image data that inflates past the declared size (a decompression bomb)", () => {
  const bomb = assemblePng({ width: 10, height: 10, depth: 8, colorType: 2 }, new Uint8Array(20_000_000));
  const result = decodeImage(bomb);
  assert.equal(result.ok ? "" : result.error.code, "image_corrupt");
});

Deno.test("decodes the JPEG written by Chromium", () => {
  const img = decodeImage(fixture("chromium-halves.jpeg"));
  assert.ok(img.ok, img.ok ? "" : img.error.message);
  assert.equal(img.value.format, "jpeg");
  assert.equal(img.value.width, 12);
  assert.equal(img.value.height, 8);
  near(pixel(img.value, 1, 4), [255, 0, 0, 255], 40, "left half");
  near(pixel(img.value, 10, 4), [0, 0, 255, 255], 40, "right half");
});

Deno.test("decodes a JPEG written by jpeg-js", () => {
  const width = 32,
    height = 16,
    data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data.set([i % width < 16 ? 240 : 20, 120, i % width < 16 ? 20 : 240, 255], i * 4);
  }
  const jpeg = encodeJpeg({ width, height, data }, 95).data;
  const img = decodeImage(new Uint8Array(jpeg));
  assert.ok(img.ok);
  near(pixel(img.value, 4, 8), [240, 120, 20, 255], 30, "left");
  near(pixel(img.value, 28, 8), [20, 120, 240, 255], 30, "right");
});

Deno.test("decodes a GIF's first frame", () => {
  const indices = Array.from({ length: 24 }, (_, i) => (i % 6 < 3 ? 0 : 1));
  const gif = assembleGif(6, 4, RED_BLUE, indices);
  const img = decodeImage(gif);
  assert.ok(img.ok, img.ok ? "" : img.error.message);
  assert.equal(img.value.format, "gif");
  assert.deepEqual(pixel(img.value, 0, 0), [255, 0, 0, 255]);
  assert.deepEqual(pixel(img.value, 5, 3), [0, 0, 255, 255]);
});

Deno.test("names WebP as a real but unsupported format", () => {
  const result = decodeImage(fixture("chromium-halves.webp"));
  assert.equal(result.ok, false);
  assert.equal(result.ok ? "" : result.error.code, "image_unsupported_format");
  assert.match(result.ok ? "" : result.error.message, /WEBP/);
});

Deno.test("rejects a text file sent as a data URL labelled image/png", () => {
  const url = `data:image/png;base64,${btoa("just some text pretending to be a picture")}`;
  const parsed = parseDataUrl(url, 1024);
  assert.ok(parsed.ok);
  assert.equal(parsed.value.declaredType, "image/png");
  const decoded = decodeImage(parsed.value.bytes);
  assert.equal(decoded.ok ? "" : decoded.error.code, "image_not_an_image");
  const svg = decodeImage(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"));
  assert.equal(svg.ok ? "" : svg.error.code, "image_unsupported_format");
});

Deno.test("decodes a real PNG sent as a data URL labelled with the wrong type", () => {
  const bytes = fixture("chromium-halves.png");
  const url = `data:image/jpeg;base64,${btoa(String.fromCharCode(...bytes))}`;
  const parsed = parseDataUrl(url, 1024);
  assert.ok(parsed.ok);
  const img = decodeImage(parsed.value.bytes);
  assert.ok(img.ok);
  assert.equal(img.value.format, "png");
});

Deno.test("rejects malformed data URLs", () => {
  for (
    const bad of [
      "http://example.com/x.png",
      "data:image/png,notbase64",
      "data:image/png;base64,abc$",
      "data:image/png;base64,abcde",
      "data:image/png;base64,",
    ]
  ) {
    const result = parseDataUrl(bad, 1024);
    assert.equal(result.ok ? "" : result.error.code, "image_invalid_data_url", bad);
  }
});

Deno.test("rejects oversize uploads before decoding them", async () => {
  const big = `data:image/png;base64,${"A".repeat(4 * 1000)}`;
  const tooMany = parseDataUrl(big, 2000);
  assert.equal(tooMany.ok ? "" : tooMany.error.code, "image_too_large");
  const bytes = decodeImage(new Uint8Array(11 * 1024 * 1024));
  assert.equal(bytes.ok ? "" : bytes.error.code, "image_too_large");

  // Headers that declare more pixels than allowed are refused from the header alone.
  const wide = assemblePng({ width: 5000, height: 10, depth: 8, colorType: 2 }, new Uint8Array(1));
  assert.equal(((r) => (r.ok ? "" : r.error.code))(decodeImage(wide)), "image_too_large");
  const manyPixels = assemblePng({ width: 4096, height: 4000, depth: 8, colorType: 2 }, new Uint8Array(1));
  assert.equal(((r) => (r.ok ? "" : r.error.code))(decodeImage(manyPixels)), "image_too_large");
  const jpeg = fixture("chromium-halves.jpeg").slice();
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] === 0xc0) {
      jpeg.set([0x40, 0x00, 0x40, 0x00], i + 5);
      break;
    }
  }
  assert.equal(((r) => (r.ok ? "" : r.error.code))(decodeImage(jpeg)), "image_too_large");
  const small = await encodePng(new Uint8Array(8 * 8 * 4).fill(255), 8, 8);
  const limited = decodeImage(small, { maxBytes: 1_000_000, maxDimension: 4, maxPixels: 100 });
  assert.equal(limited.ok ? "" : limited.error.code, "image_too_large");
});

Deno.test("refuses a PNG declaring a huge size from its header, before any image data is read", () => {
  // The image data is not even valid zlib: an answer other than image_too_large would mean it was inflated.
  const garbage = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  const bomb = assemblePng({ width: 100_000, height: 100_000, depth: 8, colorType: 6 }, new Uint8Array(0));
  const withGarbage = bomb.slice();
  // Overwrite the IDAT payload (a deflated empty stream) with bytes that would fail to inflate.
  withGarbage.set(garbage.subarray(0, 8), 33 + 8);
  for (const png of [bomb, withGarbage]) {
    const result = decodeImage(png);
    assert.equal(result.ok ? "" : result.error.code, "image_too_large");
    assert.match(result.ok ? "" : result.error.message, /100000x100000/);
  }
});

Deno.test("refuses a truncated GIF with a clear message", () => {
  const indices = Array.from({ length: 64 }, (_, i) => i % 2);
  const gif = assembleGif(8, 8, RED_BLUE, indices);
  assert.ok(decodeImage(gif).ok, "the whole file decodes");
  // Cut inside the image data, right after the colour table (no frame at all), and inside the header.
  for (const cut of [gif.length - 6, 13 + 12, 8]) {
    const result = decodeImage(gif.subarray(0, cut));
    assert.equal(result.ok ? "" : result.error.code, "image_corrupt", `cut at ${cut}`);
    assert.match(result.ok ? "" : result.error.message, /GIF is truncated/, `cut at ${cut}`);
  }
});

Deno.test("refuses a GIF whose frame lies outside its logical screen", () => {
  const gif = assembleGif(
    2,
    2,
    [
      [1, 2, 3],
      [4, 5, 6],
      [0, 0, 0],
      [0, 0, 0],
    ],
    [0, 1, 1, 0],
  );
  const shrunk = gif.slice();
  shrunk[6] = 1; // the screen is now 1 px wide; the 2 px frame no longer fits
  const result = decodeImage(shrunk);
  assert.equal(result.ok ? "" : result.error.code, "image_corrupt");
  assert.match(result.ok ? "" : result.error.message, /outside/);
});

Deno.test("refuses a small JPEG declaring millions of pixels from its size alone, without decoding it", () => {
  // The attack: ~1 KB whose header claims 4000x4000 (exactly the pixel limit). jpeg-js would fill the
  // missing data with zeros and spend most of a second (and 64 MB) producing a grey picture.
  const bomb = jpegDeclaring(4000, 4000);
  assert.ok(bomb.length < 2000, `${bomb.length} bytes`);
  const inspected = inspectImage(bomb);
  assert.equal(inspected.ok ? "" : inspected.error.code, "image_corrupt");
  const started = performance.now();
  const decoded = decodeImage(bomb);
  const ms = performance.now() - started;
  assert.equal(decoded.ok ? "" : decoded.error.code, "image_corrupt");
  assert.match(decoded.ok ? "" : decoded.error.message, /4000x4000 but its \d+ bytes cannot hold/);
  assert.ok(ms < 50, `refused in ${ms.toFixed(1)} ms`);
});

Deno.test("the JPEG size floor is one bit per 8x8 block, so real JPEGs of any size stay above it", () => {
  assert.equal(jpegBytesFloor(4000, 4000), 31_250);
  assert.equal(jpegBytesFloor(8, 8), 1);
  assert.equal(jpegBytesFloor(9, 9), 1); // 4 blocks, 4 bits
  // A flat 512x512 JPEG at the lowest quality is about as small as a real one of that size gets.
  const side = 512;
  const flat = new Uint8Array(
    encodeJpeg({ width: side, height: side, data: new Uint8Array(side * side * 4).fill(200) }, 1).data,
  );
  assert.ok(flat.length >= jpegBytesFloor(side, side), `${flat.length} >= ${jpegBytesFloor(side, side)}`);
  const inspected = inspectImage(flat);
  assert.deepEqual(inspected.ok ? inspected.value : inspected.error, { format: "jpeg", width: side, height: side });
  assert.ok(decodeImage(flat).ok);
  // The floor counts the file's bytes: the same header with its entropy data cut away is refused.
  const declared = jpegDeclaring(2048, 2048);
  assert.ok(declared.length < jpegBytesFloor(2048, 2048));
  assert.equal(((r) => (r.ok ? "" : r.error.code))(inspectImage(declared)), "image_corrupt");
});

Deno.test("inspectImage reads format and size from the header without decoding, and applies the limits", () => {
  const png = fixture("chromium-halves.png");
  assert.deepEqual(((r) => (r.ok ? r.value : null))(inspectImage(png)), { format: "png", width: 12, height: 8 });
  const wide = assemblePng({ width: 5000, height: 10, depth: 8, colorType: 2 }, new Uint8Array(1));
  assert.equal(((r) => (r.ok ? "" : r.error.code))(inspectImage(wide)), "image_too_large");
  assert.equal(
    ((r) => (r.ok ? "" : r.error.code))(inspectImage(fixture("chromium-halves.webp"))),
    "image_unsupported_format",
  );
});

Deno.test("a JPEG at the documented limits (4096 px a side, 16 M pixels) decodes", () => {
  // Until the decoder's memory cap followed the declared size, JPEGs above about 14 M pixels failed
  // with "maxMemoryUsageInMB limit exceeded" and were answered as "not an image".
  const [width, height] = [4096, 3900];
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([(i >> 6) & 255, 90, 160, 255], i);
  const jpeg = new Uint8Array(encodeJpeg({ width, height, data }, 40).data);
  assert.ok(jpeg.length <= 4 * 1024 * 1024, `${jpeg.length} bytes`);
  const img = decodeImage(jpeg);
  assert.ok(img.ok, img.ok ? "" : img.error.message);
  assert.equal(img.value.width, width);
  assert.equal(img.value.height, height);
  assert.equal(img.value.rgba.length, width * height * 4);
});
