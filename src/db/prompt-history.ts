// Prompt history (docs/spec.md §4): newest first; an identical earlier prompt moves to the front instead of
// appearing twice; at most PROMPT_HISTORY_MAX kept; blank prompts are ignored; one or all removable.
// Each entry belongs to the account that typed it: two people using the same browser each see only
// their own prompts. Entries written before prompts had an owner (no userId) are shown to no one and
// are removed the next time anyone's history is written.
import { PROMPT_HISTORY_MAX } from "#shared/vocabulary/generation.ts";
import type { AppDb } from "./db";
import type { PromptHistoryRecord } from "./schema";

export type PromptEntry = Pick<PromptHistoryRecord, "prompt" | "style" | "quality">;

/** One account's entries, newest first (the table holds at most PROMPT_HISTORY_MAX per account). */
export async function promptsOf(db: AppDb, userId: string): Promise<PromptHistoryRecord[]> {
  return db.promptHistory
    .orderBy("timestamp")
    .reverse()
    .filter((p) => p.userId === userId)
    .toArray();
}

/**
 * Adds (or moves to the front) one prompt of `userId`. Runs inside the caller's transaction when
 * there is one (enqueueing a task records its prompt in the same transaction).
 */
export async function addPrompt(
  db: AppDb,
  userId: string,
  entry: PromptEntry,
  now: number = Date.now(),
): Promise<string | null> {
  return db.transaction("rw", db.promptHistory, async () =>
    writePrompt(db, await db.promptHistory.toArray(), userId, entry, now),
  );
}

/**
 * `addPrompt`'s writes, given the whole table as read in the same transaction (`held`): one read and
 * one round of writes, where a query per rule would wait on IndexedDB once each. The table is small,
 * at most PROMPT_HISTORY_MAX entries an account.
 */
export async function writePrompt(
  db: AppDb,
  held: readonly PromptHistoryRecord[],
  userId: string,
  entry: PromptEntry,
  now: number,
): Promise<string | null> {
  const prompt = entry.prompt.trim();
  if (!prompt || !userId) return null;
  // The same prompt of this account moves to the front; entries without an owner go.
  const stale = (p: PromptHistoryRecord) => !p.userId || (p.userId === userId && p.prompt === prompt);
  // Strictly increasing, so two prompts added in the same millisecond keep their order.
  const timestamp = Math.max(now, ...held.map((p) => p.timestamp + 1));
  const kept = held.filter((p) => p.userId === userId && !stale(p)).sort((a, b) => b.timestamp - a.timestamp);
  const gone = [...held.filter(stale), ...kept.slice(PROMPT_HISTORY_MAX - 1)].map((p) => p.id);
  const id = crypto.randomUUID();
  await Promise.all([
    gone.length ? db.promptHistory.bulkDelete(gone) : null,
    db.promptHistory.add({ id, userId, prompt, timestamp, style: entry.style, quality: entry.quality }),
  ]);
  return id;
}

/** Removes one entry, only when it is `userId`'s. */
export async function removePrompt(db: AppDb, userId: string, id: string): Promise<void> {
  await db.promptHistory
    .where("id")
    .equals(id)
    .filter((p) => p.userId === userId)
    .delete();
}

/** Removes all of `userId`'s entries; other accounts' stay. */
export async function clearPrompts(db: AppDb, userId: string): Promise<void> {
  await db.promptHistory.filter((p) => p.userId === userId).delete();
}
