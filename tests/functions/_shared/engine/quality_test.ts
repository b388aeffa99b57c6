// The built-in engine's three qualities through its public surface (renderRgb, describeRender): each is
// deterministic, each step up draws measurably finer detail, and all three draw the same planned scene.
// Fine detail is measured as the mean absolute Laplacian of the luminance: the energy a picture has at
// the scale of single pixels, which finer strokes, hatching, dots, noise and sharpening all raise.
import assert from "node:assert/strict";
import { describeRender, type RenderInput, renderRgb } from "../../../../supabase/functions/_shared/engine/render.ts";
import { QUALITIES, type Quality } from "../../../../supabase/functions/_shared/vocabulary/generation.ts";
import { STYLE_IDS } from "../../../../supabase/functions/_shared/vocabulary/styles.ts";

const PROMPT = "a cat by a mountain lake at sunset with trees";

function draw(style: string, quality: Quality | undefined, size = 256, seed = 3): Uint8Array {
  return renderRgb({ prompt: PROMPT, style, width: size, height: size, seed, quality });
}

function luma(rgb: Uint8Array): Float32Array {
  const l = new Float32Array(rgb.length / 3);
  for (let i = 0; i < l.length; i++) l[i] = 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
  return l;
}

/** Mean |4·l(x,y) − its four neighbours| over the inner pixels of a square picture. */
function fineDetail(rgb: Uint8Array, size: number): number {
  const l = luma(rgb);
  let sum = 0;
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const i = y * size + x;
      sum += Math.abs(4 * l[i] - l[i - 1] - l[i + 1] - l[i - size] - l[i + size]);
    }
  }
  return sum / (size - 2) ** 2;
}

/** Mean absolute difference of the 16x16-block mean luminances: how far apart two layouts are. */
function layoutDistance(a: Uint8Array, b: Uint8Array, size: number): number {
  const la = luma(a),
    lb = luma(b),
    cells = size / 16;
  let sum = 0;
  for (let cy = 0; cy < cells; cy++) {
    for (let cx = 0; cx < cells; cx++) {
      let d = 0;
      for (let y = cy * 16; y < cy * 16 + 16; y++) {
        for (let x = cx * 16; x < cx * 16 + 16; x++) d += la[y * size + x] - lb[y * size + x];
      }
      sum += Math.abs(d / 256);
    }
  }
  return sum / cells ** 2;
}

Deno.test("draws the same bytes for the same recipe at every quality, standard when none is named", () => {
  for (const style of ["oil-painting", "photorealistic", "pixel-art"]) {
    for (const quality of QUALITIES) {
      const input: RenderInput = { prompt: PROMPT, style, width: 96, height: 64, seed: 11, quality };
      assert.deepEqual(renderRgb(input), renderRgb({ ...input }), `${style} at ${quality}`);
    }
    assert.deepEqual(draw(style, undefined, 64), draw(style, "standard", 64), style);
  }
});

Deno.test("draws measurably finer detail at each step up: standard < high < ultra", () => {
  for (const style of ["photorealistic", "oil-painting", "watercolor", "impressionist", "sketch", "vintage"]) {
    const [standard, high, ultra] = QUALITIES.map((q) => fineDetail(draw(style, q), 256));
    const figures = `${style}: ${standard.toFixed(1)} < ${high.toFixed(1)} < ${ultra.toFixed(1)}`;
    assert.ok(high > standard * 1.05, figures);
    assert.ok(ultra > high * 1.05, figures);
  }
});

Deno.test("every style draws a different picture at each quality, with more fine detail above standard", () => {
  // Pixel art's cells are 2 px at every quality at this size; its finer grid is checked below.
  for (const style of STYLE_IDS.filter((s) => s !== "pixel-art")) {
    const [standard, high, ultra] = QUALITIES.map((q) => draw(style, q));
    assert.notDeepEqual(standard, high, style);
    assert.notDeepEqual(high, ultra, style);
    const detail = [standard, high, ultra].map((rgb) => fineDetail(rgb, 256));
    assert.ok(detail[1] > detail[0] && detail[2] > detail[0], `${style}: ${detail.map((d) => d.toFixed(2))}`);
  }
});

Deno.test("pixel art lays a finer grid of cells at each step up in quality", () => {
  const size = 768;
  const [standard, high, ultra] = QUALITIES.map((q) => {
    const rgb = draw("pixel-art", q, size);
    // Mean length of the runs of identical pixels along the rows: shorter as the cells shrink.
    let runs = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 1; x < size; x++) {
        const a = (y * size + x) * 3,
          b = a - 3;
        if (rgb[a] !== rgb[b] || rgb[a + 1] !== rgb[b + 1] || rgb[a + 2] !== rgb[b + 2]) runs++;
      }
      runs++;
    }
    return (size * size) / runs;
  });
  assert.ok(standard > high * 1.2 && high > ultra * 1.2, `${standard} > ${high} > ${ultra}`);
});

Deno.test("draws the same planned scene at every quality, only finer", () => {
  for (const style of ["photorealistic", "oil-painting", "anime"]) {
    const input: RenderInput = { prompt: PROMPT, style, width: 256, height: 256, seed: 3 };
    const plans = QUALITIES.map((quality) => describeRender({ ...input, quality }));
    for (const p of plans) assert.deepEqual(p.motifs, plans[0].motifs, style);
    assert.deepEqual(plans.map((p) => p.quality), [...QUALITIES]);
    const [standard, high, ultra] = QUALITIES.map((q) => draw(style, q));
    const otherSeed = draw(style, "standard", 256, 4);
    const apart = layoutDistance(standard, otherSeed, 256);
    for (const finer of [high, ultra]) {
      const near = layoutDistance(standard, finer, 256);
      assert.ok(near < apart / 2, `${style}: ${near.toFixed(1)} vs another seed's ${apart.toFixed(1)}`);
    }
  }
});

Deno.test("refuses a quality the vocabulary does not have", () => {
  assert.throws(
    () => describeRender({ prompt: "x", style: "anime", width: 64, height: 64, seed: 1, quality: "draft" as Quality }),
    RangeError,
  );
});
