// What can be done with the selected items of Saved or a collection: one zip of their images and settings,
// delete them (after a confirmation; Saved), what the page adds (a collection: remove from it), the tools the
// app hands in (add to a collection), or compare 2 to 4 of them (decision 156). It sticks to the top while
// the grid scrolls.
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
import { useSelectionTools, type SelectionBarProps } from "../../ui/selection-tools";

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

export function SelectionBar(props: SelectionBarProps<GenerationRecord>) {
  const { userId, items, selected, onChoose, zipName, deletable = true, children } = props;
  const onClear = () => onChoose(new Set());
  const tools = useSelectionTools();
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
      saveBlob(new Blob([bytes as BlobPart], { type: "application/zip" }), zipFileName(new Date(), zipName));
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
        status={
          count === 0
            ? `Select images to ${deletable ? "download, delete or compare" : "download or compare"}`
            : `${count} selected`
        }
      >
        {count < items.length ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => onChoose(new Set(items.map((r) => r.id)))}
          >
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
        {deletable && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={count === 0 || busy !== null}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        )}
        {children}
        {tools.map((Tool, i) => (
          <Tool key={i} generationIds={chosen.map((r) => r.id)} />
        ))}
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
