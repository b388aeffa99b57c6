// Asked before an identical re-run (same-recipe.ts): the person already has this image. Open it shows
// it in the preview; Generate anyway makes it again (one of the day's images).
import { useId } from "react";
import { Modal } from "../../../ui/modal";

type Props = { prompt: string; createdAt: string; onOpen: () => void; onGenerate: () => void; onClose: () => void };

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

export function SameRecipeDialog({ prompt, createdAt, onOpen, onGenerate, onClose }: Props) {
  const bodyId = useId();
  return (
    <Modal title="You already made this image" onClose={onClose} describedBy={bodyId}>
      <p id={bodyId} className="text-base-content/85">
        “{prompt}” with this style, quality, ratio, engine and seed was made on {when(createdAt)}. The same seed draws
        the same picture, so generating it again uses one of today’s images for a copy.
      </p>
      <div className="modal-action">
        <button type="button" data-autofocus className="btn btn-primary" onClick={onOpen}>
          Open it
        </button>
        <button type="button" className="btn btn-ghost" onClick={onGenerate}>
          Generate anyway
        </button>
      </div>
    </Modal>
  );
}
