// Prompt history (spec §4): newest first; an identical earlier prompt moves to the front instead of
// appearing twice; at most PROMPT_HISTORY_MAX kept; blank prompts are ignored; one or all removable.
import { PROMPT_HISTORY_MAX } from "#shared/vocabulary/generation.ts";
import type { AppDb } from "./db";
import type { PromptHistoryRecord } from "./schema";

export type PromptEntry = Pick<PromptHistoryRecord, "prompt" | "style" | "quality">;

/**
 * Adds (or moves to the front) one prompt. Runs inside the caller's transaction when there is one
 * (enqueueing a task records its prompt in the same transaction).
 */
export async function addPrompt(db: AppDb, entry: PromptEntry, now: number = Date.now()): Promise<string | null> {
  const prompt = entry.prompt.trim();
  if (!prompt) return null;
  return db.transaction("rw", db.promptHistory, async () => {
    await db.promptHistory.where("prompt").equals(prompt).delete();
    // Strictly increasing, so two prompts added in the same millisecond keep their order.
    const newest = await db.promptHistory.orderBy("timestamp").last();
    const timestamp = Math.max(now, (newest?.timestamp ?? 0) + 1);
    const id = crypto.randomUUID();
    await db.promptHistory.add({ id, prompt, timestamp, style: entry.style, quality: entry.quality });
    const overflow = await db.promptHistory.orderBy("timestamp").reverse().offset(PROMPT_HISTORY_MAX).primaryKeys();
    if (overflow.length) await db.promptHistory.bulkDelete(overflow);
    return id;
  });
}

export async function removePrompt(db: AppDb, id: string): Promise<void> {
  await db.promptHistory.delete(id);
}

export async function clearPrompts(db: AppDb): Promise<void> {
  await db.promptHistory.clear();
}
