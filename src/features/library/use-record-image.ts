// The image of a record in the large view: the full bytes this device keeps (the `images` table, read
// live by id, so it works offline), else the stored object through a short-lived signed URL, whose
// bytes are then kept so the image opens offline from then on. Grid tiles use use-tile-image.ts.
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { SIGNED_URL_SECONDS, signedImageUrl } from "../../api/library";
import { getImage } from "../../db/images";
import type { GenerationRecord, ImageRecord } from "../../db/schema";
import { useObjectUrl } from "./use-object-url";

export type RecordImage = { src?: string; error?: string; blob?: Blob };

/** Signed URLs already made, reused while well inside their lifetime (a tile scrolled back into view). */
const signed = new Map<string, { url: string; until: number }>();
const REUSE_MS = (SIGNED_URL_SECONDS * 1000) / 2;

export async function remoteUrl(path: string, cacheFor: string | undefined) {
  const known = signed.get(path);
  if (known && known.until > Date.now() && !cacheFor) return { ok: true as const, value: known.url };
  const result = await signedImageUrl(path, cacheFor);
  if (result.ok) signed.set(path, { url: result.value, until: Date.now() + REUSE_MS });
  return result;
}

export function useRecordImage(record: Pick<GenerationRecord, "id" | "imagePath">): RecordImage {
  // null once read and absent; undefined while the read is under way.
  const bytes: ImageRecord | null | undefined = useLiveQuery(
    () => getImage(record.id).then((r) => r ?? null),
    [record.id],
  );
  const blob = bytes?.image;
  const local = useObjectUrl(blob);
  const [remote, setRemote] = useState<{ path: string; src?: string; error?: string }>();
  const needsRemote = bytes !== undefined && !blob && Boolean(record.imagePath);

  useEffect(() => {
    if (!needsRemote) return;
    let live = true;
    void remoteUrl(record.imagePath, record.id).then((r) => {
      if (!live) return;
      setRemote(r.ok ? { path: record.imagePath, src: r.value } : { path: record.imagePath, error: r.error.message });
    });
    return () => {
      live = false;
    };
  }, [needsRemote, record.imagePath, record.id]);

  if (blob) return { src: local, blob };
  if (remote?.path === record.imagePath) return { src: remote.src, error: remote.error };
  return {};
}
