// The one way a custom style's words join a prompt (decision 152), shared by the generator, the queue and
// generate-image: joined with ", ", and the spec's limits hold for the result.
import { describe, expect, it } from "vitest";
import { applyCustomStyle, parseAppliedCustomStyle, validateCustomStyle } from "#shared/vocabulary/custom-styles.ts";

const STYLE = { prompt: "35mm film", negativePrompt: "text" };

describe("custom style vocabulary", () => {
  it("adds the words after the prompt and the negative prompt after theirs", () => {
    expect(applyCustomStyle(" a fox ", "", STYLE)).toEqual({
      prompt: "a fox, 35mm film",
      negativePrompt: "text",
      error: null,
    });
    expect(applyCustomStyle("a fox", "blur", null)).toEqual({ prompt: "a fox", negativePrompt: "blur", error: null });
  });

  it("holds the spec's limits for the prompt as drawn", () => {
    // 489 + ", " + 9 = 500 code points: accepted; one more is over.
    expect(applyCustomStyle("a".repeat(489), "", STYLE).error).toBeNull();
    expect(applyCustomStyle("a".repeat(490), "", STYLE).error).toMatch(/shorten it by 1$/);
    expect(applyCustomStyle("a fox", "n".repeat(295), STYLE).error).toMatch(/negative prompt/);
  });

  it("checks a style's fields and the wire field", () => {
    expect(validateCustomStyle({ name: "Film", prompt: "grain", negativePrompt: "" })).toBeNull();
    expect(validateCustomStyle({ name: "", prompt: "grain", negativePrompt: "" })).toBe("Give the style a name");
    expect(parseAppliedCustomStyle(undefined)).toEqual({ value: null });
    expect(parseAppliedCustomStyle({ id: "x", name: "n", prompt: "p" })).toEqual({
      error: "custom_style.id must be a UUID",
    });
    const id = "3F0B8C4E-6A1D-4B7E-9C2F-1D2E3F4A5B6C";
    expect(parseAppliedCustomStyle({ id, name: " Film ", prompt: "grain" })).toEqual({
      value: { id: id.toLowerCase(), name: "Film", prompt: "grain", negativePrompt: "" },
    });
  });
});
