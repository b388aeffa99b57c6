import { describe, expect, it } from "vitest";
import { recipeLink, recipeRows, recipesCsv, type Recipe } from "#src/lib/generation-recipe.ts";

const recipe: Recipe = {
  id: "g1",
  prompt: "a red fox",
  negativePrompt: "",
  style: "pixel-art",
  quality: "ultra",
  aspectRatio: "16:9",
  width: 1536,
  height: 1024,
  seed: 0,
  provider: "builtin",
  model: "",
  createdAt: "2026-11-22T10:00:00.000Z",
};

describe("generation recipe", () => {
  it("words every setting, with None and Random for what is empty", () => {
    const rows = Object.fromEntries(recipeRows({ ...recipe, seed: null }, "UTC").map((r) => [r.label, r.value]));
    expect(rows).toMatchObject({
      Prompt: "a red fox",
      "Negative prompt": "None",
      Style: "Pixel Art",
      Quality: "Ultra",
      "Aspect ratio": "16:9",
      Size: "1536 × 1024",
      Seed: "Random",
      Model: "Built-in procedural renderer (not an AI model)",
    });
  });

  it("names the model for people, with the provider it ran on", () => {
    const model = (provider: string, m: string) =>
      recipeRows({ ...recipe, provider, model: m }).find((r) => r.label === "Model")?.value;
    expect(model("replicate", "black-forest-labs/flux-dev")).toBe("FLUX.1 Dev via Replicate");
    expect(model("runware", "runware:100@1")).toBe("FLUX.1 Schnell via Runware");
    expect(model("replicate", "google/nano-banana")).toBe("Google Nano Banana via Replicate");
    expect(model("openai", "dall-e-3")).toBe("DALL·E 3 via OpenAI-style API");
    expect(model("openai", "some-new-model")).toBe("some-new-model via OpenAI-style API");
  });

  it("keeps a zero seed in the generate link", () => {
    expect(recipeLink(recipe)).toBe(
      "/generate?prompt=a+red+fox&style=pixel-art&quality=ultra&aspect_ratio=16%3A9&seed=0",
    );
  });

  it("quotes cells that would break a CSV row and defuses formulas", () => {
    const csv = recipesCsv([{ ...recipe, file: "a.png", prompt: 'say "hi", then\nleave', negativePrompt: "=1+1" }]);
    const [, line] = csv.split("\r\n");
    expect(line.startsWith(`a.png,g1,"say ""hi"", then\nleave","'=1+1",pixel-art`)).toBe(true);
    expect(csv.endsWith("\r\n")).toBe(true);
  });
});
