// Download PNG, JPG or WebP from the large view, converted in the browser from the cached bytes
// (or, when this device has none yet, from the signed URL the view already shows), with its recipe.
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { DownloadButtons } from "./download-buttons";

export async function sourceBlob(image: Blob | undefined, src: string | undefined): Promise<Blob> {
  if (image) return image;
  if (!src) throw new Error("The image has not loaded yet.");
  const response = await fetch(src);
  if (!response.ok) throw new Error("The image could not be loaded.");
  return response.blob();
}

type Props = {
  /** The generation's settings, written into the saved file; its prompt names the file. */
  recipe: ImageRecipe;
  /** The full bytes this device keeps, when it keeps them. */
  image: Blob | undefined;
  src: string | undefined;
};

export function DownloadMenu({ recipe, image, src }: Props) {
  return <DownloadButtons recipe={recipe} image={() => sourceBlob(image, src)} disabled={!image && !src} />;
}
