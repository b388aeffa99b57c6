// Pull: brings the signed-in user's server rows into Dexie. Generations come in pages from a
// cursor kept in `meta` (rows at the cursor's instant are fetched again and upserted, so nothing
// is missed or doubled); preferences and limits are read whole. Each part fails on its own. Server
// data goes under the writes still waiting in the outbox (src/db/library.ts), so a pending change
// is not undone by an older server copy. The catch-up after a reconnect adds a reconciliation of
// deletions and flag changes made elsewhere. A failed pull of generations is recorded for the views
// (src/db/pull-status.ts) and cleared by the next pull that completes.
import type { AppError } from "../api/errors";
import type { Result } from "../lib/result";
import type { MyLimits, PreferencesRow } from "#shared/vocabulary/rows.ts";
import { fetchGenerationFlags } from "../api/library";
import {
  createDefaultPreferences,
  fetchGenerationsByIds,
  fetchGenerationsSince,
  fetchMyLimits,
  fetchPreferences,
  setMyTimezone,
} from "../api/user-rows";
import type { AppDb } from "../db/db";
import {
  applyServerPreferences,
  applyServerRows,
  pendingOverlay,
  reconcileGenerations as reconcileLocal,
  type ServerFlags,
} from "../db/library";
import { recordPullFailure } from "../db/pull-status";
import { fetchCustomStyles } from "../api/custom-styles";
import { reconcileStyles } from "../db/custom-styles";
import { fetchCollections } from "../api/collections";
import { reconcileCollections } from "../db/collections";
import type { LimitsRecord, PreferencesRecord } from "../db/schema";
import { deviceTimezone } from "../lib/time-zone";

export const PULL_PAGE_SIZE = 200;

export type PullReport = { generations: number; errors: { part: string; error: AppError }[] };

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

