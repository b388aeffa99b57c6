import { describe, expect, it } from "vitest";
import { differenceSummary, diffRecipes } from "#src/features/compare/recipe-diff.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { recipeRows, type Recipe } from "#src/lib/generation-recipe.ts";
import { generationRow } from "../../../support/records.ts";

// A stored record reads as a recipe (the large view words it so).
const base: Recipe = toGenerationRecord(
  generationRow("00000000-0000-4000-8000-00000000000a", "u1", {
    prompt: "a lighthouse at dusk",
    style: "watercolor",
    quality: "high",
    seed: 7,
    created_at: "2026-11-26T10:00:00.000Z",
  }),
);

const byLabel = (rows: ReturnType<typeof diffRecipes>) => Object.fromEntries(rows.map((r) => [r.label, r]));

describe("the compare table's rows", () => {
  it("has every field of the recipe as the large view words it, in its order, one value per image", () => {
    const other = { ...base, id: "b", seed: 8 };
    const rows = diffRecipes([base, other], "UTC");
    expect(rows.map((r) => r.label)).toEqual(recipeRows(base).map((r) => r.label));
    expect(byLabel(rows).Seed.values).toEqual(["7", "8"]);
    expect(rows.every((r) => r.values.length === 2)).toBe(true);
  });

  it("marks exactly the fields whose worded values differ", () => {
    const b = { ...base, id: "b", style: "anime", seed: 8 };
    const c = { ...base, id: "c", style: "anime", seed: 7, negativePrompt: "   " };
    const rows = byLabel(diffRecipes([base, b, c], "UTC"));
    expect(rows.Style.differs).toBe(true);
    expect(rows.Seed.differs).toBe(true);
    expect(rows.Style.values).toEqual(["Watercolor", "Anime", "Anime"]);
    // An empty negative prompt and one of spaces both read "None": the same.
    expect(rows["Negative prompt"].differs).toBe(false);
    for (const same of ["Prompt", "Quality", "Aspect ratio", "Size", "Model", "Created"]) {
      expect(rows[same].differs, same).toBe(false);
    }
    expect(differenceSummary(Object.values(rows))).toBe("2 fields differ.");
  });

  it("tells ratio and size apart, and a random seed from a fixed one", () => {
    const wide = { ...base, id: "b", aspectRatio: "16:9" as const, width: 1536, height: 864, seed: null };
    const rows = byLabel(diffRecipes([base, wide], "UTC"));
    expect(rows["Aspect ratio"].differs).toBe(true);
    expect(rows.Size.values).toEqual(["1024 × 1024", "1536 × 864"]);
    expect(rows.Seed.values).toEqual(["7", "Random"]);
  });

  it("marks the date when the images were made at different times", () => {
    const rows = diffRecipes([base, { ...base, id: "b", createdAt: "2026-11-27T10:00:00.000Z" }], "UTC");
    expect(rows.filter((r) => r.differs).map((r) => r.label)).toEqual(["Created"]);
  });

  it("shows a field only some recipes word as a dash for the others, and marks it", () => {
    const rows = diffRecipes([{ ...base, customStyle: "Ink wash" }, base], "UTC");
    expect(rows.map((r) => r.label)).toContain("Custom style");
    expect(byLabel(rows)["Custom style"]).toEqual({ label: "Custom style", values: ["Ink wash", "—"], differs: true });
    expect(rows.filter((r) => r.differs).map((r) => r.label)).toEqual(["Custom style"]);
  });

  it("adds a variation's reference image, naming a compared parent by its letter", () => {
    const parent = { ...base, id: "p" };
    const subtle = { ...base, id: "s", variation: { of: "p", kind: "subtle" as const } };
    const elsewhere = { ...base, id: "e", variation: { of: "x", kind: "subtle" as const } };
    const strong = { ...base, id: "t", seed: 99, variation: { of: "p", kind: "strong" as const } };
    const rows = byLabel(diffRecipes([parent, subtle, elsewhere, strong], "UTC"));
    expect(rows["Reference image"].values).toEqual([
      "None recorded",
      "The picture of A",
      "Its parent's picture",
      "None recorded",
    ]);
    expect(rows["Reference image"].differs).toBe(true);
    // Without a variation among them, there is no such row.
    expect(diffRecipes([parent, { ...base, id: "q" }], "UTC").map((r) => r.label)).not.toContain("Reference image");
  });

  it("says when nothing differs, and counts one field", () => {
    expect(differenceSummary(diffRecipes([base, { ...base, id: "b" }], "UTC"))).toBe("Every field is the same.");
    expect(differenceSummary(diffRecipes([base, { ...base, id: "b", quality: "ultra" }], "UTC"))).toBe(
      "1 field differs.",
    );
  });
});
