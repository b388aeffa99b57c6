import { describe, expect, it } from "vitest";
import { FILE_SLUG_MAX_CHARS, convertImage, fileNameFor } from "#src/lib/image-export.ts";

describe("download file names", () => {
  it("names the file from the prompt with the format's extension", () => {
    expect(fileNameFor("A red fox in snow", "png")).toBe("a-red-fox-in-snow.png");
    expect(fileNameFor("A red fox in snow!", "jpg")).toBe("a-red-fox-in-snow.jpg");
    expect(fileNameFor("  Crème brûlée, café & co.  ", "webp")).toBe("creme-brulee-cafe-co.webp");
  });

  it("shortens a long prompt at a word boundary", () => {
    const name = fileNameFor(
      "a very long prompt about a lighthouse on a cliff above a rough sea at dusk with gulls",
      "png",
    );
    const slug = name.replace(/\.png$/, "");
    expect(slug.length).toBeLessThanOrEqual(FILE_SLUG_MAX_CHARS);
    expect(slug.endsWith("-")).toBe(false);
    expect("a-very-long-prompt-about-a-lighthouse-on-a-cliff-above-a-rough-sea".startsWith(slug)).toBe(true);
  });

  it("falls back to a neutral name when the prompt has no letters or digits", () => {
    expect(fileNameFor("!!! ???", "png")).toBe("promptcanvas-image.png");
  });

  it("returns bytes already in the asked type unchanged", async () => {
    const png = new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });
    expect(await convertImage(png, "png")).toBe(png);
  });
});
