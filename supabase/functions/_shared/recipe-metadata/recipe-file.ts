// An image file's recipe, whatever its format: PNG (iTXt and "parameters" text), JPEG (XMP and a comment)
// or WebP (XMP, extended format). The app writes it into every download and will read it to make an
// opened image again; the generate function writes it into the PNGs it stores.
import { isJpeg, readJpegRecipe, writeJpegRecipe } from "./jpeg.ts";
import { isPng, readPngRecipe, writePngRecipe } from "./png.ts";
import { type ImageRecipe, recipeJson } from "./recipe.ts";
import { isWebp, readWebpRecipe, writeWebpRecipe } from "./webp.ts";

/** The recipe an image carries, or null when it carries none (or is not a PNG, JPEG or WebP). */
export function readRecipe(bytes: Uint8Array): ImageRecipe | null {
  if (isPng(bytes)) return readPngRecipe(bytes);
  if (isJpeg(bytes)) return readJpegRecipe(bytes);
  if (isWebp(bytes)) return readWebpRecipe(bytes);
  return null;
}

/**
 * The image with `r` as its recipe and its pixels untouched (the same bytes when it already carries
 * exactly this recipe); null when it is not a PNG, JPEG or WebP whose structure can be read.
 */
export function writeRecipe(bytes: Uint8Array, r: ImageRecipe): Uint8Array | null {
  if (isPng(bytes)) return writePngRecipe(bytes, r);
  const same = readRecipe(bytes);
  if (same && recipeJson(same) === recipeJson(r)) return bytes;
  if (isJpeg(bytes)) return writeJpegRecipe(bytes, r);
  if (isWebp(bytes)) return writeWebpRecipe(bytes, r);
  return null;
}
