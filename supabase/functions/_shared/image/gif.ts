// GIF decoding with omggif, first frame only (a reference image is a still). The caller has checked the
// logical screen size from the header; the frame must lie inside it, so the frame's index buffer is
// bounded by the same limits. Pixels outside the frame stay transparent.
// @ts-types="npm:@types/omggif@1.0.5"
// deno-lint-ignore no-import-prefix -- deployed functions have no package.json to map a bare name
import { GifReader } from "npm:omggif@1.0.10";
import { fail, type ImageResult, ok, type RgbaImage } from "./result.ts";

export function decodeGif(bytes: Uint8Array): ImageResult<RgbaImage> {
  // omggif reads past the end as `undefined` and throws on the first block it cannot size: a file cut
  // short anywhere after the screen descriptor ends up here.
  let reader: GifReader;
  try {
    reader = new GifReader(bytes);
  } catch (e) {
    return fail("image_corrupt", `GIF is truncated or damaged: ${(e as Error).message}`);
  }
  if (reader.numFrames() === 0) return fail("image_corrupt", "GIF is truncated: it has no image frame");
  const frame = reader.frameInfo(0);
  if (frame.x + frame.width > reader.width || frame.y + frame.height > reader.height) {
    return fail("image_corrupt", "GIF frame lies outside the image");
  }
  if (frame.palette_offset === null) return fail("image_corrupt", "GIF frame has no colour table");
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  try {
    reader.decodeAndBlitFrameRGBA(0, rgba);
  } catch (e) {
    return fail("image_corrupt", `GIF image data is corrupt: ${(e as Error).message}`);
  }
  return ok({ width: reader.width, height: reader.height, rgba });
}
