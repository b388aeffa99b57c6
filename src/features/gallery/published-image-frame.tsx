// A published image, large, read again through the bucket's policy (an image unpublished since the page
// loaded no longer opens): the picture, a spinner while it loads, or a line saying it is not available.
// The gallery's dialog and the image's own page (/gallery/<id>) both show it.
import type { PublishedRow } from "../../api/gallery";
import { Spinner } from "../../ui/spinner";
import { usePublishedImage } from "./use-published-image";

type Props = {
  row: Pick<PublishedRow, "image_path" | "prompt" | "width" | "height">;
  /** The frame's least height and the picture's greatest, as Tailwind classes. */
  minHeight: string;
  maxHeight: string;
};

export function PublishedImageFrame({ row, minHeight, maxHeight }: Props) {
  const { image } = usePublishedImage(row.image_path, "view");
  return (
    <div className={`grid ${minHeight} place-items-center overflow-hidden rounded-box bg-base-200`}>
      {image.status === "ready" ? (
        <img
          src={image.url}
          alt={row.prompt}
          width={row.width}
          height={row.height}
          className={`${maxHeight} w-auto object-contain`}
        />
      ) : image.status === "loading" ? (
        <span role="status" aria-label="Loading image" className="inline-flex">
          <Spinner size="md" />
        </span>
      ) : (
        <p className="p-6 text-sm text-base-content/80">This image is not available right now.</p>
      )}
    </div>
  );
}
