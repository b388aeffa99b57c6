// The built-in engine through its public surface: renderPng (decoded back to pixels to measure what a
// person would see), describeRender, the prompt parser and the style list.
import assert from "node:assert/strict";
import {
  describeRender,
  ENGINE_LABEL,
  type RenderInput,
  renderPng,
} from "../../../../supabase/functions/_shared/engine/render.ts";
import { parsePrompt } from "../../../../supabase/functions/_shared/engine/prompt.ts";
import { STYLES } from "../../../../supabase/functions/_shared/engine/styles.ts";
import { decodeImage } from "../../../../supabase/functions/_shared/image/decode.ts";
import { STYLE_BY_ID, STYLE_IDS } from "../../../../supabase/functions/_shared/vocabulary/styles.ts";

interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

async function render(input: Partial<RenderInput> & { prompt: string }): Promise<Pixels> {
  const png = await renderPng({ style: "photorealistic", width: 256, height: 256, seed: 7, ...input });
  // The engine's own output, not an upload: no upload limits apply.
  const decoded = decodeImage(png, { maxBytes: Infinity, maxDimension: Infinity, maxPixels: Infinity });
  assert.ok(decoded.ok, "the engine's PNG decodes");
  return decoded.value;
}

/** Mean red, green, blue and luminance (0..255) over rows [y0, y1) as fractions of the height. */
function mean(img: Pixels, y0 = 0, y1 = 1): { r: number; g: number; b: number; l: number } {
  let r = 0,
    g = 0,
    b = 0,
    n = 0;
  for (let y = Math.floor(y0 * img.height); y < Math.floor(y1 * img.height); y++) {
    for (let x = 0; x < img.width; x++) {
      const k = (y * img.width + x) * 4;
      r += img.rgba[k];
      g += img.rgba[k + 1];
      b += img.rgba[k + 2];
      n++;
    }
  }
  return { r: r / n, g: g / n, b: b / n, l: (0.299 * r + 0.587 * g + 0.114 * b) / n };
}

/**
 * A signature of how an image looks: mean colour, contrast, saturation, edge density, colour
 * count, dark and bright shares, and a six-bin hue histogram. All in 0..1.
 */
function signature(img: Pixels): number[] {
  const n = img.width * img.height,
    lum = new Float32Array(n),
    hues = new Array(6).fill(0);
  const colours = new Set<number>();
  let r = 0,
    g = 0,
    b = 0,
    sat = 0,
    dark = 0,
    bright = 0,
    edges = 0;
  for (let i = 0; i < n; i++) {
    const R = img.rgba[i * 4],
      G = img.rgba[i * 4 + 1],
      B = img.rgba[i * 4 + 2];
    const max = Math.max(R, G, B),
      min = Math.min(R, G, B);
    r += R;
    g += G;
    b += B;
    const s = max ? (max - min) / max : 0;
    sat += s;
    if (max > min) {
      const h = max === R ?
        ((G - B) / (max - min) + 6) % 6 :
        max === G ?
        (B - R) / (max - min) + 2 :
        (R - G) / (max - min) + 4;
      hues[Math.floor(h) % 6] += s;
    }
    lum[i] = 0.299 * R + 0.587 * G + 0.114 * B;
    if (lum[i] < 50) dark++;
    if (lum[i] > 205) bright++;
    colours.add(((R >> 3) << 10) | ((G >> 3) << 5) | (B >> 3));
  }
  const meanL = lum.reduce((a, v) => a + v, 0) / n;
  const std = Math.sqrt(lum.reduce((a, v) => a + (v - meanL) ** 2, 0) / n);
  for (let y = 0; y < img.height - 1; y++) {
    for (let x = 0; x < img.width - 1; x++) {
      const i = y * img.width + x;
      if (Math.abs(lum[i + 1] - lum[i]) + Math.abs(lum[i + img.width] - lum[i]) > 24) edges++;
    }
  }
  const hueTotal = hues.reduce((a, v) => a + v, 0) || 1;
  return [
    r / n / 255,
    g / n / 255,
    b / n / 255,
    std / 128,
    sat / n,
    edges / n,
    Math.log2(colours.size) / 15,
    dark / n,
    bright / n,
    ...hues.map((v) => (v / hueTotal) * 0.5),
  ];
}

function distance(a: number[], b: number[]): number {
  return Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]) ** 2, 0));
}

function solidImage(width: number, height: number, top: number[], bottom: number[]): Pixels {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const c = y < height / 2 ? top : bottom;
    for (let x = 0; x < width; x++) rgba.set([c[0], c[1], c[2], 255], (y * width + x) * 4);
  }
  return { width, height, rgba };
}

Deno.test("draws every style of the vocabulary, under the vocabulary's own label and badges", () => {
  assert.deepEqual(Object.keys(STYLES), [...STYLE_IDS]);
  for (const id of STYLE_IDS) {
    const { label, description, isPopular, isNew } = STYLES[id];
    const info = STYLE_BY_ID[id];
    assert.deepEqual(
      { label, description, isPopular, isNew },
      { label: info.label, description: info.description, isPopular: info.isPopular, isNew: info.isNew },
    );
    assert.ok(STYLES[id].tones.length > 0 && STYLES[id].defaults.length > 0, `${id} has a look to draw`);
  }
});

