// Pull: brings the signed-in user's server rows into Dexie. Generations come in pages from a
// cursor kept in `meta` (rows at the cursor's instant are fetched again and upserted, so nothing
// is missed or doubled); preferences and limits are read whole. Each part fails on its own.
import type { AppError } from "../api/errors";
import type { GenerationRow, MyLimits, PreferencesRow } from "../api/rows";
import { fetchGenerationsSince, fetchMyLimits, fetchPreferences, setMyTimezone } from "../api/user-rows";
import type { AppDb } from "../db/db";
import type { GenerationRecord, LimitsRecord, PreferencesRecord } from "../db/schema";

export const PULL_PAGE_SIZE = 200;

export type PullReport = { generations: number; errors: { part: string; error: AppError }[] };

export function toGenerationRecord(row: GenerationRow): GenerationRecord {
  return {
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
  };
}

function toPreferencesRecord(row: PreferencesRow): PreferencesRecord {
  return {
    userId: row.user_id,
    defaultStyle: row.default_style,
    defaultQuality: row.default_quality,
    defaultAspectRatio: row.default_aspect_ratio,
    notificationsEnabled: row.notifications_enabled,
    publicGalleryOptIn: row.public_gallery_opt_in,
    timezone: row.timezone,
    updatedAt: row.updated_at,
  };
}

function toLimitsRecord(userId: string, limits: MyLimits, now: Date): LimitsRecord {
  return {
    userId,
    generationsToday: limits.generations_today,
    dailyLimit: limits.daily_limit,
    remaining: limits.remaining,
    resetAt: limits.reset_at,
    tier: limits.tier,
    checkedAt: now.toISOString(),
  };
}

const cursorKey = (userId: string) => `pull.generations.${userId}`;

async function pullGenerations(db: AppDb, userId: string): Promise<{ count: number; error?: AppError }> {
  let count = 0;
  let since = ((await db.meta.get(cursorKey(userId)))?.value as string | undefined) ?? null;
  for (;;) {
    const page = await fetchGenerationsSince(userId, since, PULL_PAGE_SIZE);
    if (!page.ok) return { count, error: page.error };
    const rows = page.value;
    if (rows.length) {
      const last = rows[rows.length - 1].created_at;
      await db.transaction("rw", [db.generations, db.meta], async () => {
        // The cached image bytes are local only: keep them when the row comes again.
        const existing = await db.generations.bulkGet(rows.map((r) => r.id));
        await db.generations.bulkPut(
          rows.map((r, i) => ({
            ...toGenerationRecord(r),
            image: existing[i]?.image,
            thumbnail: existing[i]?.thumbnail,
          })),
        );
        await db.meta.put({ key: cursorKey(userId), value: last });
      });
      count += rows.length;
      // A full page that ends where it began cannot advance: stop rather than loop.
      if (rows.length < PULL_PAGE_SIZE || last === since) return { count };
      since = last;
    } else {
      return { count };
    }
  }
}

/** The device's IANA time zone, or null where the runtime cannot tell. */
export function deviceTimezone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

export async function pullUserData(
  db: AppDb,
  userId: string,
  now: () => Date = () => new Date(),
  timezone: string | null = deviceTimezone(),
): Promise<PullReport> {
  const errors: PullReport["errors"] = [];
  const [generations, preferences, limits] = await Promise.all([
    pullGenerations(db, userId),
    fetchPreferences(userId),
    fetchMyLimits(),
  ]);
  if (generations.error) errors.push({ part: "generations", error: generations.error });
  if (preferences.ok) {
    const prefs = preferences.value;
    // The quota resets at the person's local midnight: tell the server when the device's zone differs.
    if (prefs && timezone && prefs.timezone !== timezone) {
      const set = await setMyTimezone(timezone);
      if (set.ok) prefs.timezone = timezone;
      else errors.push({ part: "timezone", error: set.error });
    }
    if (prefs) await db.preferences.put(toPreferencesRecord(prefs));
  } else {
    errors.push({ part: "preferences", error: preferences.error });
  }
  if (limits.ok) await db.limits.put(toLimitsRecord(userId, limits.value, now()));
  else errors.push({ part: "limits", error: limits.error });
  return { generations: generations.count, errors };
}
