// The large view of one of the person's generations: the image, every setting, and what can be done
// with it (download, copy the prompt, make it again, save, publish, delete). The record is read live,
// so a change from another tab shows here too, and a delete elsewhere closes the view. Its actions keep
// the keyboard's place: a button at work is aria-disabled, not disabled (a disabled button drops the
// focus), and the delete question takes the focus to "Keep it" and gives it back to Delete.
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { removedFromGalleryLine } from "#shared/vocabulary/moderation.ts";
import type { GenerationRecord } from "../../db/schema";
import { recipeLink, recipeRows } from "../../lib/generation-recipe";
import { showToast } from "../../state/toasts";
import { DefinitionList } from "../../ui/definition-list";
import { Icon } from "../../ui/icons";
import { PageIcon } from "../../ui/page-icons";
import { Modal } from "../../ui/modal";
import { DownloadMenu } from "../../ui/download-menu";
import { removeGenerations, toggleSaved, togglePublished } from "./library-actions";
import { useRecordImage } from "../../sync/use-record-image";
import { useLargeViewTools } from "../../ui/large-view-tools";

type Props = {
  record: GenerationRecord;
  userId: string | undefined;
  onClose: () => void;
  /** Shows another of the person's generations in this view (the tools' links, such as a lineage). */
  onOpen?: (id: string) => void;
};

async function copyPrompt(prompt: string) {
  try {
    await navigator.clipboard.writeText(prompt);
    showToast({ tone: "success", title: "Prompt copied" });
  } catch {
    showToast({ tone: "error", title: "Copy failed", message: "This browser did not allow copying." });
  }
}

export function GenerationDialog({ record, userId, onClose, onOpen }: Props) {
  const image = useRecordImage(record);
  const tools = useLargeViewTools();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const working = useRef(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  const saved = record.isSaved === 1;
  const published = record.isPublic === 1;
  // An operator took it out of the gallery: the owner reads why, and it cannot be published again.
  const removed = record.removedAt !== undefined;

  useEffect(() => {
    if (confirming) keepButton.current?.focus();
    else if (asked.current) deleteButton.current?.focus();
    asked.current = confirming;
  }, [confirming]);

  const run = async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    if (working.current) return undefined;
    working.current = true;
    setBusy(true);
    try {
      return await action();
    } finally {
      working.current = false;
      setBusy(false);
    }
  };
  const remove = async () => {
    const deleted = await run(() => removeGenerations(userId, [record.id]));
    if (deleted === 1) onClose();
  };

  return (
    <Modal title="Generation" onClose={onClose} size="lg">
      <div className="grid gap-5 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid min-h-48 place-items-center overflow-hidden rounded-box bg-base-200">
          {image.src ? (
            <img
              src={image.src}
              crossOrigin="anonymous"
              alt={record.prompt}
              width={record.width}
              height={record.height}
              className="max-h-[60vh] w-auto object-contain"
            />
          ) : (
            <p role={image.error ? "alert" : "status"} className="p-6 text-sm text-base-content/80">
              {image.error ?? "Loading image…"}
            </p>
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <DefinitionList rows={recipeRows(record)} />
          <div className="flex flex-wrap gap-2">
            <Link to={recipeLink(record)} className="btn btn-primary btn-sm" data-autofocus>
              <Icon name="sparkles" className="size-4" />
              Use these settings
            </Link>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => void copyPrompt(record.prompt)}>
              <PageIcon name="copy" className="size-4" />
              Copy prompt
            </button>
          </div>
          <DownloadMenu recipe={record} image={image.blob} src={image.src} />
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              aria-pressed={saved}
              aria-disabled={busy || undefined}
              onClick={() => void run(() => toggleSaved(userId, record.id, !saved))}
            >
              <Icon name="bookmark" className="size-4" />
              {saved ? "Unsave" : "Save"}
            </button>
            <button
              type="button"
              className="btn btn-outline btn-sm"
              aria-pressed={published}
              aria-disabled={busy || (removed && !published) || undefined}
              onClick={() => {
                if (!removed || published) void run(() => togglePublished(userId, record.id, !published));
              }}
            >
              <Icon name="globe" className="size-4" />
              {published ? "Unpublish" : "Publish"}
            </button>
            {!confirming && (
              <button
                ref={deleteButton}
                type="button"
                className="btn btn-outline btn-sm"
                aria-disabled={busy || undefined}
                onClick={() => !working.current && setConfirming(true)}
              >
                Delete
              </button>
            )}
          </div>
          {tools.map((Tool, i) => (
            <Tool
              key={i}
              generationId={record.id}
              recipe={record}
              image={image.blob}
              src={image.src}
              open={onOpen ?? (() => undefined)}
            />
          ))}
          {removed && (
            <p className="alert alert-warning alert-soft text-sm text-base-content">
              {removedFromGalleryLine(record.removedReason ?? null)}
            </p>
          )}
          {confirming && (
            <div role="group" aria-label="Confirm delete" className="alert alert-error alert-soft flex-wrap text-sm">
              <span>Delete this generation and its image for good?</span>
              <div className="flex gap-2">
                <button
                  ref={keepButton}
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => setConfirming(false)}
                >
                  Keep it
                </button>
                <button
                  type="button"
                  className="btn btn-error btn-sm"
                  aria-disabled={busy || undefined}
                  onClick={() => void remove()}
                >
                  Delete for good
                </button>
              </div>
            </div>
          )}
        </div>
      </div>
    </Modal>
  );
}
