// The image check: the threshold logic on scores, and the classifier itself, loaded from the nsfwjs
// package with the network shut (fetch throws meanwhile), scoring the images the app ships (the style
// and example previews in public/previews, the built-in engine's renders, the decoder's fixtures) below
// the threshold, and refusing files that are not images the decoder reads.
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- the kept WebP decoder, to read the shipped previews in this test
import decodeWebp, { init as initWebpDecoder } from "npm:@jsquash/webp@1.5.0/decode.js";
import {
  EXPLICIT_THRESHOLD,
  explicitScore,
  type ImageScores,
  isFlagged,
  scoresOf,
  storedScores,
} from "../../../../supabase/functions/_shared/moderation/image-verdict.ts";
import { loadClassifier } from "../../../../supabase/functions/_shared/moderation/classifier.ts";
import { classifyImageFile } from "../../../../supabase/functions/_shared/moderation/classify-file.ts";
import { renderPng } from "../../../../supabase/functions/_shared/engine/render.ts";

const scores = (s: Partial<ImageScores>): ImageScores => ({
  Drawing: 0,
  Hentai: 0,
  Neutral: 0,
  Porn: 0,
  Sexy: 0,
  ...s,
});

Deno.test("an image is flagged when Porn and Hentai together reach the threshold; Sexy alone never flags", () => {
  assert.equal(EXPLICIT_THRESHOLD, 0.7);
  assert.equal(isFlagged(scores({ Porn: 0.7, Neutral: 0.3 })), true);
  assert.equal(isFlagged(scores({ Porn: 0.4, Hentai: 0.3, Drawing: 0.3 })), true);
  assert.equal(isFlagged(scores({ Porn: 0.5629, Hentai: 0.0098, Neutral: 0.4273 })), false, "the steampunk preview");
  assert.equal(isFlagged(scores({ Porn: 0.35, Hentai: 0.34, Sexy: 0.31 })), false);
  assert.equal(isFlagged(scores({ Sexy: 0.99, Neutral: 0.01 })), false);
  assert.equal(isFlagged(scores({ Neutral: 0.7, Drawing: 0.3 })), false);
  assert.equal(explicitScore(scores({ Porn: 0.125, Hentai: 0.25 })), 0.375);
});

Deno.test("scores need every class: from predictions, and read back from a stored row", () => {
  const predictions = ["Drawing", "Hentai", "Neutral", "Porn", "Sexy"].map((className, i) => ({
    className,
    probability: [0.123456, 0.01, 0.8, 0.06, 0.006544][i],
  }));
  const s = scoresOf(predictions);
  assert.deepEqual(s, { Drawing: 0.1235, Hentai: 0.01, Neutral: 0.8, Porn: 0.06, Sexy: 0.0065 });
  assert.equal(scoresOf(predictions.slice(1)), null);
  assert.deepEqual(storedScores(JSON.parse(JSON.stringify(s))), s);
  for (const bad of [null, "x", {}, { ...s, Porn: "a lot" }]) assert.equal(storedScores(bad), null);
});

/** Runs `work` with the network shut: any fetch of anything but a local file throws. */
async function offline<T>(work: () => Promise<T>): Promise<T> {
  const real = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith("file:") || url.startsWith("/")) return real(input, init);
    throw new Error(`the image check fetched ${url}`);
  }) as typeof fetch;
  try {
    return await work();
  } finally {
    globalThis.fetch = real;
  }
}

async function previews(): Promise<{ name: string; rgba: Uint8Array; width: number; height: number }[]> {
  const wasm = new URL(import.meta.resolve("npm:@jsquash/webp@1.5.0/codec/dec/webp_dec.wasm"));
  await initWebpDecoder(await WebAssembly.compile(await Deno.readFile(wasm)));
  const root = new URL("../../../../public/previews/", import.meta.url);
  const out = [];
  for (const dir of ["styles", "examples", "carousel"]) {
    for await (const entry of Deno.readDir(new URL(`${dir}/`, root))) {
      if (!entry.name.endsWith(".webp")) continue;
      const bytes = await Deno.readFile(new URL(`${dir}/${entry.name}`, root));
      const image = await decodeWebp(bytes.buffer as ArrayBuffer);
      const { data, width, height } = image;
      out.push({
        name: `${dir}/${entry.name}`,
        rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        width,
        height,
      });
    }
  }
  return out;
}

Deno.test("the classifier loads from its package with the network shut and scores the shipped previews below the threshold", async () => {
  const classify = await offline(() => loadClassifier());
  const shipped = await previews();
  assert.ok(shipped.length >= 40, `${shipped.length} previews`);
  const worst = { name: "", explicit: 0 };
  for (const image of shipped) {
    const s = await classify(image);
    const sum = Object.values(s).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 0.01, `${image.name}: scores sum to ${sum}`);
    assert.equal(isFlagged(s), false, `${image.name}: ${JSON.stringify(s)}`);
    if (explicitScore(s) > worst.explicit) Object.assign(worst, { name: image.name, explicit: explicitScore(s) });
  }
  console.log(`highest Porn + Hentai among ${shipped.length} previews: ${worst.explicit.toFixed(4)} (${worst.name})`);
});

Deno.test("stored files are checked as they are stored: the built-in engine's PNGs and the fixtures pass", async () => {
  const files: [string, Uint8Array][] = [];
  for (const style of ["photorealistic", "anime", "watercolor", "oil-painting"]) {
    const prompt = `a portrait of a woman on a beach, ${style}`;
    files.push([style, await renderPng({ prompt, style, width: 512, height: 512, seed: 7 })]);
  }
  for (const name of ["chromium-halves.png", "chromium-halves.jpeg", "chromium-alpha.png"]) {
    files.push([name, await Deno.readFile(new URL(`../../fixtures/${name}`, import.meta.url))]);
  }
  for (const [name, bytes] of files) {
    const result = await classifyImageFile(bytes);
    assert.ok(result.ok, `${name}: ${!result.ok && result.error.message}`);
    assert.equal(isFlagged(result.value), false, `${name}: ${JSON.stringify(result.value)}`);
  }
});

Deno.test("a file the decoder does not read is a value, not a throw: WebP, text, a truncated PNG", async () => {
  const webp = await Deno.readFile(new URL("../../fixtures/chromium-halves.webp", import.meta.url));
  const png = await Deno.readFile(new URL("../../fixtures/chromium-halves.png", import.meta.url));
  const cases: [Uint8Array, string][] = [
    [webp, "image_unsupported_format"],
    [new TextEncoder().encode("not an image at all"), "image_not_an_image"],
    [png.subarray(0, 40), "image_corrupt"],
  ];
  for (const [bytes, code] of cases) {
    const result = await classifyImageFile(bytes);
    assert.equal(result.ok ? "ok" : result.error.code, code);
  }
});
