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
  const prompt = entry.prompt.trim();
  if (!prompt || !userId) return null;
  return db.transaction("rw", db.promptHistory, async () => {
    await db.promptHistory
      .where("prompt")
      .equals(prompt)
      .filter((p) => p.userId === userId)
      .delete();
    await db.promptHistory.filter((p) => !p.userId).delete();
    // Strictly increasing, so two prompts added in the same millisecond keep their order.
    const newest = await db.promptHistory.orderBy("timestamp").last();
    const timestamp = Math.max(now, (newest?.timestamp ?? 0) + 1);
    const id = crypto.randomUUID();
    await db.promptHistory.add({ id, userId, prompt, timestamp, style: entry.style, quality: entry.quality });
    const overflow = (await promptsOf(db, userId)).slice(PROMPT_HISTORY_MAX).map((p) => p.id);
    if (overflow.length) await db.promptHistory.bulkDelete(overflow);
    return id;
  });
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