Deno.test("renders PNGs of exactly the product's three sizes", async () => {
  for (
    const [width, height] of [
      [1024, 1024],
      [1536, 1024],
      [1024, 1536],
    ]
  ) {
    const img = await render({ prompt: "a lighthouse by the sea at sunset", width, height, style: "watercolor" });
    assert.equal(img.width, width);
    assert.equal(img.height, height);
  }
});

Deno.test("renders odd sizes exactly too", async () => {
  for (const style of ["pop-art", "pixel-art", "isometric", "oil-painting", "minimalist"]) {
    const img = await render({ prompt: "city", width: 101, height: 67, style });
    assert.deepEqual([img.width, img.height], [101, 67], style);
  }
});

Deno.test("gives identical bytes for identical inputs, including a reference image", async () => {
  const reference = solidImage(40, 30, [200, 40, 40], [30, 30, 90]);
  for (const style of ["photorealistic", "impressionist", "graffiti"]) {
    const input = {
      prompt: "a dog on a beach",
      negativePrompt: "clouds",
      style,
      width: 200,
      height: 150,
      seed: 99,
      reference,
    };
    const a = await renderPng(input),
      b = await renderPng(input);
    assert.deepEqual(a, b, style);
  }
});

Deno.test("gives a different image for a different seed", async () => {
  const a = await renderPng({ prompt: "mountains", style: "anime", width: 160, height: 160, seed: 1 });
  const b = await renderPng({ prompt: "mountains", style: "anime", width: 160, height: 160, seed: 2 });
  assert.notDeepEqual(a, b);
});

Deno.test("makes all 27 styles look clearly different from each other", async () => {
  const signatures = new Map<string, number[]>();
  for (const style of STYLE_IDS) {
    signatures.set(
      style,
      signature(await render({ prompt: "a house by a lake with mountains", style, width: 192, height: 192 })),
    );
  }
  let closest = { d: Infinity, pair: "" };
  for (let i = 0; i < STYLE_IDS.length; i++) {
    for (let j = i + 1; j < STYLE_IDS.length; j++) {
      const d = distance(signatures.get(STYLE_IDS[i])!, signatures.get(STYLE_IDS[j])!);
      if (d < closest.d) closest = { d, pair: `${STYLE_IDS[i]} / ${STYLE_IDS[j]}` };
    }
  }
  assert.ok(closest.d > 0.08, `closest pair ${closest.pair} differs by only ${closest.d.toFixed(3)}`);
});

Deno.test("draws a night city darker than a sunny beach, and the open sea bluer at the bottom", async () => {
  for (const style of ["photorealistic", "anime", "cartoon", "impressionist", "watercolor"]) {
    const city = await render({ prompt: "night city", style });
    const beach = await render({ prompt: "sunny beach sea", style });
    assert.ok(
      mean(city).l + 25 < mean(beach).l,
      `${style}: night ${mean(city).l.toFixed(0)} vs day ${mean(beach).l.toFixed(0)}`,
    );
    // The beach's sand may fill a corner the seed chose; the open sea has water wherever it frames it.
    const cityBottom = mean(city, 0.66, 1),
      seaBottom = mean(await render({ prompt: "sunny sea", style }), 0.66, 1);
    assert.ok(seaBottom.b - seaBottom.r > cityBottom.b - cityBottom.r + 10, `${style}: sea bottom is not bluer`);
  }
});

Deno.test("leaves out what the negative prompt names", async () => {
  const input = { prompt: "mountain lake at sunset", style: "photorealistic", width: 192, height: 192, seed: 5 };
  assert.ok(describeRender(input).motifs.includes("mountain"));
  const without = describeRender({ ...input, negativePrompt: "mountains" });
  assert.ok(!without.motifs.includes("mountain"), `still drawn: ${without.motifs}`);
  assert.deepEqual(without.removed, ["mountain"]);
  assert.match(without.caption, /leaving out mountain/);
  assert.notDeepEqual(await renderPng(input), await renderPng({ ...input, negativePrompt: "mountains" }));
  // A style's own defaults obey it too: gothic draws a castle unless told not to.
  assert.ok(describeRender({ prompt: "", style: "gothic", width: 64, height: 64, seed: 1 }).motifs.includes("castle"));
  assert.ok(
    !describeRender({
      prompt: "",
      negativePrompt: "castle",
      style: "gothic",
      width: 64,
      height: 64,
      seed: 1,
    }).motifs.includes("castle"),
  );
});

Deno.test("steers the mean hue with colour words", async () => {
  for (const style of ["photorealistic", "watercolor", "minimalist", "isometric"]) {
    const red = mean(await render({ prompt: "a red landscape with hills", style }));
    const blue = mean(await render({ prompt: "a blue landscape with hills", style }));
    assert.ok(
      red.r - red.b > blue.r - blue.b + 20,
      `${style}: red ${(red.r - red.b).toFixed(0)} vs blue ${(blue.r - blue.b).toFixed(0)}`,
    );
  }
});

