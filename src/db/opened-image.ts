// An image handed to the app from outside (shared from another app through the manifest's share target)
// waits here for the generator: the service worker receives the share, even offline, keeps the file in
// IndexedDB and opens /generate?open=shared, which takes it (once) and remixes it or uses it as the
// reference image. One waits at a time; a newer share replaces it.
import type { AppDb } from "./db";

export const OPENED_IMAGE_KEY = "opened-image";

export type OpenedImage = { image: Blob; name: string; at: string };

export async function keepOpenedImage(db: AppDb, image: Blob, name: string, now: Date = new Date()): Promise<void> {
  await db.meta.put({ key: OPENED_IMAGE_KEY, value: { image, name, at: now.toISOString() } satisfies OpenedImage });
}

/** The waiting image, removed as it is taken; null when none waits. */
export async function takeOpenedImage(db: AppDb): Promise<OpenedImage | null> {
  return db.transaction("rw", db.meta, async () => {
    const value = (await db.meta.get(OPENED_IMAGE_KEY))?.value as Partial<OpenedImage> | undefined;
    await db.meta.delete(OPENED_IMAGE_KEY);
    if (!value || !(value.image instanceof Blob) || typeof value.name !== "string") return null;
    return { image: value.image, name: value.name, at: String(value.at ?? "") };
  });
}
