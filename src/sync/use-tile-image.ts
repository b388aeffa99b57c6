// The image of a grid tile. A virtualized grid gives its tiles new records as it scrolls, so a tile
// must not open a live query of its own: the tiles asking together ask in one batch (one IndexedDB
// read for all of them), the rows about to be drawn are read ahead a dozen at a time, and the pictures
// found are kept for the next time the same tiles scroll into view (at most THUMBNAILS_KEPT, the
// oldest dropped first). A thumbnail is a data: URL and is shown as it is; a full image without one is
// shown through an object URL (revoked when dropped) and gets its thumbnail in idle time. A tile whose
// bytes this device does not hold shows the stored object through a signed URL when online and keeps a
// thumbnail of it, in idle time, for the next showing (offline too); offline it says the image is not
// on this device, and fills itself in when the connection returns. An image this page's queue has just
// made waits for the queue's thumbnail (src/sync/fresh-images.ts) rather than decode the full image.
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { getImages, storeImage } from "../db/images";
import type { GenerationRecord } from "../db/schema";
import { afterPaint, whenIdle } from "../lib/schedule";
import { makeThumbnail } from "../lib/thumbnail";
import { useOnline } from "../lib/use-online";
import { freshImageUrl, isKeepingImage, subscribeKept } from "./fresh-images";
import { NOT_ON_DEVICE, remoteUrl, type RecordImage } from "./use-record-image";

const THUMBNAILS_KEPT = 1000;

/** id → the picture held for it: a thumbnail's data: URL or an image's object URL (a miss is read again). */
const urls = new Map<string, string>();

function remember(id: string, picture: string | Blob): string {
  const known = urls.get(id);
  if (known) return known;
  const url = typeof picture === "string" ? picture : URL.createObjectURL(picture);
  urls.set(id, url);
  for (const [oldest, oldUrl] of urls) {
    if (urls.size <= THUMBNAILS_KEPT) break;
    urls.delete(oldest);
    if (oldUrl.startsWith("blob:")) URL.revokeObjectURL(oldUrl);
  }
  return url;
}

/** Ids being read, with what each read will answer. */
const pending = new Map<string, Promise<string | null>>();
/** Ids read and found without bytes on this device: not read ahead again (a tile showing one still asks). */
const absent = new Set<string>();
/** Ids asked for in this task, answered together by one read. */
let queued: Array<[string, (url: string | null) => void]> | null = null;

async function answer(batch: Array<[string, (url: string | null) => void]>): Promise<void> {
  const ids = batch.map(([id]) => id);
  const held = await getImages(ids).catch(() => ids.map(() => undefined));
  batch.forEach(([id, resolve], i) => {
    const { thumbnail, image } = held[i] ?? {};
    if (!thumbnail && image) keepThumbnail(id, image);
    const picture = thumbnail ?? image;
    const url = picture ? remember(id, picture) : null;
    if (url) absent.delete(id);
    else absent.add(id);
    pending.delete(id);
    resolve(url);
  });
}

/** Reads the pictures of `ids` not held or being read, all in one read at the end of this task. */
function ask(ids: readonly string[]): void {
  for (const id of ids) {
    if (urls.has(id) || pending.has(id)) continue;
    if (!queued) {
      const batch: Array<[string, (url: string | null) => void]> = [];
      queued = batch;
      queueMicrotask(() => {
        queued = null;
        void answer(batch);
      });
    }
    const batch = queued;
    pending.set(id, new Promise((resolve) => batch.push([id, resolve])));
  }
}

function lookUp(id: string): Promise<string | null> {
  ask([id]);
  return pending.get(id) ?? Promise.resolve(urls.get(id) ?? null);
}

/**
 * Reads ahead the pictures of the tiles about to be drawn: when any of `near` is neither held nor
 * known to be absent, all of `ahead` not held are read in one go. A grid calls it as it
 * scrolls, so its reads come a dozen rows at a time, before the tiles draw, instead of a row at a time
 * after they did.
 */
export function prefetchTileImages(near: readonly string[], ahead: readonly string[]): void {
  // While a read is under way (the drawn tiles' own, on a first screen), reading ahead waits for the
  // next call: a first screen's pictures come before anything read ahead.
  if (pending.size > 0) return;
  if (near.some((id) => !urls.has(id) && !absent.has(id))) ask(ahead.filter((id) => !absent.has(id)));
}

/** Reads the pictures of `ids` not held, read or known to be absent, in one read (a first screen's). */
export function readTileImagesAhead(ids: readonly string[]): void {
  ask(ids.filter((id) => !absent.has(id)));
}

