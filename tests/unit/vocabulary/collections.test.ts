// A collection's name and a smart collection's filter (decision 157), checked once for the client and the
// database: what each check accepts and the message it gives for the first problem.
import { describe, expect, it } from "vitest";
import {
  COLLECTION_NAME_MAX,
  COLLECTION_WITHIN_DAYS_MAX,
  validateCollectionFilter,
  validateCollectionName,
} from "#shared/vocabulary/collections.ts";

describe("collection vocabulary", () => {
  it("takes a trimmed name of 1 to 60 characters", () => {
    expect(validateCollectionName(" Moodboard ")).toBeNull();
    expect(validateCollectionName("é".repeat(COLLECTION_NAME_MAX))).toBeNull();
    expect(validateCollectionName("   ")).toBe("Give the collection a name");
    expect(validateCollectionName("x".repeat(COLLECTION_NAME_MAX + 1))).toBe("The name can be at most 60 characters");
    expect(validateCollectionName("a\u0000b")).toBe("The name holds characters that cannot be stored");
  });

  it("accepts every field of a filter, alone or together", () => {
    const every = {
      text: "red fox",
      style: "photorealistic",
      quality: "ultra",
      aspectRatio: "16:9",
      engine: "local-sd",
      saved: true,
      published: false,
      from: "2026-01-01",
      to: "2026-12-31",
      withinDays: COLLECTION_WITHIN_DAYS_MAX,
    };
    expect(validateCollectionFilter(every)).toBeNull();
    for (const [key, value] of Object.entries(every)) expect(validateCollectionFilter({ [key]: value })).toBeNull();
  });

  it.each([
    [null, "A smart collection needs a filter"],
    [[], "A smart collection needs a filter"],
    [{}, "Choose at least one thing the collection filters on"],
    [{ colour: "red" }, "The filter has an unknown field: colour"],
    [{ text: "  " }, "The words must be text"],
    [{ text: "w".repeat(201) }, "The words can be at most 200 characters"],
    [{ style: "oil" }, "Choose one of the styles"],
    [{ quality: "best" }, "Choose one of the qualities"],
    [{ aspectRatio: "4:3" }, "Choose one of the aspect ratios"],
    [{ engine: "Local SD" }, "Choose one of the engines"],
    [{ saved: "yes" }, "Saved must be yes or no"],
    [{ published: 1 }, "Published must be yes or no"],
    [{ from: "2026-13-01" }, "Dates must be days (yyyy-mm-dd)"],
    [{ to: "2026-02-01T00:00" }, "Dates must be days (yyyy-mm-dd)"],
    [{ from: "2026-02-02", to: "2026-02-01" }, "The first day must not be after the last"],
    [{ withinDays: 0 }, '"Made in the last" must be 1 to 3650 days'],
    [{ withinDays: 1.5 }, '"Made in the last" must be 1 to 3650 days'],
  ])("refuses %j: %s", (filter, message) => {
    expect(validateCollectionFilter(filter)).toBe(message);
  });
});