Deno.test("removes colours named in the negative prompt", async () => {
  const withRed = mean(await render({ prompt: "red flowers in a red field", style: "cartoon" }));
  const noRed = mean(await render({ prompt: "red flowers in a red field", negativePrompt: "red", style: "cartoon" }));
  assert.ok(withRed.r - withRed.g > noRed.r - noRed.g + 10);
  assert.deepEqual(
    describeRender({ prompt: "red flowers", negativePrompt: "red", style: "cartoon", width: 64, height: 64, seed: 1 })
      .colors,
    [],
  );
});

Deno.test("takes its palette from a reference image", async () => {
  for (const style of ["photorealistic", "oil-painting", "abstract"]) {
    const redRef = solidImage(64, 48, [230, 40, 40], [150, 20, 30]);
    const blueRef = solidImage(64, 48, [40, 60, 230], [20, 30, 150]);
    const red = mean(await render({ prompt: "mountains by the sea", style, reference: redRef }));
    const blue = mean(await render({ prompt: "mountains by the sea", style, reference: blueRef }));
    assert.ok(
      red.r - red.b > blue.r - blue.b + 30,
      `${style}: red ref ${(red.r - red.b).toFixed(0)} vs blue ref ${(blue.r - blue.b).toFixed(0)}`,
    );
  }
  const described = describeRender({
    prompt: "sea",
    style: "anime",
    width: 64,
    height: 64,
    seed: 1,
    reference: solidImage(8, 8, [0, 0, 0], [255, 255, 255]),
  });
  assert.equal(described.usedReference, true);
});

Deno.test("takes its light layout from a reference image", async () => {
  const brightLeft: Pixels = { width: 32, height: 32, rgba: new Uint8Array(32 * 32 * 4) };
  for (let i = 0; i < 32 * 32; i++) brightLeft.rgba.set(i % 32 < 16 ? [250, 250, 250, 255] : [10, 10, 10, 255], i * 4);
  const img = await render({ prompt: "hills", style: "photorealistic", reference: brightLeft });
  let left = 0,
    right = 0;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const k = (y * img.width + x) * 4,
        l = img.rgba[k] + img.rgba[k + 1] + img.rgba[k + 2];
      if (x < img.width / 2) left += l;
      else right += l;
    }
  }
  assert.ok(left > right * 1.2, `left ${left} vs right ${right}`);
});

Deno.test("labels itself as a procedural renderer, not an AI model, in the PNG and the caption", async () => {
  const png = await renderPng({ prompt: "a robot", style: "3d-render", width: 64, height: 64, seed: 3 });
  const text = new TextDecoder("latin1").decode(png);
  assert.match(text, /tEXtSoftware\0Built-in procedural renderer \(not an AI model\)/);
  const description = describeRender({ prompt: "a robot", style: "3d-render", width: 64, height: 64, seed: 3 });
  assert.equal(description.label, ENGINE_LABEL);
  assert.match(description.caption, /not an AI model/);
  assert.match(description.caption, /robot/);
});

Deno.test("says which motifs it drew, which it added, and when the prompt named nothing it knows", () => {
  const d = describeRender({
    prompt: "two cats and a red car under the moon",
    style: "cartoon",
    width: 64,
    height: 64,
    seed: 1,
  });
  assert.deepEqual(d.named, ["cat", "car", "moon"]);
  assert.equal(d.timeOfDay, "night");
  assert.ok(d.implied.includes("stars"));
  assert.deepEqual(d.colors, ["red"]);
  const vague = describeRender({
    prompt: "the feeling of nostalgia",
    style: "nano-banana",
    width: 64,
    height: 64,
    seed: 1,
  });
  assert.deepEqual(vague.named, []);
  assert.ok(vague.implied.includes("banana"), `defaults: ${vague.implied}`);
});

Deno.test("parses prompts with plurals, synonyms, phrases, bound colours and in-prompt negation", () => {
  const p = parsePrompt("Snowy mountains, pine trees and puppies at golden hour; a red car, no people", "birds, blue");
  assert.deepEqual(p.motifs, ["snow", "mountain", "forest", "dog", "sunset", "car"]);
  assert.deepEqual(p.colors, ["red"]);
  assert.ok(p.motifColors.car, "red binds to the car");
  assert.ok(p.bannedMotifs.includes("portrait") && p.bannedMotifs.includes("bird"));
  assert.deepEqual(p.bannedColors, ["blue"]);
  assert.deepEqual(parsePrompt("galaxies and skies").motifs, ["space", "sky"]);
});

Deno.test("rejects unknown styles and sizes outside 16..4096", () => {
  assert.throws(() => describeRender({ prompt: "x", style: "vaporwave", width: 64, height: 64, seed: 1 }), RangeError);
  assert.throws(() => describeRender({ prompt: "x", style: "anime", width: 8, height: 64, seed: 1 }), RangeError);
  assert.throws(() => describeRender({ prompt: "x", style: "anime", width: 64.5, height: 64, seed: 1 }), RangeError);
  assert.throws(
    () => describeRender({ prompt: "x", style: "anime", width: 64, height: 64, seed: Number.NaN }),
    RangeError,
  );
});
