import { describe, expect, it } from "vitest";
import {
  REFERENCE_STORAGE_KEY,
  buildGenerateLink,
  parseGenerateLink,
  stashReferenceImage,
  takeReferenceImage,
} from "#src/lib/generate-link.ts";
import { NEGATIVE_PROMPT_MAX_CHARS, PROMPT_MAX_CHARS, SEED_MAX } from "#shared/vocabulary/generation.ts";

describe("the /generate link contract", () => {
  it("carries every setting and reads back the same values", () => {
    const params = {
      prompt: "A castle in the fog",
      negativePrompt: "text, people",
      style: "fantasy" as const,
      quality: "ultra" as const,
      aspectRatio: "9:16" as const,
      seed: 42,
      batch: 6,
      engine: "comfyui",
      reference: true,
    };
    const link = buildGenerateLink(params);
    expect(link.startsWith("/generate?")).toBe(true);
    expect(link).toContain("prompt=A+castle+in+the+fog");
    expect(parseGenerateLink(link.slice("/generate".length))).toEqual(params);
  });

  it("is plain /generate when nothing is set, and leaves out blank text", () => {
    expect(buildGenerateLink({})).toBe("/generate");
    expect(buildGenerateLink({ prompt: "   ", negativePrompt: "" })).toBe("/generate");
  });

  it("cuts prompts and negative prompts to the vocabulary's limits", () => {
    const parsed = parseGenerateLink(
      buildGenerateLink({
        prompt: "p".repeat(PROMPT_MAX_CHARS + 100),
        negativePrompt: "n".repeat(NEGATIVE_PROMPT_MAX_CHARS + 100),
      }).split("?")[1],
    );
    expect(parsed.prompt).toHaveLength(PROMPT_MAX_CHARS);
    expect(parsed.negativePrompt).toHaveLength(NEGATIVE_PROMPT_MAX_CHARS);
  });

  it("drops values the product does not accept", () => {
    expect(parseGenerateLink("?style=watercolour&quality=max&aspect_ratio=4:3&seed=-1&batch=11&reference=yes")).toEqual(
      {},
    );
    expect(parseGenerateLink(`?seed=${SEED_MAX + 1}&batch=0`)).toEqual({});
    expect(parseGenerateLink("?seed=0&batch=1")).toEqual({ seed: 0, batch: 1 });
    // An engine id is a short lowercase word; anything else is left out (the generator checks it is offered).
    expect(parseGenerateLink("?engine=Replicate&engine=x")).toEqual({});
    expect(parseGenerateLink("?engine=a1111")).toEqual({ engine: "a1111" });
    expect(buildGenerateLink({ engine: "../../x" })).toBe("/generate");
    expect(buildGenerateLink({ seed: 1.5, batch: 0 })).toBe("/generate");
    // A style from a stored row that is not the product's is left out of the link.
    expect(buildGenerateLink({ style: "watercolour" })).toBe("/generate");
  });

  it("hands a reference image over once through sessionStorage", () => {
    expect(stashReferenceImage("data:image/jpeg;base64,AAA", sessionStorage)).toBe(true);
    expect(sessionStorage.getItem(REFERENCE_STORAGE_KEY)).toBe("data:image/jpeg;base64,AAA");
    expect(takeReferenceImage(sessionStorage)).toBe("data:image/jpeg;base64,AAA");
    expect(takeReferenceImage(sessionStorage)).toBeNull();
  });
});
