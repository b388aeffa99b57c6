import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STYLES as VOCABULARY_STYLES } from "#shared/vocabulary/styles.ts";
import { STYLES, STYLE_CATEGORIES, styleById, stylePreviewSrc } from "#src/lib/style-catalog.ts";

const PUBLIC = join(__dirname, "../../../public");
const MAX_PREVIEW_BYTES = 25 * 1024;

describe("the style catalog the public pages show", () => {
  it("is the vocabulary's styles, in its order, each with a known category, a tip and a preview prompt", () => {
    expect(
      STYLES.map(({ id, label, description, isPopular, isNew }) => ({ id, label, description, isPopular, isNew })),
    ).toEqual(VOCABULARY_STYLES);
    for (const s of STYLES) {
      expect(STYLE_CATEGORIES, s.id).toContain(s.category);
      expect(s.tip.length, s.id).toBeGreaterThan(20);
      expect(s.previewPrompt.length, s.id).toBeGreaterThan(5);
    }
    // Every category the filters offer has styles in it.
    for (const c of STYLE_CATEGORIES)
      expect(
        STYLES.some((s) => s.category === c),
        c,
      ).toBe(true);
  });

  it("finds a style by id and nothing for an unknown one", () => {
    expect(styleById("nano-banana")?.label).toBe("Nano Banana");
    expect(styleById("watercolour")).toBeUndefined();
    expect(styleById("constructor")).toBeUndefined();
  });

  it("marks the spec's popular styles and only nano-banana as new", () => {
    expect(STYLES.filter((s) => s.isPopular).map((s) => s.id)).toEqual([
      "photorealistic",
      "anime",
      "digital-art",
      "3d-render",
      "fantasy",
      "neon",
      "nano-banana",
    ]);
    expect(STYLES.filter((s) => s.isNew).map((s) => s.id)).toEqual(["nano-banana"]);
  });

  it("has a small WebP preview for every style and every carousel card", () => {
    const files = [
      ...STYLES.map((s) => stylePreviewSrc(s.id)),
      ...["photoreal", "illustration", "anime", "3d-render", "watercolor"].map((c) => `/previews/carousel/${c}.webp`),
    ];
    for (const src of files) {
      const file = join(PUBLIC, src);
      expect(existsSync(file), src).toBe(true);
      expect(statSync(file).size, src).toBeLessThanOrEqual(MAX_PREVIEW_BYTES);
    }
  });
});
