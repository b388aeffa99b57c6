import { describe, expect, it } from "vitest";
import { downloadName } from "#src/features/content/tools/text-effects-page.tsx";
import { fitFontSize } from "#src/features/content/tools/text-effects-render.ts";

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