export function toLimitsRecord(userId: string, limits: MyLimits, now: Date): LimitsRecord {
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

export type FetchGenerationsPage = typeof fetchGenerationsSince;
export type FetchFlagsPage = typeof fetchGenerationFlags;
export type FetchRowsById = typeof fetchGenerationsByIds;

/** Rows fetched by id per request (their ids go in the query string). */
export const FETCH_BY_ID_CHUNK = 100;

/** The created_at of the newest row pulled so far (the catch-up's cursor), or null before the first pull. */
export async function pullCursor(db: AppDb, userId: string): Promise<string | null> {
  return ((await db.meta.get(cursorKey(userId)))?.value as string | undefined) ?? null;
}

/** A pull that completed clears the failure an earlier one left for the views. */
async function pulled(db: AppDb, userId: string, count: number): Promise<{ count: number }> {
  await recordPullFailure(userId, null, db);
  return { count };
}

/** Rows created since the cursor, page by page, upserted by id (rows at the cursor's instant come again). */
export async function pullGenerations(
  db: AppDb,
  userId: string,
  fetchPage: FetchGenerationsPage = fetchGenerationsSince,
): Promise<{ count: number; error?: AppError }> {
  let count = 0;
  let since = await pullCursor(db, userId);
  for (;;) {
    const page = await fetchPage(userId, since, PULL_PAGE_SIZE);
    if (!page.ok) {
      await recordPullFailure(userId, page.error.message, db);
      return { count, error: page.error };
    }
    const rows = page.value;
    if (!rows.length) return pulled(db, userId, count);
    const last = rows[rows.length - 1].created_at;
    await db.transaction("rw", [db.generations, db.outbox, db.meta], async () => {
      await applyServerRows(db, userId, rows);
      await db.meta.put({ key: cursorKey(userId), value: last });
    });
    count += rows.length;
    // A full page that ends where it began cannot advance: stop rather than loop.
    if (rows.length < PULL_PAGE_SIZE || last === since) return pulled(db, userId, count);
    since = last;
  }
}

export const RECONCILE_PAGE_SIZE = 1000;

/**
 * Deletions and flag changes made elsewhere while this device was not listening: the ids and flags
 * of every row up to the cursor (paged by id), against the records held here. Rows the server has up
 * to the cursor that this device lacks are fetched by id: the cursor follows `created_at`, which is
 * set when a row's transaction starts, so a row whose transaction committed after a newer one's (two
 * connections on PostgreSQL) can be behind a cursor that a pull already moved past, and a pull cut
 * by a lost IndexedDB can leave one too.
 */
export async function reconcileGenerations(
  db: AppDb,
  userId: string,
  fetchFlags: FetchFlagsPage = fetchGenerationFlags,
  fetchRows: FetchRowsById = fetchGenerationsByIds,
): Promise<{ removed: number; updated: number; restored: number; error?: AppError }> {
  const upTo = await pullCursor(db, userId);
  if (!upTo) return { removed: 0, updated: 0, restored: 0 };
  const server = new Map<string, ServerFlags>();
  let afterId: string | null = null;
  for (;;) {
    const page = await fetchFlags(userId, upTo, afterId, RECONCILE_PAGE_SIZE);
    if (!page.ok) {
      await recordPullFailure(userId, page.error.message, db);
      return { removed: 0, updated: 0, restored: 0, error: page.error };
    }
    for (const r of page.value) {
      server.set(r.id, {
        isSaved: r.is_saved,
        isPublic: r.is_public,
        removed: r.removed_at ? { at: r.removed_at, reason: r.removed_reason ?? null } : null,
      });
    }
    if (page.value.length < RECONCILE_PAGE_SIZE) break;
    afterId = page.value[page.value.length - 1].id;
  }
  const held = new Set(
    (await db.generations
      .where("[userId+createdAt]")
      .between([userId, ""], [userId, "\uffff"], true, true)
      .primaryKeys()) as string[],
  );
  const { deleted } = await pendingOverlay(db, userId);
  const missing = [...server.keys()].filter((id) => !held.has(id) && !deleted.has(id));
  let restored = 0;
  for (let i = 0; i < missing.length; i += FETCH_BY_ID_CHUNK) {
    const rows = await fetchRows(userId, missing.slice(i, i + FETCH_BY_ID_CHUNK));
    if (!rows.ok) {
      await recordPullFailure(userId, rows.error.message, db);
      return { removed: 0, updated: 0, restored, error: rows.error };
    }
    // Under the outbox as every pull is: a row this device deleted and has not told the server of stays gone.
    restored += await applyServerRows(db, userId, rows.value);
  }
  return { ...(await reconcileLocal(db, userId, server, upTo)), restored };
}

export type CatchUpReport = { pulled: number; removed: number; updated: number; restored: number; errors: AppError[] };

export type FetchStyles = typeof fetchCustomStyles;

/** A table read whole (or two), laid over what the device holds by `reconcile`; a failed read changes nothing. */
async function pullWhole<T>(
  read: Promise<Result<T, AppError>>,
  reconcile: (rows: T) => Promise<void>,
): Promise<{ error?: AppError }> {
  const rows = await read;
  if (!rows.ok) return { error: rows.error };
  await reconcile(rows.value);
  return {};
}

/** The person's custom styles (decision 152), read whole: a few dozen rows replace what the device holds. */
export function pullCustomStyles(
  db: AppDb,
  userId: string,
  fetchStyles: FetchStyles = fetchCustomStyles,
): Promise<{ error?: AppError }> {
  return pullWhole(fetchStyles(userId), (rows) => reconcileStyles(db, userId, rows));
}

export type FetchCollections = typeof fetchCollections;

/**
 * The person's collections and their items (decision 157), read whole: a few hundred and a few thousand rows
 * replace what the device holds, under the writes still waiting.
 */
export function pullCollections(
  db: AppDb,
  userId: string,
  fetchAll: FetchCollections = fetchCollections,
): Promise<{ error?: AppError }> {
  return pullWhole(fetchAll(userId), (rows) => reconcileCollections(db, userId, rows));
}

/**
 * Sends one step of a catch-up or answers `skipped` without sending: the app's skips every step once the
 * page is ending its session (a sign-out under way), whose token the server would refuse, and the device's
 * copy goes with the session anyway; and it lets the sign-out wait for a step in flight.
 */
export type CatchUpStep = <T>(run: () => Promise<T>, skipped: T) => Promise<T>;

/**
 * What a reconnect runs: the rows missed, then deletions and flag changes missed, the custom styles and
 * the collections.
 */
export async function catchUp(
  db: AppDb,
  userId: string,
  fetchPage: FetchGenerationsPage = fetchGenerationsSince,
  fetchFlags: FetchFlagsPage = fetchGenerationFlags,
  fetchRows: FetchRowsById = fetchGenerationsByIds,
  fetchStyles: FetchStyles = fetchCustomStyles,
  fetchAllCollections: FetchCollections = fetchCollections,
  step: CatchUpStep = (run) => run(),
): Promise<CatchUpReport> {
  const pulled = await step(() => pullGenerations(db, userId, fetchPage), { count: 0 });
  const reconciled = await step(() => reconcileGenerations(db, userId, fetchFlags, fetchRows), {
    removed: 0,
    updated: 0,
    restored: 0,
  });
  const styles = await step(() => pullCustomStyles(db, userId, fetchStyles), {});
  const collections = await step(() => pullCollections(db, userId, fetchAllCollections), {});
  const errors = [pulled.error, reconciled.error, styles.error, collections.error].filter(
    (e): e is AppError => e !== undefined,
  );
  return {
    pulled: pulled.count,
    removed: reconciled.removed,
    updated: reconciled.updated,
    restored: reconciled.restored,
    errors,
  };
}

export async function pullUserData(
  db: AppDb,
  userId: string,
  now: () => Date = () => new Date(),
  timezone: string | null = deviceTimezone(),
): Promise<PullReport> {
  const errors: PullReport["errors"] = [];
  const readAt = now().getTime();
  const [generations, preferences, limits] = await Promise.all([
    pullGenerations(db, userId),
    fetchPreferences(userId),
    fetchMyLimits(),
  ]);
  if (generations.error) errors.push({ part: "generations", error: generations.error });
  if (preferences.ok) {
    let prefs = preferences.value;
    if (!prefs) {
      // docs/spec.md §4: loaded at start; if none exist, a default row is created.
      const made = await createDefaultPreferences(userId, timezone);
      if (made.ok) prefs = made.value;
      else errors.push({ part: "preferences", error: made.error });
    }
    // The quota resets at the person's local midnight: tell the server when the device's zone differs.
    if (prefs && timezone && prefs.timezone !== timezone) {
      const set = await setMyTimezone(timezone);
      if (set.ok) prefs.timezone = timezone;
      else errors.push({ part: "timezone", error: set.error });
    }
    if (prefs) await applyServerPreferences(db, toPreferencesRecord(prefs), readAt);
  } else {
    errors.push({ part: "preferences", error: preferences.error });
  }
  if (limits.ok) await db.limits.put(toLimitsRecord(userId, limits.value, now()));
  else errors.push({ part: "limits", error: limits.error });
  return { generations: generations.count, errors };
}
