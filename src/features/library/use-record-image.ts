// The image of a record, for a tile or the large view: the bytes this device keeps (the `images`
// table, read live by id, so it works offline), else the stored object through a short-lived signed
// URL. A tile shows the small thumbnail; when the device has none, the tile loads the stored image
// once and keeps a thumbnail of it, in idle time, so the grid scrolls on small local images from then
// on. The large view keeps the full bytes it loads, so an image opened once opens offline. Bytes go
// to their own table, so keeping them never re-runs the live lists of generations.
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { SIGNED_URL_SECONDS, signedImageUrl } from "../../api/library";
import { getImage, storeImage } from "../../db/images";
import type { GenerationRecord, ImageRecord } from "../../db/schema";
import { makeThumbnail } from "../../lib/thumbnail";
import { useObjectUrl } from "./use-object-url";

export type RecordImage = { src?: string; error?: string; blob?: Blob };

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

/** Ids whose thumbnail is being made, so two tiles of one record (or a re-render) make it once. */
const making = new Set<string>();

const whenIdle = (run: () => void) =>
  typeof requestIdleCallback === "function" ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 50);

/** Fetches the stored image once and keeps its thumbnail; failures only mean no thumbnail yet. */
function keepThumbnail(id: string, url: string): void {
  if (making.has(id)) return;
  making.add(id);
  whenIdle(() => {
    void (async () => {
      try {
        const response = await fetch(url);
        if (!response.ok) return;
        const thumbnail = await makeThumbnail(await response.blob());
        if (thumbnail) await storeImage(id, { thumbnail });
      } catch {
        // Offline or not decodable: the tile keeps showing the signed URL, and tries on its next showing.
      } finally {
        making.delete(id);
      }
    })();
  });
}

export function useRecordImage(
  record: Pick<GenerationRecord, "id" | "imagePath">,
  variant: "thumbnail" | "full" = "thumbnail",
): RecordImage {
  // null once read and absent; undefined while the read is under way.
  const bytes: ImageRecord | null | undefined = useLiveQuery(
    () => getImage(record.id).then((r) => r ?? null),
    [record.id],
  );
  const blob = variant === "thumbnail" ? (bytes?.thumbnail ?? bytes?.image) : bytes?.image;
  const local = useObjectUrl(blob);
  const [remote, setRemote] = useState<{ path: string; src?: string; error?: string }>();
  const needsRemote = bytes !== undefined && !blob && Boolean(record.imagePath);
  const cacheFor = variant === "full" ? record.id : undefined;

  useEffect(() => {
    if (!needsRemote) return;
    let live = true;
    void remoteUrl(record.imagePath, cacheFor).then((r) => {
      if (!live) return;
      setRemote(r.ok ? { path: record.imagePath, src: r.value } : { path: record.imagePath, error: r.error.message });
      if (r.ok && variant === "thumbnail") keepThumbnail(record.id, r.value);
    });
    return () => {
      live = false;
    };
  }, [needsRemote, record.imagePath, record.id, cacheFor, variant]);

  if (blob) return { src: local, blob };
  if (remote?.path === record.imagePath) return { src: remote.src, error: remote.error };
  return {};
}
