// The queue's `quota` trigger (src/sync/triggers.ts): the person's known quota went from none left to some
// (a paid plan bought on any device, the day's reset read), heard from Dexie in every tab, so the queue's
// lane lifts the waits of tasks held at 0 left at once rather than at their reset (issue 45).
import { db as appDb, type AppDb } from "../db/db";
import { watchLimits } from "../db/live-limits";
import type { TaskRecord } from "../db/schema";

/** Calls back whenever this person's known remaining quota rises above 0 (also when first read so). */
export function quotaRaises(userId: string, db: AppDb = appDb): (listener: () => void) => () => void {
  return (listener) => {
    let before: number | undefined;
    return watchLimits(
      userId,
      (limits) => {
        const remaining = limits?.remaining;
        if (remaining !== undefined && remaining > 0 && (before === undefined || before <= 0)) listener();
        before = remaining;
      },
      db,
    );
  };
}

/**
 * Makes every task held for the quota due now, keeping its reason (so a send the server still refuses
 * waits again, as the person chose, rather than failing).
 */
export async function liftQuotaWaits(db: AppDb, userId: string, now: number): Promise<number> {
  const at = new Date(now).toISOString();
  return db.tasks
    .where("[userId+status]")
    .equals([userId, "queued"])
    .filter((t: TaskRecord) => t.wait?.reason === "quota")
    .modify((t: TaskRecord) => {
      t.wait = { reason: "quota", until: at };
      t.updatedAt = at;
    });
}
