// The image of a record: the bytes cached on this device when present (works offline), else the
// stored object through a short-lived signed URL. Only the large view caches the bytes into Dexie:
// a write to the generations table re-runs every live list over it, so caching each tile scrolled
// past would keep a 10,000-item history busy re-reading itself.
import { useEffect, useState } from "react";
import { SIGNED_URL_SECONDS, signedImageUrl } from "../../api/library";
import type { GenerationRecord } from "../../db/schema";
import { useObjectUrl } from "./use-object-url";

export type RecordImage = { src?: string; error?: string };

/** Signed URLs already made, reused while well inside their lifetime (a tile scrolled back into view). */
const signed = new Map<string, { url: string; until: number }>();
const REUSE_MS = (SIGNED_URL_SECONDS * 1000) / 2;

async function remoteUrl(path: string, cacheFor: string | undefined) {
  const known = signed.get(path);
  if (known && known.until > Date.now() && !cacheFor) return { ok: true as const, value: known.url };
  const result = await signedImageUrl(path, cacheFor);
  if (result.ok) signed.set(path, { url: result.value, until: Date.now() + REUSE_MS });
  return result;
}

export function useRecordImage(
  record: Pick<GenerationRecord, "id" | "imagePath" | "image" | "thumbnail">,
  variant: "thumbnail" | "full" = "thumbnail",
): RecordImage {
  const blob = variant === "thumbnail" ? (record.thumbnail ?? record.image) : record.image;
  const local = useObjectUrl(blob);
  const [remote, setRemote] = useState<{ path: string; src?: string; error?: string }>();
  const needsRemote = !blob && Boolean(record.imagePath);
  const cacheFor = variant === "full" ? record.id : undefined;

  useEffect(() => {
    if (!needsRemote) return;
    let live = true;
    void remoteUrl(record.imagePath, cacheFor).then((r) => {
      if (!live) return;
      setRemote(r.ok ? { path: record.imagePath, src: r.value } : { path: record.imagePath, error: r.error.message });
    });
    return () => {
      live = false;
    };
  }, [needsRemote, record.imagePath, cacheFor]);

  if (blob) return { src: local };
  if (remote?.path === record.imagePath) return { src: remote.src, error: remote.error };
  return {};
}
