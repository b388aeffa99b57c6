import { describe, expect, it } from "vitest";
import { canCompare, compareHint, compareLink, parseCompareIds, toggledSelection } from "#src/lib/compare-link.ts";

const A = "0b7c2a4e-1f7e-4c1b-9d5e-5a2b8f0c6d11";
const B = "1c8d3b5f-2a8f-4d2c-8e6f-6b3c9a1d7e22";
const C = "2d9e4c6a-3b9a-4e3d-9f7a-7c4dab2e8f33";
const D = "3eaf5d7b-4cab-4f4e-8a8b-8d5ebc3f9a44";
const E = "4fba6e8c-5dbc-4a5f-9b9c-9e6fcd4aab55";

describe("the /compare link", () => {
  it("holds the ids in order and reads back the same", () => {
    const link = compareLink([B, A, C]);
    expect(link).toBe(`/compare?ids=${B},${A},${C}`);
    expect(parseCompareIds(link.slice(link.indexOf("?")))).toEqual([B, A, C]);
  });

  it("keeps well-formed ids only, each once, lower-cased, and at most four", () => {
    expect(parseCompareIds(`?ids=${A},nope,${A.toUpperCase()},,${B}`)).toEqual([A, B]);
    expect(parseCompareIds(`?ids=${A},${B},${C},${D},${E}`)).toEqual([A, B, C, D]);
    expect(parseCompareIds("")).toEqual([]);
    expect(parseCompareIds(`?ids=${encodeURIComponent(`${A}, ${B}`)}`)).toEqual([A, B]);
  });
});

describe("a selection to compare", () => {
  it("keeps the order the images were picked in, and a second pick takes one out", () => {
    let selected: string[] = [];
    selected = toggledSelection(selected, C);
    selected = toggledSelection(selected, A);
    selected = toggledSelection(selected, B);
    expect(selected).toEqual([C, A, B]);
    selected = toggledSelection(selected, A);
    expect(selected).toEqual([C, B]);
  });

  it("can be compared with 2 to 4 images, and says why not otherwise", () => {
    expect([0, 1, 2, 3, 4, 5].map(canCompare)).toEqual([false, false, true, true, true, false]);
    expect(compareHint(1)).toBe("Select 2 to 4 images to compare");
    expect(compareHint(3)).toBe("3 selected");
    expect(compareHint(5)).toBe("Compare takes at most 4 images: 5 are selected");
  });
});
