// An opened image's recipe fills the generator: every field it carries, values the product does not know
// keep the current ones, the reference image goes.
import { describe, expect, it } from "vitest";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { applyRecipe, initialSettings } from "#src/features/generation/components/generator-settings.ts";

const recipe: ImageRecipe = {
  prompt: "  A red fox in the snow  ",
  negativePrompt: "blurry",
  style: "watercolor",
  quality: "ultra",
  aspectRatio: "9:16",
  width: 1024,
  height: 1536,
  seed: 42,
  provider: "replicate",
  model: "black-forest-labs/flux-1.1-pro",
};

describe("applyRecipe", () => {
  it("fills prompt, negative prompt, style, quality, ratio, seed and engine, and drops the reference", () => {
    const start = { ...initialSettings(), referenceImage: { dataUrl: "data:image/png;base64,AA", name: "x" } };
    expect(applyRecipe(start, recipe)).toMatchObject({
      prompt: "A red fox in the snow",
      negativePrompt: "blurry",
      style: "watercolor",
      quality: "ultra",
      aspectRatio: "9:16",
      seed: "42",
      provider: "replicate",
      referenceImage: null,
      batch: false,
    });
  });

  it("keeps the current value where the recipe's is not the product's, and a random seed where it had none", () => {
    const start = initialSettings();
    const next = applyRecipe(start, {
      ...recipe,
      style: "cubism-2",
      quality: "max" as ImageRecipe["quality"],
      aspectRatio: "4:3" as ImageRecipe["aspectRatio"],
      seed: null,
      provider: "Not An Id",
    });
    expect(next).toMatchObject({
      style: start.style,
      quality: start.quality,
      aspectRatio: start.aspectRatio,
      seed: "",
      provider: "",
    });
  });
});
