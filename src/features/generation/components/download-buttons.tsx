// Download as PNG, JPG or WebP (spec §1), converted in the browser from the cached bytes and named
// from the prompt. A conversion that fails says so in a toast instead of saving a wrong file.
import { useState } from "react";
import { showToast } from "../../../state/toasts";
import { Icon } from "../../../ui/icons";
import { EXPORT_FORMATS, convertImage, fileNameFor, saveBlob, type ExportFormat } from "../../../lib/image-export";

export function DownloadButtons({ image, prompt }: { image: Blob; prompt: string }) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    try {
      saveBlob(await convertImage(image, format), fileNameFor(prompt, format));
    } catch (e) {
      showToast({
        tone: "error",
        title: "Download failed",
        message: e instanceof Error ? e.message : "The image could not be converted.",
      });
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
          aria-label={`Download ${f.label}`}
          disabled={busy !== null}
          onClick={() => void download(f.format)}
        >
          {busy === f.format ? (
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          ) : (
            <Icon name="download" className="size-4" />
          )}
          {f.label}
        </button>
      ))}
    </div>
  );
}