/**
 * Calls `fn` once the reads under way now have answered and the pictures they brought are painted (a
 * first screen's pictures, before the work that can wait); the answer cancels it.
 */
export function afterTileImagesPainted(fn: () => void): () => void {
  let cancel: (() => void) | undefined;
  let live = true;
  void Promise.all(pending.values()).then(() => {
    if (live) cancel = afterPaint(fn);
  });
  return () => {
    live = false;
    cancel?.();
  };
}

/** Ids whose thumbnail is being made, so two tiles of one record (or a re-render) make it once. */
const making = new Set<string>();

/**
 * Makes and keeps the thumbnail of an image, from its bytes or from the stored object's URL (fetched
 * once); failures only mean no thumbnail yet.
 */
function keepThumbnail(id: string, source: string | Blob): void {
  if (making.has(id)) return;
  making.add(id);
  whenIdle(
    () => {
      void (async () => {
        try {
          let image = source;
          if (typeof image === "string") {
            const response = await fetch(image);
            if (!response.ok) return;
            image = await response.blob();
          }
          const thumbnail = await makeThumbnail(image);
          if (thumbnail && (await storeImage(id, { thumbnail }))) absent.delete(id);
        } catch {
          // Offline or not decodable: the tile shows the signed URL, and tries on its next showing.
        } finally {
          making.delete(id);
        }
      })();
    },
    { timeoutMs: 2000, fallbackMs: 50 },
  );
}

/** What a tile holds while the queue keeps its image: not a URL. */
const KEEPING = "keeping";

/** Tiles showing an image the queue of this context is keeping, told when it is done. */
const waitingTiles = new Map<string, Set<() => void>>();
let hearingKept = false;

/** Calls `listener` when the queue is done keeping the image of `id` (its thumbnail is then held here). */
function whenKept(id: string, listener: () => void): () => void {
  if (!hearingKept) {
    hearingKept = true;
    subscribeKept((keptId, thumbnail) => {
      if (thumbnail) {
        remember(keptId, thumbnail);
        absent.delete(keptId);
      }
      waitingTiles.get(keptId)?.forEach((l) => l());
    });
  }
  const tiles = waitingTiles.get(id) ?? waitingTiles.set(id, new Set()).get(id)!;
  tiles.add(listener);
  return () => {
    tiles.delete(listener);
    if (!tiles.size) waitingTiles.delete(id);
  };
}

export function useTileImage(record: Pick<GenerationRecord, "id" | "imagePath">): RecordImage {
  const { id, imagePath } = record;
  // undefined while reading; null when this device holds no bytes for it.
  const [found, setFound] = useState<{ id: string; url: string | null }>();
  // The picture held for it, or KEEPING while the queue of this context keeps its image (either changes
  // when the queue is done).
  const held = useSyncExternalStore(
    useCallback((listener: () => void) => whenKept(id, listener), [id]),
    () => urls.get(id) ?? (isKeepingImage(id) ? KEEPING : undefined),
    () => undefined,
  );
  const kept = held === KEEPING ? undefined : held;
  const local = kept ?? (found?.id === id ? found.url : undefined);
  const [remote, setRemote] = useState<{ path: string; src?: string; error?: string }>();

  useEffect(() => {
    if (urls.has(id)) return;
    let live = true;
    void lookUp(id).then((url) => live && setFound({ id, url }));
    return () => {
      live = false;
    };
  }, [id]);

  const online = useOnline();
  // A generation just made here: the queue is fetching its bytes and making its thumbnail, so the tile
  // neither signs another URL nor makes a thumbnail of its own. It waits for the queue's thumbnail (a
  // tenth of a second or so) rather than decode the full image at a tile's size, and shows the answer's
  // URL only if the queue kept no thumbnail.
  const fresh = local ? undefined : freshImageUrl(id);
  const queueKeeping = fresh !== undefined && held === KEEPING;
  const needsRemote = local === null && !fresh && Boolean(imagePath);
  useEffect(() => {
    if (!needsRemote || !online) return;
    let live = true;
    void remoteUrl(imagePath, undefined).then((r) => {
      if (!live) return;
      setRemote(r.ok ? { path: imagePath, src: r.value } : { path: imagePath, error: r.error.message });
      if (r.ok) keepThumbnail(id, r.value);
    });
    return () => {
      live = false;
    };
  }, [needsRemote, online, imagePath, id]);

  if (local) return { src: local };
  if (queueKeeping) return {};
  if (fresh) return { src: fresh };
  if (remote?.path === imagePath && remote.src) return { src: remote.src };
  if (needsRemote && !online) return { error: NOT_ON_DEVICE };
  if (remote?.path === imagePath) return { error: remote.error };
  return {};
}
