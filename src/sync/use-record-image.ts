// The image of a record in a large view (History's and Saved's dialog, the generator's preview): the
// full bytes this device keeps (the `images` table, read live by id, so it works offline), else, when
// online, the stored object through a short-lived signed URL, whose bytes are then kept so the image
// opens offline from then on. Offline with no bytes here it says so, and fills itself in when the
// connection returns. Showing it marks it viewed (the offline library lets the least recently viewed
// go first). Grid tiles use use-tile-image.ts.
// A view shows `src` in an <img crossOrigin="anonymous">: the queue and this hook fetch the same signed
// URL with fetch(), a CORS request, and a storage server may answer it with `Vary: Origin` (the local
// backend does: it names the origin that asked), so a plain <img> (no Origin) and the fetch each needed an
// answer of their own. Asked the same way, the second is read from the HTTP cache (decision 171).
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useRef, useState } from "react";
import { SIGNED_URL_SECONDS, signedImageUrl } from "../api/library";
import { getImage, touchImage } from "../db/images";
import type { GenerationRecord, ImageRecord } from "../db/schema";
import { useOnline } from "../lib/use-online";
import { freshImageUrl } from "./fresh-images";
import { trackForeground } from "./foreground";
import { useObjectUrl } from "../ui/use-object-url";

/** `fresh`: `src` is the answer's signed URL of an image just made here, its bytes not yet kept. */
export type RecordImage = { src?: string; error?: string; blob?: Blob; fresh?: boolean };

/** What a view says of an image this device does not keep, while offline. */
export const NOT_ON_DEVICE = "This image is not on this device yet. It opens when you are back online.";

/** Signed URLs already made, reused while well inside their lifetime (a tile scrolled back into view). */
const signed = new Map<string, { url: string; until: number }>();
const REUSE_MS = (SIGNED_URL_SECONDS * 1000) / 2;

/** A signed URL for a view (the background fill waits for it); with `cacheFor`, the bytes are kept too. */
export async function remoteUrl(path: string, cacheFor: string | undefined) {
  const known = signed.get(path);
  if (known && known.until > Date.now() && !cacheFor) return { ok: true as const, value: known.url };
  const result = await trackForeground(signedImageUrl(path, cacheFor));
  if (result.ok) signed.set(path, { url: result.value, until: Date.now() + REUSE_MS });
  return result;
}

/**
 * `record.image`, when the caller already read the bytes with the record,
 * is used as it is; otherwise they are read here.
 */
export function useRecordImage(record: Pick<GenerationRecord, "id" | "imagePath"> & { image?: Blob }): RecordImage {
  // null once read and absent; undefined while the read is under way.
  const bytes: ImageRecord | null | undefined = useLiveQuery(
    () => getImage(record.id).then((r) => r ?? null),
    [record.id],
  );
  const online = useOnline();
  const blob = record.image ?? bytes?.image;
  const local = useObjectUrl(blob);
  const [remote, setRemote] = useState<{ path: string; src?: string; error?: string }>();
  // Ids whose bytes this view already fetched to keep: if the offline library lets them go again
  // (past a small budget), the view shows the signed URL rather than fetching them over and over.
  const kept = useRef(new Set<string>());
  // A generation just made here: its answer's signed URL, while the queue keeps its bytes. Once this
  // view has shown it, it keeps showing it when the bytes arrive while online: the picture is already
  // decoded, and an object URL in its place would load and decode the same image again (a view opened
  // later, or offline, shows the kept bytes).
  const shownFresh = useRef<{ id: string; url: string }>(undefined);
  const fresh = blob ? undefined : freshImageUrl(record.id);
  if (fresh) shownFresh.current = { id: record.id, url: fresh };
  const stillFresh = shownFresh.current?.id === record.id ? shownFresh.current.url : undefined;
  const needsRemote = bytes !== undefined && !blob && !fresh && Boolean(record.imagePath);

  useEffect(() => {
    void touchImage(record.id).catch(() => undefined);
  }, [record.id]);

  useEffect(() => {
    if (!needsRemote || !online) return;
    let live = true;
    const keep = kept.current.has(record.id) ? undefined : record.id;
    kept.current.add(record.id);
    void remoteUrl(record.imagePath, keep).then((r) => {
      if (!live) return;
      setRemote(r.ok ? { path: record.imagePath, src: r.value } : { path: record.imagePath, error: r.error.message });
    });
    return () => {
      live = false;
    };
  }, [needsRemote, online, record.imagePath, record.id]);

  if (blob) return { src: (online && stillFresh) || local, blob };
  if (fresh) return { src: fresh, fresh: true };
  if (!online && needsRemote) return { error: NOT_ON_DEVICE };
  if (remote?.path === record.imagePath) return { src: remote.src, error: remote.error };
  return {};
}
