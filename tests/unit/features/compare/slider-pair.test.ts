import { describe, expect, it } from "vitest";
import { choosePair, validPair } from "#src/features/compare/slider-pair.ts";

describe("the slider's pair", () => {
  it("starts on the first two and keeps a valid pair", () => {
    expect(validPair([0, 1], 2)).toEqual([0, 1]);
    expect(validPair([2, 3], 4)).toEqual([2, 3]);
  });

  it("falls back to the first two when a side points past the images or both sides are one", () => {
    expect(validPair([0, 3], 3)).toEqual([0, 1]);
    expect(validPair([1, 1], 4)).toEqual([0, 1]);
    expect(validPair([-1, 1], 4)).toEqual([0, 1]);
  });

  it("sets one side, and swaps when that side takes the other side's image", () => {
    expect(choosePair([0, 1], "right", 3)).toEqual([0, 3]);
    expect(choosePair([0, 1], "left", 2)).toEqual([2, 1]);
    expect(choosePair([0, 1], "left", 1)).toEqual([1, 0]);
    expect(choosePair([0, 1], "right", 0)).toEqual([1, 0]);
  });
});
