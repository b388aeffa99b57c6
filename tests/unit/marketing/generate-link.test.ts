import { describe, expect, it } from "vitest";
import {
  REFERENCE_STORAGE_KEY,
  buildGenerateLink,
  parseGenerateLink,
  stashReferenceImage,
  takeReferenceImage,
} from "../../../src/lib/generate-link";
import { STYLES } from "../../../src/lib/style-catalog";

const IDS = STYLES.map((s) => s.id);

describe("the /generate link contract", () => {
  it("carries every setting and reads back the same values", () => {
    const params = {
      prompt: "A castle in the fog",
      negativePrompt: "text, people",
      style: "fantasy",
      quality: "ultra" as const,
      aspectRatio: "9:16" as const,
      seed: 42,
      batch: 6,
      reference: true,
    };
    const link = buildGenerateLink(params);
    expect(link.startsWith("/generate?")).toBe(true);
    expect(link).toContain("prompt=A+castle+in+the+fog");
    expect(parseGenerateLink(link.slice("/generate".length), IDS)).toEqual(params);
  });

  it("is plain /generate when nothing is set, and leaves out blank text", () => {
    expect(buildGenerateLink({})).toBe("/generate");
    expect(buildGenerateLink({ prompt: "   ", negativePrompt: "" })).toBe("/generate");
  });

  it("cuts prompts to 500 and negative prompts to 300 characters", () => {
    const parsed = parseGenerateLink(
      buildGenerateLink({ prompt: "p".repeat(600), negativePrompt: "n".repeat(400) }).split("?")[1],
      IDS,
    );
    expect(parsed.prompt).toHaveLength(500);
    expect(parsed.negativePrompt).toHaveLength(300);
  });

  it("drops values the product does not accept", () => {
    expect(
      parseGenerateLink("?style=watercolour&quality=max&aspect_ratio=4:3&seed=-1&batch=11&reference=yes", IDS),
    ).toEqual({});
    expect(parseGenerateLink("?seed=4294967296&batch=0", IDS)).toEqual({});
    expect(parseGenerateLink("?seed=0&batch=1", IDS)).toEqual({ seed: 0, batch: 1 });
    expect(buildGenerateLink({ seed: 1.5, batch: 0 })).toBe("/generate");
  });

  it("hands a reference image over once through sessionStorage", () => {
    expect(stashReferenceImage("data:image/jpeg;base64,AAA", sessionStorage)).toBe(true);
    expect(sessionStorage.getItem(REFERENCE_STORAGE_KEY)).toBe("data:image/jpeg;base64,AAA");
    expect(takeReferenceImage(sessionStorage)).toBe("data:image/jpeg;base64,AAA");
    expect(takeReferenceImage(sessionStorage)).toBeNull();
  });
});
