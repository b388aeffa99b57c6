// Download PNG, JPG or WebP from the large view, converted in the browser from the cached bytes
// (or, when this device has none yet, from the signed URL the view already shows).
import { useState } from "react";
import type { GenerationRecord } from "../../db/schema";
import { EXPORT_FORMATS, convertImage, fileNameFor, saveBlob, type ExportFormat } from "../../lib/image-export";
import { showToast } from "../../state/toasts";
import { Icon } from "../../ui/icons";

async function sourceBlob(image: Blob | undefined, src: string | undefined): Promise<Blob> {
  if (image) return image;
  if (!src) throw new Error("The image has not loaded yet.");
  const response = await fetch(src);
  if (!response.ok) throw new Error("The image could not be loaded.");
  return response.blob();
}

type Props = {
  record: GenerationRecord;
  /** The full bytes this device keeps, when it keeps them. */
  image: Blob | undefined;
  src: string | undefined;
};

export function DownloadMenu({ record, image, src }: Props) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    try {
      saveBlob(await convertImage(await sourceBlob(image, src), format), fileNameFor(record.prompt, format));
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
  const ready = Boolean(image || src);
  return (
    <div className="flex flex-wrap gap-2">
      {EXPORT_FORMATS.map((f) => (
        <button
          key={f.format}
          type="button"
          className="btn btn-outline btn-sm"
          aria-label={`Download ${f.label}`}
          disabled={busy !== null || !ready}
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
