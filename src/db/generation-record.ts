// The one way a server `generations` row becomes the record Dexie keeps: every writer (the queue's
// success, the pull, realtime) builds records here, so each carries its search words. Image bytes
// are not part of it (they live in the `images` table), so a row coming again never drops them. A row an
// operator removed from the gallery carries when and why (the owner reads it on the image).
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import type { GenerationRecord } from "./schema";
import { promptWords } from "./search";

/** The moderation columns a row carries (issue 42); a row read before they existed has none. */
export type ModeratedRow = GenerationRow & { removed_at?: string | null; removed_reason?: string | null };

export function toGenerationRecord(row: ModeratedRow): GenerationRecord {
  const record: GenerationRecord = {
    id: row.id,
    userId: row.user_id,
    prompt: row.prompt,
    negativePrompt: row.negative_prompt ?? "",
    style: row.style,
    quality: row.quality,
    aspectRatio: row.aspect_ratio,
    width: row.width,
    height: row.height,
    seed: row.seed === null || row.seed === undefined ? null : Number(row.seed),
    provider: row.provider,
    model: row.model,
    imagePath: row.image_path,
    isPublic: row.is_public ? 1 : 0,
    isSaved: row.is_saved ? 1 : 0,
    createdAt: row.created_at,
    words: promptWords(row.prompt),
    NSFWContent: false,
  };
  // Only a removed image carries these keys, so the records of every other row stay as they were.
  if (row.removed_at) {
    record.removedAt = row.removed_at;
    record.removedReason = row.removed_reason ?? null;
  }
  // Likewise only a row made with a custom style (decision 152) names it.
  if (row.custom_style_name) {
    record.customStyle = row.custom_style_name;
    if (row.custom_style_id) record.customStyleId = row.custom_style_id;
  }
  // And only a variation (decision 155) says what it varies, and how.
  if (row.parent_id && row.variation) record.variation = { of: row.parent_id, kind: row.variation };
  return record;
}
