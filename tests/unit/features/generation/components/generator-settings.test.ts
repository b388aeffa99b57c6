import { describe, expect, it } from "vitest";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import {
  SEED_MESSAGE,
  applyLink,
  initialSettings,
  parseSeed,
  toRequest,
  validateSettings,
} from "#src/features/generation/components/generator-settings.ts";

describe("generator settings", () => {
  it("starts from the product defaults, or from saved preferences", () => {
    const plain = initialSettings();
    expect(plain).toMatchObject({
      style: "photorealistic",
      quality: "standard",
      aspectRatio: "1:1",
      batch: false,
      batchCount: 4,
      seed: "",
    });
    const saved = initialSettings({ defaultStyle: "anime", defaultQuality: "ultra", defaultAspectRatio: "16:9" });
    expect(saved).toMatchObject({ style: "anime", quality: "ultra", aspectRatio: "16:9" });
    const broken = initialSettings({ defaultStyle: "nope", defaultQuality: "max", defaultAspectRatio: "4:3" });
    expect(broken).toMatchObject({ style: "photorealistic", quality: "standard", aspectRatio: "1:1" });
  });

  it("gives the docs/spec.md §5 messages", () => {
    const base = initialSettings();
    expect(validateSettings({ ...base, prompt: "   " }).prompt).toBe(VALIDATION_MESSAGES.promptRequired);
    expect(validateSettings({ ...base, prompt: "x".repeat(501) }).prompt).toBe(VALIDATION_MESSAGES.promptTooLong);
    expect(validateSettings({ ...base, prompt: "a cat", negativePrompt: "y".repeat(301) }).negativePrompt).toBe(
      VALIDATION_MESSAGES.negativePromptTooLong,
    );
    expect(validateSettings({ ...base, prompt: "a cat", seed: "1.5" }).seed).toBe(SEED_MESSAGE);
    expect(validateSettings({ ...base, prompt: "a cat", seed: "4294967296" }).seed).toBe(SEED_MESSAGE);
    expect(validateSettings({ ...base, prompt: "a cat", seed: "42" })).toEqual({});
  });

  it("reads an empty seed as random", () => {
    expect(parseSeed("")).toBeNull();
    expect(parseSeed(" 7 ")).toBe(7);
    expect(parseSeed("-1")).toBeUndefined();
  });

  it("fills in what a generator link carries, including the stashed reference image", () => {
    const s = applyLink(
      initialSettings(),
      {
        prompt: "A lighthouse",
        negativePrompt: "people",
        style: "watercolor",
        quality: "ultra",
        aspectRatio: "16:9",
        seed: 1234,
        batch: 7,
        reference: true,
      },
      "data:image/jpeg;base64,AAAA",
    );
    expect(s).toMatchObject({
      prompt: "A lighthouse",
      negativePrompt: "people",
      style: "watercolor",
      quality: "ultra",
      aspectRatio: "16:9",
      seed: "1234",
      batch: true,
      batchCount: 7,
    });
    expect(s.referenceImage?.dataUrl).toBe("data:image/jpeg;base64,AAAA");
  });

  it("asks for N tasks only in batch mode", () => {
    const s = { ...initialSettings(), prompt: "  a cat  ", seed: "9" };
    expect(toRequest(s)).toEqual({
      prompt: "a cat",
      negativePrompt: "",
      style: "photorealistic",
      quality: "standard",
      aspectRatio: "1:1",
      seed: 9,
    });
    expect(toRequest({ ...s, batch: true, batchCount: 6 }).batchCount).toBe(6);
  });
});
