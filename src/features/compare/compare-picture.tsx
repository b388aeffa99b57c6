// One compared image as a picture: the person's own from this device's library (the kept bytes, else a
// signed URL when online: sync/use-record-image.ts), a published one read through the Storage API as the
// current role (the bucket's policy decides, as in the gallery's large view). The gallery's bytes are
// read once per image while the page is open, however many times the page shows it (side by side and
// in the slider).
import { useEffect, useState } from "react";
import { useRecordImage } from "../../sync/use-record-image";
import { useTileImage } from "../../sync/use-tile-image";
import { Icon } from "../../ui/icons";
import { useObjectUrl } from "../../ui/use-object-url";
import type { ReadyItem } from "./use-compare-items";

type Props = { item: ReadyItem; className?: string };

const galleryBytes = new Map<string, Promise<Blob | null>>();

function publishedBytes(path: string): Promise<Blob | null> {
  let bytes = galleryBytes.get(path);
  if (!bytes) {
    bytes = import("../../api/gallery")
      .then(({ loadPublishedImage }) => loadPublishedImage(path))
      .then((r) => (r.ok ? r.value : null))
      .catch(() => null);
    galleryBytes.set(path, bytes);
    // A failure is not kept: the next view asks again.
    void bytes.then((b) => b ?? galleryBytes.delete(path));
  }
  return bytes;
}

function Placeholder({ error, className }: { error?: string; className?: string }) {
  return (
    <span className={`grid place-items-center bg-base-200 text-base-content/60 ${className ?? ""}`}>
      <Icon name={error ? "alert" : "image"} className="size-8" />
      <span className="sr-only">{error ?? "Loading image"}</span>
    </span>
  );
}

/**
 * One's own image: its kept grid thumbnail at once (History's tiles have it in memory), then the full
 * picture in the same element once it is read (the browser shows the thumbnail until the full one has
 * loaded, so nothing flashes).
 */
function LibraryPicture({ item, className }: Props & { item: Extract<ReadyItem, { source: "library" }> }) {
  const image = useRecordImage(item.record);
  const tile = useTileImage(item.record);
  const src = image.src ?? tile.src;
  if (!src) return <Placeholder error={image.error} className={className} />;
  return (
    <img
      data-full={image.src ? "" : undefined}
      src={src}
      crossOrigin="anonymous"
      alt={item.recipe.prompt}
      width={item.recipe.width}
      height={item.recipe.height}
      className={className}
    />
  );
}

function GalleryPicture({ item, className }: Props & { item: Extract<ReadyItem, { source: "gallery" }> }) {
  const [blob, setBlob] = useState<{ path: string; blob: Blob | null }>();
  const path = item.row.image_path;
  useEffect(() => {
    let live = true;
    void publishedBytes(path).then((b) => live && setBlob({ path, blob: b }));
    return () => {
      live = false;
    };
  }, [path]);
  const current = blob?.path === path ? blob.blob : undefined;
  const url = useObjectUrl(current ?? undefined);
  if (!url) return <Placeholder error={current === null ? "Image unavailable" : undefined} className={className} />;
  return (
    <img
      data-full=""
      src={url}
      alt={item.recipe.prompt}
      width={item.recipe.width}
      height={item.recipe.height}
      className={className}
    />
  );
}

export function ComparePicture({ item, className }: Props) {
  return item.source === "library" ? (
    <LibraryPicture item={item} className={className} />
  ) : (
    <GalleryPicture item={item} className={className} />
  );
}
