import { describe, expect, it } from "vitest";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { fitWithin, isImageFile, prepareReference } from "#src/lib/reference-image.ts";

describe("reference image for the generator", () => {
  it("accepts image files only, with the spec's message", async () => {
    expect(isImageFile({ type: "image/png" })).toBe(true);
    expect(isImageFile({ type: "application/pdf" })).toBe(false);
    const result = await prepareReference(new File(["%PDF"], "doc.pdf", { type: "application/pdf" }));
    expect(result).toEqual({ ok: false, message: VALIDATION_MESSAGES.notAnImage });
  });

  it("shrinks to 1024 px on the longer side, keeping the shape, and never enlarges", () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin(1000, 3000)).toEqual({ width: 341, height: 1024 });
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
  });
});
