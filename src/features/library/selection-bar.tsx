// What can be done with the selected Saved items: one zip of their images and settings, delete them
// (after a confirmation), or compare 2 to 4 of them (decision 156). It sticks to the top while the grid scrolls.
import { useState } from "react";
import { signedImageUrl } from "../../api/library";
import { getImage } from "../../db/images";
import type { GenerationRecord } from "../../db/schema";
import { saveBlob } from "../../lib/image-export";
import { showDownloadFailed } from "../../ui/download-buttons";
import { Icon } from "../../ui/icons";
import { ConfirmModal } from "../../ui/modal";
import { removeGenerations } from "./library-actions";
import { buildZip, zipFileName, type ZipItem } from "./zip-export";
import { Spinner } from "../../ui/spinner";
import { CompareLink, SelectionToolbar } from "../../ui/compare-bar";

/** The bytes of a record: cached on this device, else fetched once (and cached for offline use). */
async function imageOf(record: GenerationRecord): Promise<Blob> {
  const held = (await getImage(record.id))?.image;
  if (held) return held;
  const url = await signedImageUrl(record.imagePath, record.id);
  if (!url.ok) throw new Error(url.error.message);
  const cached = (await getImage(record.id))?.image;
  if (cached) return cached;
  const response = await fetch(url.value);
  if (!response.ok) throw new Error("An image could not be loaded.");
  return response.blob();
}

type Props = {
  userId: string | undefined;
  items: readonly GenerationRecord[];
  selected: ReadonlySet<string>;
  onSelectAll: () => void;
  onClear: () => void;
};

export function SelectionBar({ userId, items, selected, onSelectAll, onClear }: Props) {
  const [busy, setBusy] = useState<"zip" | "delete" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const chosen = items.filter((r) => selected.has(r.id));
  const count = chosen.length;

  const downloadZip = async () => {
    setBusy("zip");
    try {
      const entries: ZipItem[] = [];
      for (const record of chosen) entries.push({ record, image: await imageOf(record) });
      const bytes = await buildZip(entries);
      saveBlob(new Blob([bytes as BlobPart], { type: "application/zip" }), zipFileName());
    } catch (e) {
      showDownloadFailed(e, "The zip could not be made.");
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    setBusy("delete");
    await removeGenerations(
      userId,
      chosen.map((r) => r.id),
    );
    setBusy(null);
    setConfirming(false);
    onClear();
  };

  return (
    <>
      <SelectionToolbar
        label="Selection"
        status={count === 0 ? "Select images to download, delete or compare" : `${count} selected`}
      >
        {count < items.length ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onSelectAll}>
            Select all
          </button>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClear}>
            Clear selection
          </button>
        )}
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={count === 0 || busy !== null}
          onClick={() => void downloadZip()}
        >
          {busy === "zip" ? <Spinner size="xs" /> : <Icon name="download" className="size-4" />}
          Download zip
        </button>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={count === 0 || busy !== null}
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
        <CompareLink ids={chosen.map((r) => r.id)} />
      </SelectionToolbar>
      {confirming && (
        <ConfirmModal
          title={count === 1 ? "Delete 1 generation?" : `Delete ${count} generations?`}
          body="The images and their settings are removed from your library on every device. This cannot be undone."
          confirmLabel="Delete"
          busy={busy === "delete"}
          onConfirm={() => void remove()}
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  );
}
