// Generations and preferences rows (the server's shape, as the shared vocabulary names it), queued tasks and known limits (the device's) and
// the recipe an image file carries, with every field filled, for tests that build them by hand: each test sets what it is about and takes
// the rest.
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { PREFERENCE_DEFAULTS } from "#shared/vocabulary/generation.ts";
import type { GenerationRow, PreferencesRow } from "#shared/vocabulary/rows.ts";
import type { LimitsRecord } from "#src/db/schema.ts";
import type { NewTask } from "#src/db/tasks.ts";

/** A row as generate-image inserts it: every column but the database's created_at. */
export type NewGeneration = Omit<GenerationRow, "created_at">;

/** A row of `userId`'s with the built-in engine's columns; its image in the owner's folder, as generate-image stores it. */
export function newGeneration(id: string, userId: string): NewGeneration {
  return {
    id,
    user_id: userId,
    prompt: "a red fox",
    negative_prompt: "",
    style: "anime",
    quality: "standard",
    aspect_ratio: "1:1",
    width: 1024,
    height: 1024,
    seed: 1,
    provider: "builtin",
    model: "builtin-procedural-v1",
    image_path: `${userId}/${id}.png`,
    is_public: false,
    is_saved: false,
  };
}

/** A stored row of `userId`'s, as the client reads it back; `over` sets any column. */
export function generationRow(id: string, userId: string, over: Partial<GenerationRow> = {}): GenerationRow {
  return { ...newGeneration(id, userId), created_at: "2026-11-22T10:00:00.000Z", ...over };
}

/** A published row of someone else's, as the gallery lists it; `over` sets any column. */
export function publishedRow(id: string, prompt: string, over: Partial<GenerationRow> = {}): GenerationRow {
  return generationRow(id, "someone", {
    prompt,
    quality: "high",
    seed: 99,
    model: "procedural-v1",
    is_public: true,
    created_at: "2026-11-20T10:00:00.000Z",
    ...over,
  });
}

/** The recipe a downloaded image of `newGeneration`'s row carries; `over` sets any field. */
export function imageRecipe(over: Partial<ImageRecipe> = {}): ImageRecipe {
  const { prompt, style, quality, width, height, seed, provider, model, ...row } = newGeneration("recipe", "someone");
  return {
    prompt,
    negativePrompt: row.negative_prompt,
    style,
    quality,
    aspectRatio: row.aspect_ratio,
    width,
    height,
    seed,
    provider,
    model,
    ...over,
  };
}

/** A task as the generator queues it for `userId` (enqueueTasks adds its status and times); `over` sets any field. */
export function newTask(id: string, userId: string, over: Partial<NewTask> = {}): NewTask {
  return {
    id,
    userId,
    type: "image-generation",
    prompt: "a red fox",
    negativePrompt: "",
    style: "anime",
    quality: "standard",
    aspectRatio: "1:1",
    params: { width: 1024, height: 1024 },
    seed: null,
    ...over,
  };
}

/** A person's preferences row as the server keeps it: the defaults (docs/spec.md §4), with `over`. */
export function preferencesRow(userId: string, over: Partial<PreferencesRow> = {}): PreferencesRow {
  const d = PREFERENCE_DEFAULTS;
  return {
    ...{ user_id: userId, default_style: d.style, default_quality: d.quality, default_aspect_ratio: d.aspectRatio },
    ...{ notifications_enabled: d.notificationsEnabled, public_gallery_opt_in: d.publicGalleryOptIn },
    ...{ timezone: "UTC", updated_at: "2026-11-22T10:00:00.000Z" },
    ...over,
  };
}

/**
 * The quota this device knows for `userId`: a free day of 5 with `remaining` left (generationsToday follows
 * from them), resetting at midnight UTC after 2026-11-22; `over` sets any field.
 */
export function limitsRecord(userId: string, over: Partial<LimitsRecord> & { remaining: number }): LimitsRecord {
  const dailyLimit = over.dailyLimit ?? 5;
  return {
    userId,
    generationsToday: Math.max(0, dailyLimit - over.remaining),
    dailyLimit,
    resetAt: "2026-11-23T00:00:00.000Z",
    tier: "free",
    checkedAt: "2026-11-22T10:00:00.000Z",
    ...over,
  };
}
