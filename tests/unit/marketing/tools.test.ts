import { describe, expect, it } from "vitest";
import {
  NOT_AN_IMAGE,
  fitWithin,
  isImageFile,
  prepareReference,
} from "../../../src/features/content/advanced/reference-image";
import { downloadName } from "../../../src/features/content/tools/text-effects-page";
import { fitFontSize } from "../../../src/features/content/tools/text-effects-render";

describe("reference image for the generator", () => {
  it("accepts image files only, with the spec's message", async () => {
    expect(isImageFile({ type: "image/png" })).toBe(true);
    expect(isImageFile({ type: "application/pdf" })).toBe(false);
    const result = await prepareReference(new File(["%PDF"], "doc.pdf", { type: "application/pdf" }));
    expect(result).toEqual({ ok: false, message: NOT_AN_IMAGE });
    expect(NOT_AN_IMAGE).toBe("Please select an image file");
  });

  it("shrinks to 1024 px on the longer side, keeping the shape, and never enlarges", () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 1024, height: 768 });
    expect(fitWithin(1000, 3000)).toEqual({ width: 341, height: 1024 });
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
  });
});

describe("text effects", () => {
  it("sizes the text to fit the canvas width", () => {
    const ctx = {
      font: "",
      measureText: (t: string) => ({ width: t.length * Number(/(\d+)px/.exec(ctx.font)![1]) * 0.6 }),
    };
    const short = fitFontSize(ctx as never, "Hi", 1200, 400);
    const long = fitFontSize(ctx as never, "A much longer line of text", 1200, 400);
    expect(short).toBe(220);
    expect(long).toBeLessThan(short);
    expect("A much longer line of text".length * long * 0.6).toBeLessThanOrEqual(1200 * 0.86);
  });

  it("names the download after the text", () => {
    expect(downloadName("Summer Sale!")).toBe("summer-sale-effect.png");
    expect(downloadName("   ")).toBe("text-effect.png");
  });
});
