// One tile of the library grid: the image (opening the large view), badges for saved, published and
// removed from the gallery by its moderators (the large view says why), and in selection mode a checkbox
// named after the prompt.
import { memo } from "react";
import type { GenerationRecord } from "../../db/schema";
import { Icon } from "../../ui/icons";
import { useTileImage } from "../../sync/use-tile-image";

type Props = {
  record: GenerationRecord;
  onOpen: (id: string) => void;
  /** Whether the tile holds its grid's one Tab stop. */
  tabbable: boolean;
  /** Defined in selection mode. */
  selected?: boolean;
  onToggle?: (id: string) => void;
};

// Memoized: a grid row renders again when a row takes new records or the list changes, and a tile whose
// record and selection did not change has nothing to redo. A recycled tile takes another record while
// it stays in the DOM, so its parts are always there and only shown or hidden: changing a record
// changes attributes and text, never the tile's nodes.
export const GenerationTile = memo(function GenerationTile({ record, onOpen, tabbable, selected, onToggle }: Props) {
  const image = useTileImage(record);
  const selecting = selected !== undefined && onToggle;
  return (
    <div
      className={`group relative size-full overflow-hidden rounded-box border bg-base-200 ${selected ? "border-primary ring-2 ring-primary" : "border-base-300"}`}
    >
      <button
        type="button"
        tabIndex={tabbable ? 0 : -1}
        className="relative block size-full cursor-zoom-in focus-visible:outline-2 focus-visible:outline-offset-[-4px] focus-visible:outline-primary"
        aria-label={`Open: ${record.prompt}`}
        onClick={() => onOpen(record.id)}
      >
        {/* Hidden under a picture: a hidden subtree is not styled, which a grid restyling its tiles feels. */}
        <span className="grid size-full place-items-center text-base-content/50" hidden={Boolean(image.src)}>
          <Icon name={image.error ? "alert" : "image"} className="size-8" />
          <span className="sr-only">{image.error ? "Image unavailable" : "Loading image"}</span>
        </span>
        {/* A background, not an <img>: a recycled tile changes it without the fallback content an image
            element shows while its new source loads (bench/history-bench.mjs counted it). The button
            carries the name; the picture is decorative. */}
        <span
          data-tile-image={image.src ? "" : undefined}
          className="absolute inset-0 bg-cover bg-center"
          style={{ backgroundImage: image.src ? `url("${image.src}")` : "none" }}
        />
      </button>
      <span className="pointer-events-none absolute right-1.5 bottom-1.5 flex gap-1">
        <span className="badge badge-sm badge-neutral gap-1" title="Saved" hidden={record.isSaved !== 1}>
          <Icon name="bookmark" className="size-3" />
          <span className="sr-only">Saved</span>
        </span>
        <span className="badge badge-sm badge-neutral gap-1" title="Published" hidden={record.isPublic !== 1}>
          <Icon name="globe" className="size-3" />
          <span className="sr-only">Published</span>
        </span>
        <span
          className="badge badge-sm badge-warning gap-1"
          title="Removed from the gallery"
          hidden={record.removedAt === undefined}
        >
          <Icon name="alert" className="size-3" />
          <span className="sr-only">Removed from the gallery</span>
        </span>
      </span>
      {selecting && (
        <label className="absolute top-1.5 left-1.5 grid size-8 cursor-pointer place-items-center rounded-field bg-base-100/90 shadow">
          <input
            type="checkbox"
            className="checkbox checkbox-sm checkbox-primary"
            checked={selected}
            tabIndex={tabbable ? 0 : -1}
            onChange={() => onToggle(record.id)}
            aria-label={`Select: ${record.prompt}`}
          />
        </label>
      )}
    </div>
  );
});
