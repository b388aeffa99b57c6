import { describe, expect, it } from "vitest";
import { percent, upscaledFileName, upscaledRecipe } from "../../../../src/features/upscale/upscale-protocol";
import { imageRecipe } from "../../../support/records.ts";

const RECIPE = imageRecipe({ prompt: "A red fox in snow!", style: "photorealistic", seed: 7, model: "procedural" });

describe("the upscaled file's recipe", () => {
  it("notes the scale and the model, and keeps what makes the picture again (the drawn size too)", () => {
    expect(upscaledRecipe(RECIPE, 2, "medium")).toEqual({ ...RECIPE, upscale: { scale: 2, model: "esrgan-medium" } });
    expect(upscaledRecipe(RECIPE, 4, "slim").upscale).toEqual({ scale: 4, model: "esrgan-slim" });
    expect(upscaledRecipe(RECIPE, 4, "slim").width).toBe(1024);
  });

  it("is saved under a name that says the scale", () => {
    expect(upscaledFileName(RECIPE.prompt, 2, "png")).toBe("a-red-fox-in-snow-2x.png");
    expect(upscaledFileName(RECIPE.prompt, 4, "webp")).toBe("a-red-fox-in-snow-4x.webp");
    expect(upscaledFileName("", 2, "jpg")).toBe("promptcanvas-image-2x.jpg");
  });
});

describe("progress", () => {
  it("is a whole percent, clamped", () => {
    expect(percent(0)).toBe(0);
    expect(percent(0.504)).toBe(50);
    expect(percent(1)).toBe(100);
    expect(percent(1.2)).toBe(100);
    expect(percent(-1)).toBe(0);
    expect(percent(Number.NaN)).toBe(0);
  });
});
