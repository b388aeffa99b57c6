// One button per export format (PNG, JPG, WebP): the image is converted in the browser, given its recipe
// and saved under a name made from its prompt. A conversion that fails says so in a toast instead of
// saving a wrong file.
import { useState } from "react";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { EXPORT_FORMATS, exportImage, fileNameFor, saveBlob, type ExportFormat } from "../lib/image-export";
import { showToast } from "../state/toasts";
import { Icon } from "./icons";
import { Spinner } from "./spinner";

type Props = {
  /** The generation's settings: the file's name comes from its prompt, and the file carries it all. */
  recipe: ImageRecipe;
  /** The image to convert: bytes at hand, or a way to get them when a button is pressed. */
  image: Blob | (() => Promise<Blob>);
  disabled?: boolean;
  /** The saved file's name; by default made from the recipe's prompt. */
  fileName?: (format: ExportFormat) => string;
  /** Words that tell these buttons from others beside them ("2×": "Download 2× PNG"). */
  what?: string;
};

/** Says in a toast that a download failed: the error's own words, else `fallback`. */
export function showDownloadFailed(error: unknown, fallback: string): void {
  showToast({ tone: "error", title: "Download failed", message: error instanceof Error ? error.message : fallback });
}

export function DownloadButtons({ recipe, image, disabled = false, fileName, what }: Props) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const source = typeof image === "function" ? await image() : image;
      saveBlob(await exportImage(source, format, recipe), fileName?.(format) ?? fileNameFor(recipe.prompt, format));
    } catch (e) {
      showDownloadFailed(e, "The image could not be converted.");
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      {EXPORT_FORMATS.map((f) => (
        <button
          key={f.format}
          type="button"
          className="btn btn-outline btn-sm"
          aria-label={what ? `Download ${what} ${f.label}` : `Download ${f.label}`}
          disabled={busy !== null || disabled}
          onClick={() => void download(f.format)}
        >
          {busy === f.format ? <Spinner size="xs" /> : <Icon name="download" className="size-4" />}
          {f.label}
        </button>
      ))}
    </div>
  );
}
