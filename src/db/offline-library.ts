// The offline library by budget: which of a person's images this device keeps. Every generation's
// thumbnail is kept; full images are kept for every saved generation, and for the rest newest (or
// most recently viewed) first, as long as their bytes fit in the storage budget. The budget is a
// setting of this device (in `meta`), by default a share of what navigator.storage.estimate() says
// the browser grants. planOfflineLibrary is pure: src/sync/pull-images.ts runs its plans.
import { db as appDb, type AppDb } from "./db";
import { dropFullImages, listImageUse } from "./images";
import type { GenerationRecord, ImageUseRecord } from "./schema";

const MB = 1_000_000;
/** The default budget: a tenth of the browser's quota, between these bounds. */
export const DEFAULT_BUDGET_MIN = 100 * MB;
export const DEFAULT_BUDGET_MAX = 1000 * MB;
/** Where the browser does not report its quota. */
export const DEFAULT_BUDGET_UNKNOWN = 200 * MB;
/** What an image not yet fetched is counted as, until this device has kept some to average. */
export const DEFAULT_IMAGE_BYTES = 1 * MB;

export const budgetKey = (userId: string) => `offline.budget.${userId}`;

/** The budget when the person has not chosen one: a tenth of the quota, within sensible bounds. */
export function defaultBudget(quota: number | undefined): number {
  if (!quota || !Number.isFinite(quota)) return DEFAULT_BUDGET_UNKNOWN;
  return Math.min(DEFAULT_BUDGET_MAX, Math.max(DEFAULT_BUDGET_MIN, Math.round(quota / 10)));
}

async function browserQuota(): Promise<number | undefined> {
  try {
    return (await navigator.storage?.estimate?.())?.quota;
  } catch {
    return undefined;
  }
}

export type OfflineBudget = { bytes: number; chosen: boolean };

/** The budget in bytes for the full images of unsaved generations, and whether the person chose it. */
export async function getOfflineBudget(
  userId: string,
  db: AppDb = appDb,
  quota: () => Promise<number | undefined> = browserQuota,
): Promise<OfflineBudget> {
  const value = (await db.meta.get(budgetKey(userId)))?.value;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return { bytes: value, chosen: true };
  return { bytes: defaultBudget(await quota()), chosen: false };
}

/**
 * Sets this device's budget (bytes, 0 or more) and lets go at once of the full images past it (the
 * background fill, which also plans with the budget, may be busy or waiting for an idle moment; what
 * /account shows kept must follow the setting without it). A bad value is refused with the reason.
 */
export async function setOfflineBudget(userId: string, bytes: number, db: AppDb = appDb): Promise<void> {
  if (!Number.isFinite(bytes) || bytes < 0) throw new Error("The budget must be a number of megabytes, 0 or more.");
  await db.meta.put({ key: budgetKey(userId), value: Math.round(bytes) });
  await planAndEvict(userId, Math.round(bytes), db);
}

export type PlanRecord = Pick<GenerationRecord, "id" | "isSaved" | "createdAt">;
export type PlanUse = Pick<ImageUseRecord, "size" | "thumbnail" | "viewedAt">;
export type PlannedFetch = { id: string; full: boolean };
export type OfflinePlan = {
  /** In order: every image without a thumbnail (newest first), then the full images still wanted. */
  fetch: PlannedFetch[];
  /** Full images to let go: unsaved, and past the budget. */
  evict: string[];
  /** The ids whose full image is wanted on this device. */
  wanted: Set<string>;
};

/** An image's place in line for the budget: when it was last viewed, else when it was made. */
function rank(record: PlanRecord, use: PlanUse | undefined): number {
  return Math.max(use?.viewedAt ?? 0, Date.parse(record.createdAt) || 0);
}

/**
 * Which images to fetch and which full images to let go. `records` are the user's generations.
 * Saved ones keep their full image whatever the budget; the others, in order of their last view (or
 * their making, when never viewed), keep theirs while the bytes so far fit in `budget`, so the least
 * recently viewed go first. An image not fetched yet counts as `estimate` bytes.
 */
