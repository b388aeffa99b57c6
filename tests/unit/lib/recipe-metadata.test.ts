// @vitest-environment node
// The recipe every downloaded file carries (#shared/recipe-metadata, used by src/lib/image-export.ts):
// written into PNG, JPEG and WebP files made by real encoders (fast-png, jpeg-js, libwebp), read back, and
// the files still decoded by those decoders to the same pixels.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it, beforeAll } from "vitest";
import { decode as decodePng, encode as encodePng } from "fast-png";
import jpeg from "jpeg-js";
import encodeWebp, { init as initWebpEncoder } from "@jsquash/webp/encode.js";
import decodeWebp, { init as initWebpDecoder } from "@jsquash/webp/decode.js";
import { readRecipe, writeRecipe } from "#shared/recipe-metadata/recipe-file.ts";
import { type ImageRecipe, parametersText, recipeFromObject, recipeJson } from "#shared/recipe-metadata/recipe.ts";
import { recipeFromRow } from "#src/lib/generation-recipe.ts";
import { withRecipe } from "#src/lib/image-export.ts";
import { imageRecipe } from "../../support/records.ts";

const W = 24,
  H = 16;

/** The built-in engine's 1:1 image at 1024 px, drawn by builtin-procedural-v1. */
const RECIPE = imageRecipe({
  prompt: "a red fox in the snow",
  negativePrompt: "blurry",
  style: "watercolor",
  quality: "high",
  seed: 42,
});

const UNICODE: ImageRecipe = {
  ...RECIPE,
  prompt: 'Füchsin 🦊 im Schnee, 雪の中の狐 — "a <b>fox</b> & friends"\nsecond line\r\nthird',
  negativePrompt: "размытие, ぼやけ",
  seed: null,
  provider: "replicate",
  model: "black-forest-labs/flux-dev",
};

function rgba(alpha = 255): Uint8ClampedArray<ArrayBuffer> {
  const data = new Uint8ClampedArray(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) data.set([x * 10, y * 15, (x + y) * 6, alpha], (y * W + x) * 4);
  }
  return data;
}

const pngFile = () => encodePng({ width: W, height: H, data: rgba(), channels: 4, depth: 8 });
const jpegFile = () => new Uint8Array(jpeg.encode({ width: W, height: H, data: Buffer.from(rgba()) }, 90).data);
const webpFile = async (options: Record<string, number>, alpha = 255) =>
  new Uint8Array(await encodeWebp({ data: rgba(alpha), width: W, height: H, colorSpace: "srgb" }, options));

const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));
const u32le = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);

