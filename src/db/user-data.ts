// What signing out removes from this browser. Cached server rows always go (they can be pulled
// again). Queued work (tasks, outbox) is removed only when the person chose to sign out: a session
// that merely expired keeps it parked for the same user's next sign-in
// (docs/decisions/018-signing-out-clears-the-device.md).
import type { AppDb } from "./db";
import { ENGINES_KEY } from "./engines";
import { OPENED_IMAGE_KEY } from "./opened-image";

/**
 * Meta entries that belong to the device, not to a person: the engine list, and an image shared with the
 * app that waits for the generator (the service worker keeps it just before the page that takes it
 * starts its session, so a session start must not remove it).
 */
const DEVICE_META_KEYS: ReadonlySet<string> = new Set([ENGINES_KEY, OPENED_IMAGE_KEY]);

export type ClearScope = { includeQueuedWork: boolean };

export async function clearUserData(db: AppDb, scope: ClearScope): Promise<void> {
  const cached = [
    db.generations,
    db.images,
    db.imageUse,
    db.preferences,
    db.limits,
    db.meta,
    db.customStyles,
    db.collections,
    db.collectionItems,
  ];
  const queued = scope.includeQueuedWork ? [db.tasks, db.outbox, db.promptHistory] : [];
  const tables = [...cached, ...queued];
  await db.transaction("rw", tables, async () => {
    await Promise.all(tables.map((t) => t.clear()));
  });
}

/**
 * Removes cached rows that belong to anyone other than `userId` (another account used this browser).
 * Runs at every session start, so it must leave the person's own data be.
 */
export async function clearOtherUsersCache(db: AppDb, userId: string): Promise<void> {
  const owned = [
    db.generations,
    db.images,
    db.imageUse,
    db.preferences,
    db.limits,
    db.customStyles,
    db.collections,
    db.collectionItems,
  ];
  await db.transaction("rw", [...owned, db.meta], async () => {
    for (const table of owned) await table.where("userId").notEqual(userId).delete();
    // Meta entries are per person (sync cursors, buffered telemetry), keyed with the user id at the end:
    // the signed-in person's stay, so a reload resumes the pull where it stopped instead of pulling all.
    // The device's own entries stay too.
    await db.meta.filter((m) => !m.key.endsWith(userId) && !DEVICE_META_KEYS.has(m.key)).delete();
  });
}
