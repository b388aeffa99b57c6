// The large view of a published generation: the image, its prompt and every setting, and "Use this
// recipe", which opens the generator filled in (seed included). A visitor signs in first and then
// lands on that same filled generator. Below: its own page, its link, sharing and reporting.
import type { PublishedRow } from "../../api/gallery";
import { Modal } from "../../ui/modal";
import { PublishedImageDetails, PublishedImageFrame } from "./published-image-frame";

type Props = { row: PublishedRow; onClose: () => void; onReport: () => void };

export function GalleryItemDialog({ row, onClose, onReport }: Props) {
  return (
    <Modal title="Published image" onClose={onClose} size="lg">
      <div className="grid gap-5 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PublishedImageFrame row={row} minHeight="min-h-48" maxHeight="max-h-[60vh]" />
        <PublishedImageDetails
          row={row}
          recipeLabel="Use this recipe"
          recipeClassName="btn btn-primary btn-sm"
          autoFocusRecipe
          onReport={onReport}
          pageLink
        />
      </div>
    </Modal>
  );
}