export function planOfflineLibrary(
  records: readonly PlanRecord[],
  use: ReadonlyMap<string, PlanUse>,
  budget: number,
  estimate: number = DEFAULT_IMAGE_BYTES,
): OfflinePlan {
  const wanted = new Set<string>();
  const unsaved: PlanRecord[] = [];
  for (const r of records) {
    if (r.isSaved === 1) wanted.add(r.id);
    else unsaved.push(r);
  }
  const ranked = unsaved
    .map((r) => ({ r, at: rank(r, use.get(r.id)) }))
    .sort((a, b) => b.at - a.at || (a.r.id < b.r.id ? 1 : -1));
  let total = 0;
  for (const { r } of ranked) {
    const size = use.get(r.id)?.size || estimate;
    if (total + size > budget) break;
    total += size;
    wanted.add(r.id);
  }
  const unsavedIds = new Set(unsaved.map((r) => r.id));
  const evict = unsaved.filter((r) => (use.get(r.id)?.size ?? 0) > 0 && !wanted.has(r.id)).map((r) => r.id);
  const newestFirst = [...records].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  const fetch: PlannedFetch[] = [];
  const fullOnly: PlannedFetch[] = [];
  for (const r of newestFirst) {
    const held = use.get(r.id);
    const full = wanted.has(r.id) && !(held && held.size > 0);
    if (!held?.thumbnail) fetch.push({ id: r.id, full });
    else if (full) fullOnly.push({ id: r.id, full });
  }
  // Saved images before the others, each group newest first.
  const saved = (f: PlannedFetch) => (unsavedIds.has(f.id) ? 0 : 1);
  fullOnly.sort((a, b) => saved(b) - saved(a));
  return { fetch: [...fetch, ...fullOnly], evict, wanted };
}

/** The average size of the full images kept, else DEFAULT_IMAGE_BYTES. */
export function averageImageBytes(use: Iterable<PlanUse>): number {
  let n = 0;
  let sum = 0;
  for (const u of use) {
    if (u.size > 0) {
      n++;
      sum += u.size;
    }
  }
  return n ? Math.round(sum / n) : DEFAULT_IMAGE_BYTES;
}

/**
 * What the plan needs of the user's records, from two indexes' keys alone: a plan runs after each new
 * row, and reading whole records (prompts, words) would cost it the size of the library each time.
 */
function planRecords(userId: string, db: AppDb): Promise<PlanRecord[]> {
  return db.transaction("r", db.generations, async () => {
    const byDate = db.generations.where("[userId+createdAt]").between([userId, ""], [userId, "\uffff"]);
    const [keys, ids, saved] = await Promise.all([
      byDate.keys(),
      byDate.primaryKeys(),
      db.generations.where({ userId, isSaved: 1 }).primaryKeys(),
    ]);
    const isSaved = new Set(saved);
    return ids.map((id, i) => ({
      id,
      createdAt: (keys[i] as unknown as [string, string])[1],
      isSaved: isSaved.has(id) ? 1 : 0,
    }));
  });
}

/** Reads the user's records and what is kept, lets go of what is past the budget, and answers the plan. */
export async function planAndEvict(userId: string, budget: number, db: AppDb = appDb): Promise<OfflinePlan> {
  const [records, kept] = await Promise.all([planRecords(userId, db), listImageUse(userId, db)]);
  const use = new Map(kept.map((u) => [u.id, u]));
  const plan = planOfflineLibrary(records, use, budget, averageImageBytes(kept));
  await dropFullImages(db, plan.evict);
  return plan;
}

export type OfflineSummary = {
  generations: number;
  thumbnails: number;
  fullImages: number;
  savedFullImages: number;
  savedTotal: number;
  /** Bytes of the full images kept (thumbnails are a few kilobytes each, not counted). */
  bytes: number;
};

/** What this device keeps of the user's library, for /account. */
export async function offlineSummary(userId: string, db: AppDb = appDb): Promise<OfflineSummary> {
  const [records, kept] = await Promise.all([
    db.generations.where("userId").equals(userId).toArray(),
    listImageUse(userId, db),
  ]);
  const use = new Map(kept.map((u) => [u.id, u]));
  const summary: OfflineSummary = {
    generations: records.length,
    thumbnails: 0,
    fullImages: 0,
    savedFullImages: 0,
    savedTotal: 0,
    bytes: 0,
  };
  for (const r of records) {
    const u = use.get(r.id);
    if (r.isSaved === 1) summary.savedTotal++;
    if (u?.thumbnail) summary.thumbnails++;
    if (u && u.size > 0) {
      summary.fullImages++;
      summary.bytes += u.size;
      if (r.isSaved === 1) summary.savedFullImages++;
    }
  }
  return summary;
}

/**
 * Asks the browser to keep this site's storage under pressure (no prompt in Chromium; Firefox may ask).
 * Called when the person keeps something for offline (saves an image, sets a budget), once per page.
 */
let asked = false;
export async function askPersistentStorage(): Promise<boolean> {
  if (asked) return false;
  asked = true;
  try {
    if (!navigator.storage?.persist || (await navigator.storage.persisted?.())) return false;
    return await navigator.storage.persist();
  } catch {
    return false;
  }
}
