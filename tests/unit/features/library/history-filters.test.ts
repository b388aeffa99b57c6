import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS, activeFilterCount, toSearchOptions } from "#src/features/library/history-filters.ts";
import { dayBoundary } from "#src/db/search.ts";

describe("history filters", () => {
  it("sends nothing for empty filters", () => {
    expect(toSearchOptions(EMPTY_FILTERS)).toEqual({});
  });

  it("maps every filter to the device search", () => {
    const options = toSearchOptions({
      text: "  red fox ",
      style: "anime",
      quality: "high",
      aspectRatio: "16:9",
      saved: "yes",
      published: "no",
      from: "2026-11-01",
      to: "2026-11-02",
    });
    expect(options).toEqual({
      text: "red fox",
      style: "anime",
      quality: "high",
      aspectRatio: "16:9",
      saved: true,
      published: false,
      from: new Date(2026, 10, 1).toISOString(),
      to: new Date(2026, 10, 2, 23, 59, 59, 999).toISOString(),
    });
  });

  it("ignores values outside the product's rules", () => {
    expect(toSearchOptions({ ...EMPTY_FILTERS, quality: "max", aspectRatio: "4:3", from: "yesterday" })).toEqual({});
    expect(dayBoundary("2026-13-45x", false)).toBeUndefined();
  });

  it("counts the filters set besides the text", () => {
    expect(activeFilterCount({ ...EMPTY_FILTERS, text: "fox", style: "anime", saved: "no" })).toBe(2);
  });
});
