// The image of a record: the bytes cached on this device when present (works offline), else the
// stored object through a short-lived signed URL, which also caches the bytes into Dexie so the
// next view, and the next offline visit, read them locally.
import { useEffect, useState } from "react";
import { signedImageUrl } from "../../api/library";
import type { GenerationRecord } from "../../db/schema";
import { useObjectUrl } from "./use-object-url";

export type RecordImage = { src?: string; error?: string };

export function useRecordImage(
  record: Pick<GenerationRecord, "id" | "imagePath" | "image" | "thumbnail">,
  variant: "thumbnail" | "full" = "thumbnail",
): RecordImage {
  const blob = variant === "thumbnail" ? (record.thumbnail ?? record.image) : record.image;
  const local = useObjectUrl(blob);
  const [remote, setRemote] = useState<{ path: string; src?: string; error?: string }>();
  const needsRemote = !blob && Boolean(record.imagePath);

  useEffect(() => {
    if (!needsRemote) return;
    let live = true;
    void signedImageUrl(record.imagePath, record.id).then((r) => {
      if (!live) return;
      setRemote(r.ok ? { path: record.imagePath, src: r.value } : { path: record.imagePath, error: r.error.message });
    });
    return () => {
      live = false;
    };
  }, [needsRemote, record.imagePath, record.id]);

  if (blob) return { src: local };
  if (remote?.path === record.imagePath) return { src: remote.src, error: remote.error };
  return {};
}
