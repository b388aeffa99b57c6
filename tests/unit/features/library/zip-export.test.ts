// @vitest-environment node
// The zip of saved items: each image packed with its generation's recipe written in, pixels untouched.
import { describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { decode as decodePng, encode as encodePng } from "fast-png";
import { readRecipe } from "#shared/recipe-metadata/recipe-file.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { buildZip } from "#src/features/library/zip-export.ts";
import { generationRow } from "../../../support/records.ts";

describe("the zip of saved items", () => {
  it("packs each image with its recipe written in and its pixels as they were", async () => {
    const record = toGenerationRecord(
      generationRow("00000000-0000-4000-8000-000000000001", "u1", {
        prompt: "a lighthouse at dusk",
        negative_prompt: "fog",
        style: "oil-painting",
        quality: "ultra",
        seed: 7,
      }),
    );
    const pixels = new Uint8Array(4 * 4 * 3).map((_, i) => i * 5);
    const stored = encodePng({ width: 4, height: 4, data: pixels, channels: 3, depth: 8 });
    const files = unzipSync(
      await buildZip([{ record, image: new Blob([stored as Uint8Array<ArrayBuffer>], { type: "image/png" }) }]),
    );
    const packed = files["a-lighthouse-at-dusk.png"];
    expect(readRecipe(packed)).toEqual({
      prompt: "a lighthouse at dusk",
      negativePrompt: "fog",
      style: "oil-painting",
      quality: "ultra",
      aspectRatio: record.aspectRatio,
      width: record.width,
      height: record.height,
      seed: 7,
      provider: record.provider,
      model: record.model,
    });
    expect(decodePng(packed, { checkCrc: true }).data).toEqual(pixels);
  });
});
