// The one prompt check every side runs (#shared/vocabulary/prompt.ts): trimmed, counted in code points.
import { describe, expect, it } from "vitest";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { NEGATIVE_PROMPT_MAX_CHARS, PROMPT_MAX_CHARS } from "#shared/vocabulary/generation.ts";
import {
  charsLeft,
  clipChars,
  countChars,
  countedChars,
  validateNegativePrompt,
  validatePrompt,
} from "#shared/vocabulary/prompt.ts";
import { unstorableMessage } from "#shared/vocabulary/text.ts";

const PALETTE = "🎨"; // one code point, two UTF-16 units
const FAMILY = "👨‍👩‍👧"; // five code points (three people joined by two ZWJ), eight UTF-16 units

describe("countChars", () => {
  it("counts ASCII one per letter", () => {
    expect(countChars("")).toBe(0);
    expect(countChars("a fox in snow")).toBe(13);
  });

  it("counts an emoji (a surrogate pair) as one, not as its two UTF-16 units", () => {
    expect(PALETTE.length).toBe(2);
    expect(countChars(PALETTE)).toBe(1);
    expect(countChars(`a ${PALETTE} b`)).toBe(5);
    expect(countChars("𝔘𝔫𝔦𝔠𝔬𝔡𝔢")).toBe(7);
  });

  it("counts code points, as Postgres char_length does: a joined emoji is each of its parts", () => {
    expect(countChars(FAMILY)).toBe(5);
    expect(countChars("e\u0301")).toBe(2); // e + combining acute accent
    expect(countChars("\u00e9")).toBe(1); // é as one code point
  });

  it("counts a lone surrogate as one (the storable-text check refuses it separately)", () => {
    expect(countChars("\ud83e")).toBe(1);
    expect(countChars("a\udc00b")).toBe(3);
  });

  it("counts a field's text trimmed, and the characters left under the limit", () => {
    expect(countedChars(`  ${PALETTE} \n`)).toBe(1);
    expect(charsLeft("", PROMPT_MAX_CHARS)).toBe(PROMPT_MAX_CHARS);
    expect(charsLeft(PALETTE.repeat(10), PROMPT_MAX_CHARS)).toBe(PROMPT_MAX_CHARS - 10);
    expect(charsLeft("x".repeat(PROMPT_MAX_CHARS + 1), PROMPT_MAX_CHARS)).toBe(-1);
  });
});

describe("clipChars", () => {
  it("keeps at most the limit in code points and never splits a surrogate pair", () => {
    expect(clipChars("abc", 5)).toBe("abc");
    expect(clipChars("abcdef", 3)).toBe("abc");
    expect(clipChars(PALETTE.repeat(4), 3)).toBe(PALETTE.repeat(3));
    expect(clipChars(`ab${PALETTE}`, 3)).toBe(`ab${PALETTE}`);
    expect(clipChars(`abc${PALETTE}`, 3)).toBe("abc");
  });
});

describe("validatePrompt", () => {
  it("accepts an ordinary prompt", () => {
    expect(validatePrompt("A lighthouse on a cliff at dusk")).toBeNull();
  });

  it("requires a prompt after trimming", () => {
    expect(validatePrompt("")).toBe(VALIDATION_MESSAGES.promptRequired);
    expect(validatePrompt("   ")).toBe(VALIDATION_MESSAGES.promptRequired);
    expect(validatePrompt(" \n\t\u00a0\u3000 ")).toBe(VALIDATION_MESSAGES.promptRequired);
  });

  it("accepts 500 ASCII characters and refuses 501", () => {
    expect(validatePrompt("x".repeat(PROMPT_MAX_CHARS))).toBeNull();
    expect(validatePrompt("x".repeat(PROMPT_MAX_CHARS + 1))).toBe(VALIDATION_MESSAGES.promptTooLong);
  });

  it("accepts 500 emoji (1,000 UTF-16 units) and refuses 501", () => {
    const five00 = PALETTE.repeat(PROMPT_MAX_CHARS);
    expect(five00.length).toBe(PROMPT_MAX_CHARS * 2);
    expect(validatePrompt(five00)).toBeNull();
    expect(validatePrompt(PALETTE.repeat(PROMPT_MAX_CHARS + 1))).toBe(VALIDATION_MESSAGES.promptTooLong);
    expect(validatePrompt(`${"x".repeat(PROMPT_MAX_CHARS - 1)}${PALETTE}`)).toBeNull();
  });

  it("does not count the white space around the prompt", () => {
    expect(validatePrompt(`  ${"x".repeat(PROMPT_MAX_CHARS)}  \n`)).toBeNull();
  });

  it("refuses text the database cannot store", () => {
    expect(validatePrompt("a fox\u0000 in snow")).toBe(unstorableMessage("The prompt"));
    expect(validatePrompt("a fox \ud83e in snow")).toBe(unstorableMessage("The prompt"));
  });
});

describe("validateNegativePrompt", () => {
  it("may be empty or blank", () => {
    expect(validateNegativePrompt("")).toBeNull();
    expect(validateNegativePrompt("   ")).toBeNull();
  });

  it("accepts 300 characters, emoji counted as one, and refuses 301", () => {
    expect(validateNegativePrompt("y".repeat(NEGATIVE_PROMPT_MAX_CHARS))).toBeNull();
    expect(validateNegativePrompt(PALETTE.repeat(NEGATIVE_PROMPT_MAX_CHARS))).toBeNull();
    expect(validateNegativePrompt("y".repeat(NEGATIVE_PROMPT_MAX_CHARS + 1))).toBe(
      VALIDATION_MESSAGES.negativePromptTooLong,
    );
  });

  it("refuses text the database cannot store", () => {
    expect(validateNegativePrompt("blur\u0000")).toBe(unstorableMessage("The negative prompt"));
    expect(validateNegativePrompt("\udc00 blur")).toBe(unstorableMessage("The negative prompt"));
  });
});
