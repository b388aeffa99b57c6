// One live read of a person's limits for the whole page: the quota's views, the custom-style picker and
// the queue's `quota` trigger (src/sync/quota-raises.ts) each heard it read again on every quota write
// (one or two a made image), three IndexedDB transactions where one tells them all.
import { liveQuery, type Subscription } from "dexie";
import { db as appDb, type AppDb } from "./db";
import type { LimitsRecord } from "./schema";

type Listener = (limits: LimitsRecord | undefined) => void;
type Watch = { read: boolean; value: LimitsRecord | undefined; listeners: Set<Listener>; subscription?: Subscription };

const watches = new WeakMap<AppDb, Map<string, Watch>>();

function watchesOf(db: AppDb): Map<string, Watch> {
  let byUser = watches.get(db);
  if (!byUser) watches.set(db, (byUser = new Map()));
  return byUser;
}

/**
 * Calls `listener` with `userId`'s limits record as this device knows it: at once when already read,
 * then on every change. The read is shared while anyone listens. Returns the unsubscribe.
 */
export function watchLimits(userId: string, listener: Listener, db: AppDb = appDb): () => void {
  const byUser = watchesOf(db);
  let watch = byUser.get(userId);
  if (!watch) {
    const fresh: Watch = { read: false, value: undefined, listeners: new Set() };
    byUser.set(userId, fresh);
    fresh.subscription = liveQuery(() => db.limits.get(userId)).subscribe({
      next: (value) => {
        fresh.read = true;
        fresh.value = value;
        for (const each of [...fresh.listeners]) each(value);
      },
      // A failed read keeps the last figures: the next write reads again.
      error: () => undefined,
    });
    watch = fresh;
  }
  watch.listeners.add(listener);
  if (watch.read) listener(watch.value);
  const mine = watch;
  return () => {
    mine.listeners.delete(listener);
    if (mine.listeners.size > 0 || byUser.get(userId) !== mine) return;
    byUser.delete(userId);
    mine.subscription?.unsubscribe();
  };
}

/** The limits record the shared read last gave for `userId` (undefined until read, or when none). */
export function watchedLimits(userId: string, db: AppDb = appDb): LimitsRecord | undefined {
  return watchesOf(db).get(userId)?.value;
}