/** Every chunk of a RIFF WebP: its fourcc and payload. */
function webpChunks(b: Uint8Array): { fourcc: string; data: Uint8Array }[] {
  const out = [];
  for (let at = 12; at < b.length;) {
    const size = u32le(b, at + 4);
    out.push({ fourcc: fourcc(b, at), data: b.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size & 1);
  }
  return out;
}

/** The marker and payload of each JPEG header segment. */
function jpegSegments(b: Uint8Array): { marker: number; data: Uint8Array }[] {
  const out = [];
  for (let at = 2; b[at + 1] !== 0xda;) {
    const length = (b[at + 2] << 8) | b[at + 3];
    out.push({ marker: b[at + 1], data: b.subarray(at + 4, at + 2 + length) });
    at += 2 + length;
  }
  return out;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

beforeAll(async () => {
  // The codecs are handed their compiled WebAssembly, as the local backend does (supabase/local/storage/render-image.ts).
  const require = createRequire(import.meta.url);
  const wasm = (p: string) => WebAssembly.compile(readFileSync(require.resolve(`@jsquash/webp/codec/${p}`)));
  await initWebpEncoder(await wasm("enc/webp_enc.wasm"));
  await initWebpDecoder(await wasm("dec/webp_dec.wasm"));
});

describe("the recipe text", () => {
  it("is versioned JSON of the recipe's fields, whatever else the object holds", () => {
    const row = {
      id: "6f1c1d7e-3b7a-4c55-9d0e-2b8f5f7a9c01",
      user_id: "u",
      prompt: RECIPE.prompt,
      negative_prompt: RECIPE.negativePrompt,
      style: RECIPE.style,
      quality: RECIPE.quality,
      aspect_ratio: RECIPE.aspectRatio,
      width: 1024,
      height: 1024,
      seed: 42,
      provider: "builtin",
      model: "builtin-procedural-v1",
      image_path: "u/x.png",
      is_public: false,
      is_saved: false,
      created_at: "2026-11-24T10:00:00Z",
    };
    // The app's Recipe (a history record, a gallery row) is what a download passes.
    const fromApp: ImageRecipe = recipeFromRow(row);
    expect(JSON.parse(recipeJson(fromApp))).toEqual({ v: 1, ...RECIPE });
  });

  it("reads as AUTOMATIC1111 writes its parameters", () => {
    expect(parametersText(RECIPE)).toBe(
      "a red fox in the snow\nNegative prompt: blurry\n" +
        "Seed: 42, Size: 1024x1024, Model: builtin-procedural-v1, Engine: builtin, Style: watercolor, " +
        'Quality: high, Aspect ratio: "1:1"',
    );
    expect(parametersText({ ...RECIPE, negativePrompt: "", seed: null, model: "runware:101@1" })).toBe(
      'a red fox in the snow\nSize: 1024x1024, Model: "runware:101@1", Engine: builtin, Style: watercolor, ' +
        'Quality: high, Aspect ratio: "1:1"',
    );
  });

  it("notes an upscale made on the device in both forms, and reads it back from a file", () => {
    const upscaled: ImageRecipe = { ...RECIPE, upscale: { scale: 2, model: "esrgan-slim" } };
    expect(parametersText(upscaled)).toMatch(/Aspect ratio: "1:1", Upscale: 2x, Upscaler: esrgan-slim$/);
    expect(JSON.parse(recipeJson(upscaled)).upscale).toEqual({ scale: 2, model: "esrgan-slim" });
    const png = encodePng({ width: 2, height: 2, data: new Uint8Array(16), channels: 4 });
    expect(readRecipe(writeRecipe(png, upscaled)!)?.upscale).toEqual({ scale: 2, model: "esrgan-slim" });
    const threefold = { ...upscaled, upscale: { scale: 3, model: "x" } } as unknown as ImageRecipe;
    expect(readRecipe(writeRecipe(png, threefold)!)?.upscale).toBeUndefined();
    expect(recipeFromObject({ ...JSON.parse(recipeJson(upscaled)), upscale: { scale: 3, model: "x" } })).toBeNull();
  });
});

describe("PNG", () => {
  it("carries the recipe in an iTXt chunk and parameters as text, with the same pixels", () => {
    const original = pngFile();
    const written = writeRecipe(original, RECIPE)!;
    expect(readRecipe(written)).toEqual(RECIPE);
    const decoded = decodePng(written, { checkCrc: true });
    expect(decoded.data).toEqual(decodePng(original).data);
    // fast-png reads tEXt chunks only: the Latin-1 parameters text is one.
    expect(decoded.text.parameters).toBe(parametersText(RECIPE));
  });

  it("keeps a Unicode prompt whole (parameters then goes as iTXt too)", () => {
    const written = writeRecipe(pngFile(), UNICODE)!;
    expect(readRecipe(written)).toEqual(UNICODE);
    expect(decodePng(written, { checkCrc: true }).text.parameters).toBeUndefined();
    expect(text(written)).toContain(parametersText(UNICODE));
  });

  it("holds one recipe when written twice, and the same bytes when the recipe is the same", () => {
    const once = writeRecipe(pngFile(), UNICODE)!;
    const twice = writeRecipe(once, RECIPE)!;
    expect(readRecipe(twice)).toEqual(RECIPE);
    expect(text(twice).split("promptcanvas:recipe").length - 1).toBe(1);
    expect(writeRecipe(twice, RECIPE)).toBe(twice);
  });
});

describe("JPEG", () => {
  it("carries the recipe as XMP and parameters as a comment, with the compressed image untouched", () => {
    const original = jpegFile();
    const written = writeRecipe(original, RECIPE)!;
    expect(readRecipe(written)).toEqual(RECIPE);
    expect(jpeg.decode(written).data).toEqual(jpeg.decode(original).data);
    const segments = jpegSegments(written);
    // JFIF's header stays first; then the XMP packet and the comment.
    expect(text(segments[0].data).startsWith("JFIF\0")).toBe(true);
    const xmp = segments.filter((s) => s.marker === 0xe1 && text(s.data).startsWith("http://ns.adobe.com/xap/1.0/\0"));
    expect(xmp).toHaveLength(1);
    const packet = text(xmp[0].data);
    expect(packet).toContain('<rdf:li xml:lang="x-default">a red fox in the snow</rdf:li>');
    expect(packet).toContain("<promptcanvas:seed>42</promptcanvas:seed>");
    expect(segments.filter((s) => s.marker === 0xfe).map((s) => text(s.data))).toEqual([parametersText(RECIPE)]);
  });

  it("keeps a Unicode prompt whole and holds one recipe when written twice", () => {
    const twice = writeRecipe(writeRecipe(jpegFile(), RECIPE)!, UNICODE)!;
    expect(readRecipe(twice)).toEqual(UNICODE);
    const segments = jpegSegments(twice);
    expect(segments.filter((s) => s.marker === 0xe1)).toHaveLength(1);
    expect(segments.filter((s) => s.marker === 0xfe)).toHaveLength(1);
    expect(jpeg.decode(twice).width).toBe(W);
  });

  it("reads the recipe from a packet a tool rewrote with another prefix and attributes", () => {
    const packet =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description rdf:about="" xmlns:pc="urn:promptcanvas:recipe:1.0#" pc:v="1" pc:prompt="a fox &amp; a hen"' +
      ' pc:style="anime" pc:quality="ultra" pc:aspectRatio="16:9" pc:width="1536" pc:height="1024"' +
      ' pc:provider="builtin" pc:model="m"><pc:negativePrompt/></rdf:Description></rdf:RDF></x:xmpmeta>';
    const id = new TextEncoder().encode("http://ns.adobe.com/xap/1.0/\0");
    const body = new Uint8Array([...id, ...new TextEncoder().encode(packet)]);
    const app1 = new Uint8Array([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body]);
    const original = jpegFile();
    const file = new Uint8Array([...original.subarray(0, 2), ...app1, ...original.subarray(2)]);
    expect(readRecipe(file)).toEqual({
      prompt: "a fox & a hen",
      negativePrompt: "",
      style: "anime",
      quality: "ultra",
      aspectRatio: "16:9",
      width: 1536,
      height: 1024,
      seed: null,
      provider: "builtin",
      model: "m",
    });
  });
});

describe("WebP", () => {
  it("turns a simple lossy file into an extended one with an XMP chunk, the image untouched", async () => {
    const original = await webpFile({ quality: 80 });
    expect(webpChunks(original).map((c) => c.fourcc)).toEqual(["VP8 "]);
    const written = writeRecipe(original, RECIPE)!;
    expect(readRecipe(written)).toEqual(RECIPE);
    expect(u32le(written, 4)).toBe(written.length - 8);
    const chunks = webpChunks(written);
    expect(chunks.map((c) => c.fourcc)).toEqual(["VP8X", "VP8 ", "XMP "]);
    const vp8x = chunks[0].data;
    expect(vp8x[0]).toBe(0x04);
    expect([
      1 + (vp8x[4] | (vp8x[5] << 8) | (vp8x[6] << 16)),
      1 + (vp8x[7] | (vp8x[8] << 8) | (vp8x[9] << 16)),
    ]).toEqual([W, H]);
    expect(chunks[1].data).toEqual(webpChunks(original)[0].data);
    const decoded = await decodeWebp(written.slice().buffer);
    expect(decoded.data).toEqual((await decodeWebp(original.slice().buffer)).data);
  });

  it("marks a lossless file that uses alpha as having alpha when it extends it", async () => {
    const original = await webpFile({ lossless: 1 }, 128);
    expect(webpChunks(original).map((c) => c.fourcc)).toEqual(["VP8L"]);
    const written = writeRecipe(original, UNICODE)!;
    expect(readRecipe(written)).toEqual(UNICODE);
    const chunks = webpChunks(written);
    expect(chunks.map((c) => c.fourcc)).toEqual(["VP8X", "VP8L", "XMP "]);
    expect(chunks[0].data[0]).toBe(0x04 | 0x10);
    const decoded = await decodeWebp(written.slice().buffer);
    expect([decoded.width, decoded.height, decoded.data[3]]).toEqual([W, H, 128]);
  });

  it("sets the XMP flag of a file that is already extended, keeps its alpha, and holds one recipe", async () => {
    const original = await webpFile({ quality: 80 }, 200);
    expect(webpChunks(original).map((c) => c.fourcc)).toEqual(["VP8X", "ALPH", "VP8 "]);
    const twice = writeRecipe(writeRecipe(original, UNICODE)!, RECIPE)!;
    expect(readRecipe(twice)).toEqual(RECIPE);
    const chunks = webpChunks(twice);
    expect(chunks.map((c) => c.fourcc)).toEqual(["VP8X", "ALPH", "VP8 ", "XMP "]);
    expect(chunks[0].data[0]).toBe(webpChunks(original)[0].data[0] | 0x04);
    expect(u32le(twice, 4)).toBe(twice.length - 8);
    expect((await decodeWebp(twice.slice().buffer)).data).toEqual((await decodeWebp(original.slice().buffer)).data);
  });
});

describe("a file without a recipe", () => {
  it("reads as null, whatever its format", async () => {
    for (const file of [pngFile(), jpegFile(), await webpFile({ quality: 80 }), await webpFile({ lossless: 1 })]) {
      expect(readRecipe(file)).toBeNull();
    }
    expect(readRecipe(new Uint8Array(0))).toBeNull();
    expect(readRecipe(new TextEncoder().encode("GIF89a not an image we write"))).toBeNull();
  });

  it("reads as null when its recipe is of another version", () => {
    const future = Buffer.from(writeRecipe(pngFile(), RECIPE)!);
    future[future.indexOf('{"v":1,') + 5] = "2".charCodeAt(0);
    expect(readRecipe(future)).toBeNull();
  });

  it("is not written into bytes that are not a PNG, JPEG or WebP", () => {
    expect(writeRecipe(new TextEncoder().encode("GIF89a"), RECIPE)).toBeNull();
    expect(writeRecipe(pngFile().subarray(0, 40), RECIPE)).toBeNull();
  });
});

describe("a download", () => {
  it("carries the recipe in the blob it saves, of the same type", async () => {
    const source = new Blob([jpegFile()], { type: "image/jpeg" });
    const saved = await withRecipe(source, RECIPE);
    expect(saved.type).toBe("image/jpeg");
    expect(readRecipe(new Uint8Array(await saved.arrayBuffer()))).toEqual(RECIPE);
  });
});
