// One tile of the library grid: the image (opening the large view), badges for saved and
// published, and in selection mode a checkbox named after the prompt.
import { memo } from "react";
import type { GenerationRecord } from "../../db/schema";
import { Icon } from "../../ui/icons";
import { useTileImage } from "./use-tile-image";

type Props = {
  record: GenerationRecord;
  onOpen: (id: string) => void;
  /** Defined in selection mode. */
  selected?: boolean;
  onToggle?: (id: string) => void;
};

// Memoized: the virtualized grid re-renders on every scroll frame, and a tile whose record and
// selection did not change has nothing to redo.
export const GenerationTile = memo(function GenerationTile({ record, onOpen, selected, onToggle }: Props) {
  const image = useTileImage(record);
  const selecting = selected !== undefined && onToggle;
  return (
    <div
      className={`group relative size-full overflow-hidden rounded-box border bg-base-200 ${selected ? "border-primary ring-2 ring-primary" : "border-base-300"}`}
    >
      <button
        type="button"
        className="block size-full cursor-zoom-in focus-visible:outline-2 focus-visible:outline-offset-[-4px] focus-visible:outline-primary"
        aria-label={`Open: ${record.prompt}`}
        onClick={() => onOpen(record.id)}
      >
        {image.src ? (
          <img
            src={image.src}
            alt=""
            width={record.width}
            height={record.height}
            loading="lazy"
            decoding="async"
            draggable={false}
            className="size-full object-cover"
          />
        ) : (
          <span className="grid size-full place-items-center text-base-content/50">
            <Icon name={image.error ? "alert" : "image"} className="size-8" />
            <span className="sr-only">{image.error ? "Image unavailable" : "Loading image"}</span>
          </span>
        )}
      </button>
      <span className="pointer-events-none absolute right-1.5 bottom-1.5 flex gap-1">
        {record.isSaved === 1 && (
          <span className="badge badge-sm badge-neutral gap-1" title="Saved">
            <Icon name="bookmark" className="size-3" />
            <span className="sr-only">Saved</span>
          </span>
        )}
        {record.isPublic === 1 && (
          <span className="badge badge-sm badge-neutral gap-1" title="Published">
            <Icon name="globe" className="size-3" />
            <span className="sr-only">Published</span>
          </span>
        )}
      </span>
      {selecting && (
        <label className="absolute top-1.5 left-1.5 grid size-8 cursor-pointer place-items-center rounded-field bg-base-100/90 shadow">
          <input
            type="checkbox"
            className="checkbox checkbox-sm checkbox-primary"
            checked={selected}
            onChange={() => onToggle(record.id)}
            aria-label={`Select: ${record.prompt}`}
          />
        </label>
      )}
    </div>
  );
});
