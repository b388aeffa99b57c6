// Whether the last pull of a person's generations from the server failed, kept in `meta` so every
// view and tab reads it live (docs/spec.md §8: a history load failure is stored and shown). The pull
// (src/sync/pull.ts) sets it when a page or the reconciliation fails and clears it when a pull
// completes; the records already on this device stay as they are either way.
import { db as appDb, type AppDb } from "./db";

export type PullFailure = { message: string; at: string };

/** Ends with the user id, so clearing other users' cache (user-data.ts) takes it with the rest. */
export const pullFailureKey = (userId: string) => `pull.failed.generations.${userId}`;

/** Stores the failure's message, or clears it (null) after a pull that completed. */
export async function recordPullFailure(
  userId: string,
  message: string | null,
  db: AppDb = appDb,
  now: () => Date = () => new Date(),
): Promise<void> {
  if (message === null) await db.meta.delete(pullFailureKey(userId));
  else await db.meta.put({ key: pullFailureKey(userId), value: { message, at: now().toISOString() } });
}

/** The last pull's failure, or null when it completed (or none has failed yet). */
export async function getPullFailure(userId: string, db: AppDb = appDb): Promise<PullFailure | null> {
  const value = (await db.meta.get(pullFailureKey(userId)))?.value as Partial<PullFailure> | undefined;
  return value && typeof value.message === "string" ? { message: value.message, at: String(value.at ?? "") } : null;
}
