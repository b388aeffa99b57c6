// Reads of the signed-in user's own rows. Row-level security scopes them on the server; the
// user_id filters keep the queries explicit (docs/spec.md §6: history is scoped to the user's own id).
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";
import type { GenerationRow, MyLimits, PreferencesRow } from "#shared/vocabulary/rows.ts";
import { PREFERENCE_DEFAULTS } from "#shared/vocabulary/generation.ts";

async function attempt<T>(run: () => Promise<Result<T, AppError>>): Promise<Result<T, AppError>> {
  try {
    return await run();
  } catch (e) {
    return err(toAppError(e));
  }
}

/** The user's generations created at or after `since` (all when null), oldest first, one page. */
export function fetchGenerationsSince(
  userId: string,
  since: string | null,
  pageSize: number,
): Promise<Result<GenerationRow[], AppError>> {
  return attempt(async () => {
    let query = supabase().from("generations").select("*").eq("user_id", userId);
    if (since) query = query.gte("created_at", since);
    const { data, error } = await query.order("created_at", { ascending: true }).limit(pageSize);
    return error ? err(toAppError(error)) : ok((data ?? []) as GenerationRow[]);
  });
}

/** The user's generations of these ids (at most 100 per call: the ids go in the query string). */
export function fetchGenerationsByIds(userId: string, ids: string[]): Promise<Result<GenerationRow[], AppError>> {
  return attempt(async () => {
    const { data, error } = await supabase().from("generations").select("*").eq("user_id", userId).in("id", ids);
    return error ? err(toAppError(error)) : ok((data ?? []) as GenerationRow[]);
  });
}

export function fetchPreferences(userId: string): Promise<Result<PreferencesRow | null, AppError>> {
  return attempt(async () => {
    const { data, error } = await supabase().from("user_preferences").select("*").eq("user_id", userId).maybeSingle();
    return error ? err(toAppError(error)) : ok((data ?? null) as PreferencesRow | null);
  });
}

/**
 * docs/spec.md §4: a person with no preferences row gets the default one (§3's five fields, with the
 * device's time zone). A row another device made meanwhile is kept as it is and answered.
 */
export function createDefaultPreferences(
  userId: string,
  timezone: string | null,
): Promise<Result<PreferencesRow, AppError>> {
  return attempt(async () => {
    const row = {
      user_id: userId,
      default_style: PREFERENCE_DEFAULTS.style,
      default_quality: PREFERENCE_DEFAULTS.quality,
      default_aspect_ratio: PREFERENCE_DEFAULTS.aspectRatio,
      notifications_enabled: PREFERENCE_DEFAULTS.notificationsEnabled,
      public_gallery_opt_in: PREFERENCE_DEFAULTS.publicGalleryOptIn,
      ...(timezone ? { timezone } : {}),
    };
    const { error } = await supabase()
      .from("user_preferences")
      .upsert(row, { onConflict: "user_id", ignoreDuplicates: true });
    if (error) return err(toAppError(error));
    const made = await fetchPreferences(userId);
    if (!made.ok) return made;
    return made.value ? ok(made.value) : err(toAppError(new Error("server error: the preferences row is missing")));
  });
}

export function fetchMyLimits(): Promise<Result<MyLimits, AppError>> {
  return attempt(async () => {
    const { data, error } = await supabase().rpc("get_my_limits");
    return error ? err(toAppError(error)) : ok(data as MyLimits);
  });
}

/** Keeps the user's time zone on the server, so the daily quota resets at their own midnight. */
export function setMyTimezone(timezone: string): Promise<Result<null, AppError>> {
  return attempt(async () => {
    const { error } = await supabase().rpc("set_my_timezone", { p_timezone: timezone });
    return error ? err(toAppError(error)) : ok(null);
  });
}
