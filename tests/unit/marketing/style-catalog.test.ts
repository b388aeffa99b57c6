import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STYLES as ENGINE_STYLES } from "../../../supabase/functions/_shared/engine/styles.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { STYLES, STYLE_COUNT, stylePreviewSrc } from "../../../src/lib/style-catalog";

const PUBLIC = join(__dirname, "../../../public");
const MAX_PREVIEW_BYTES = 25 * 1024;

describe("the style catalog the public pages show", () => {
  it("lists exactly the engine's 27 styles, in its order, with its labels, descriptions and flags", () => {
    expect(STYLE_COUNT).toBe(27);
    expect(STYLES.map((s) => s.id)).toEqual([...STYLE_IDS]);
    for (const s of STYLES) {
      const engine = ENGINE_STYLES[s.id as keyof typeof ENGINE_STYLES];
      expect({ label: s.label, description: s.description, isPopular: s.isPopular, isNew: s.isNew }).toEqual({
        label: engine.label,
        description: engine.description,
        isPopular: engine.isPopular,
        isNew: engine.isNew,
      });
    }
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
