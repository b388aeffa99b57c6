// The person's library writes. Each applies to Dexie at once (the UI shows it, offline too) and adds
// its outbox entry in the same transaction, so a change is never shown without being on its way
// to the server, nor sent without being shown. Server data arriving later (pull, realtime) is laid
// under the changes still waiting in the outbox, so a pending change never flickers back.
import { PREFERENCE_DEFAULTS } from "#shared/vocabulary/generation.ts";
import { forgetItemsOf } from "./collections";
import { db as appDb, type AppDb } from "./db";
import { toGenerationRecord, type ModeratedRow } from "./generation-record";
import { removeImages, storeImage } from "./images";
import { addOutboxEntry, dismissConflict as dismissEntry, pendingEntries } from "./outbox";
import type { GenerationRecord, OutboxOp, PreferencesPatch, PreferencesRecord } from "./schema";

type Flags = { isSaved?: boolean; isPublic?: boolean };

async function setFlags(db: AppDb, userId: string, id: string, flags: Flags): Promise<boolean> {
  return db.transaction("rw", [db.generations, db.outbox], async () => {
    const record = await db.generations.get(id);
    if (!record || record.userId !== userId) return false;
    const changes: Partial<GenerationRecord> = {};
    if (flags.isSaved !== undefined) changes.isSaved = flags.isSaved ? 1 : 0;
    if (flags.isPublic !== undefined) changes.isPublic = flags.isPublic ? 1 : 0;
    await db.generations.update(id, changes);
    await addOutboxEntry(db, userId, { kind: "generation.flags", payload: { generationId: id, ...flags } });
    return true;
  });
}

/** Saves or unsaves one of the person's generations; false when the device does not hold it. */
export function setSaved(userId: string, id: string, saved: boolean, db: AppDb = appDb): Promise<boolean> {
  return setFlags(db, userId, id, { isSaved: saved });
}

/** Publishes to or withdraws from the public gallery; false when the device does not hold it. */
export function setPublished(userId: string, id: string, published: boolean, db: AppDb = appDb): Promise<boolean> {
  return setFlags(db, userId, id, { isPublic: published });
}

/**
 * Removes the generation here at once (and from the person's collections); its entry carries the image
 * path, so the server row and the stored image go when the device is online. Flag changes still waiting for this row are dropped:
 * the row they would change is going.
 */
export async function deleteGeneration(userId: string, id: string, db: AppDb = appDb): Promise<boolean> {
  return db.transaction("rw", [db.generations, db.images, db.imageUse, db.collectionItems, db.outbox], async () => {
    const record = await db.generations.get(id);
    if (!record || record.userId !== userId) return false;
    await db.generations.delete(id);
    await removeImages(db, [id]);
    await forgetItemsOf(db, [id]);
    const moot = (await pendingEntries(db, userId)).filter(
      (e) => e.kind === "generation.flags" && (e.payload as { generationId: string }).generationId === id,
    );
    await db.outbox.bulkDelete(moot.map((e) => e.seq!));
    await addOutboxEntry(db, userId, {
      kind: "generation.delete",
      payload: { generationId: id, imagePath: record.imagePath },
    });
    return true;
  });
}

function defaultPreferences(userId: string): PreferencesRecord {
  return {
    userId,
    defaultStyle: PREFERENCE_DEFAULTS.style,
    defaultQuality: PREFERENCE_DEFAULTS.quality,
    defaultAspectRatio: PREFERENCE_DEFAULTS.aspectRatio,
    notificationsEnabled: PREFERENCE_DEFAULTS.notificationsEnabled,
    publicGalleryOptIn: PREFERENCE_DEFAULTS.publicGalleryOptIn,
    timezone: "UTC",
    updatedAt: new Date(0).toISOString(),
  };
}

/** Changes some preferences here at once; the server gets exactly the changed fields. */
export async function updatePreferences(userId: string, patch: PreferencesPatch, db: AppDb = appDb): Promise<void> {
  const changed = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as PreferencesPatch;
  if (!Object.keys(changed).length) return;
  await db.transaction("rw", [db.preferences, db.outbox], async () => {
    const current = (await db.preferences.get(userId)) ?? defaultPreferences(userId);
    await db.preferences.put({ ...current, ...changed, updatedAt: new Date().toISOString() });
    await addOutboxEntry(db, userId, { kind: "preferences.update", payload: { patch: changed } });
  });
}

/** The person has read a conflict (listConflicts) and lets it go. */
export function dismissConflict(entryId: string, db: AppDb = appDb): Promise<void> {
  return dismissEntry(db, entryId);
}

/** Keeps an image's bytes for a record this device holds, for offline viewing. */
export function cacheImage(id: string, blob: Blob, db: AppDb = appDb): Promise<boolean> {
  return storeImage(id, { image: blob }, db);
}

/** What the outbox still has to tell the server, folded in order: the device's view of its own writes. */
/** `kept`: upscales kept here that the server has not stored yet (decision 158), which no reconcile may remove. */
export type PendingOverlay = {
  flags: Map<string, Flags>;
  deleted: Set<string>;
  kept: Set<string>;
  preferences: PreferencesPatch;
};

export async function pendingOverlay(db: AppDb, userId: string): Promise<PendingOverlay> {
  const overlay: PendingOverlay = { flags: new Map(), deleted: new Set(), kept: new Set(), preferences: {} };
  for (const entry of await pendingEntries(db, userId)) {
    const op = { kind: entry.kind, payload: entry.payload } as OutboxOp;
    if (op.kind === "generation.flags") {
      const { generationId, ...flags } = op.payload;
      overlay.flags.set(generationId, { ...overlay.flags.get(generationId), ...flags });
    } else if (op.kind === "generation.delete") {
      overlay.deleted.add(op.payload.generationId);
    } else if (op.kind === "upscale.keep") {
      overlay.kept.add(op.payload.generationId);
    } else if (op.kind === "preferences.update") {
      Object.assign(overlay.preferences, op.payload.patch);
    }
  }
  return overlay;
}

function withFlags(record: GenerationRecord, flags: Flags | undefined): GenerationRecord {
  if (flags?.isSaved !== undefined) record.isSaved = flags.isSaved ? 1 : 0;
  if (flags?.isPublic !== undefined) record.isPublic = flags.isPublic ? 1 : 0;
  return record;
}

function sameRecord(a: GenerationRecord, b: GenerationRecord | undefined): boolean {
  if (!b) return false;
  const keys = Object.keys(a) as Array<keyof GenerationRecord>;
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) =>
    k === "words" ? (a.words ?? []).join(" ") === (b.words ?? []).join(" ") : Object.is(a[k], b[k]),
  );
}

/** Server rows heard for a generation this page's queue is sending, held until its answer is stored. */
const awaited = new WeakMap<AppDb, Map<string, ModeratedRow[]>>();

/**
 * The queue is sending the task whose generation is `id` (a generation's id is its task's): a row for it
 * heard meanwhile (realtime's echo of the server's insert comes before the answer does) waits for the
 * answer rather than be written twice, with the live views drawn again for each write.
 */
export function awaitAnswer(db: AppDb, id: string): void {
  let ids = awaited.get(db);
  if (!ids) awaited.set(db, (ids = new Map()));
  ids.set(id, []);
}

/**
 * The send of `id` is over: `stored` is the record its answer stored here (none when it stored nothing).
 * A row held meanwhile that says the same is dropped; any other is written now, as it would have been.
 */
export async function answerSettled(db: AppDb, id: string, stored?: GenerationRecord): Promise<void> {
  const ids = awaited.get(db);
  const held = ids?.get(id);
  if (!ids || !held) return;
  ids.delete(id);
  const news = held.filter((row) => !(stored && sameRecord(toGenerationRecord(row), stored)));
  for (const row of news) await applyServerRows(db, row.user_id, [row]);
}

/**
 * Upserts server rows by id (so a row that arrives twice, by pull and by realtime, is kept once),
 * skipping rows this device deleted and keeping its pending flags. A row whose send is under way here waits
 * for its answer (awaitAnswer).
 */
export async function applyServerRows(db: AppDb, userId: string, rows: ModeratedRow[]): Promise<number> {
  const mine = rows.filter((r) => r.user_id === userId);
  const sending = awaited.get(db);
  const own = mine.filter((r) => {
    const held = sending?.get(r.id);
    held?.push(r);
    return !held;
  });
  const echoes = mine.length - own.length;
  if (!own.length) return echoes;
  return db.transaction("rw", [db.generations, db.outbox], async () => {
    const overlay = await pendingOverlay(db, userId);
    const kept = own.filter((r) => !overlay.deleted.has(r.id));
    const next = kept.map((r) => withFlags(toGenerationRecord(r), overlay.flags.get(r.id)));
    // A row that comes again unchanged (the pull's cursor row, a realtime echo) is not written: every
    // write re-runs the live lists over the table, which for a 10,000-item History is a full re-read.
    const held = await db.generations.bulkGet(next.map((r) => r.id));
    const changed = next.filter((r, i) => !sameRecord(r, held[i]));
    if (changed.length) await db.generations.bulkPut(changed);
    return echoes + kept.length;
  });
}

/** A row deleted on the server (another tab or device): gone here too, and from its collections. */
export async function applyServerDelete(db: AppDb, userId: string, id: string): Promise<boolean> {
  return db.transaction("rw", [db.generations, db.images, db.imageUse, db.collectionItems], async () => {
    const record = await db.generations.get(id);
    if (!record || record.userId !== userId) return false;
    await db.generations.delete(id);
    await removeImages(db, [id]);
    await forgetItemsOf(db, [id]);
    return true;
  });
}

/**
 * A row's flags as the server has them, and its removal by an operator (when and why, null when it is
 * not removed; undefined when the server did not say, which leaves the record's own as it is).
 */
export type ServerFlags = {
  isSaved: boolean;
  isPublic: boolean;
  removed?: { at: string; reason: string | null } | null;
};

/** The record with the server's word on its removal (issue 42); the same record when nothing changes. */
function withRemoval(record: GenerationRecord, removed: ServerFlags["removed"]): GenerationRecord {
  if (removed === undefined) return record;
  if (removed && (record.removedAt !== removed.at || record.removedReason !== removed.reason)) {
    return { ...record, removedAt: removed.at, removedReason: removed.reason };
  }
  if (!removed && record.removedAt !== undefined) {
    const { removedAt: _at, removedReason: _reason, ...rest } = record;
    return rest;
  }
  return record;
}

/** The record as the server's flags and removal, under this device's pending changes, make it; null when it goes. */
function reconciled(
  record: GenerationRecord,
  server: ReadonlyMap<string, ServerFlags>,
  overlay: PendingOverlay,
): GenerationRecord | null {
  const flags = server.get(record.id);
  if (!flags) return overlay.kept.has(record.id) ? record : null;
  const next = withFlags(withFlags({ ...record }, flags), overlay.flags.get(record.id));
  const removal = withRemoval(record, flags.removed);
  return { ...removal, isSaved: next.isSaved, isPublic: next.isPublic };
}

/**
 * Brings the records created up to `upTo` in line with the server's list of the user's rows of that
 * span: records whose row is gone are removed, flags changed elsewhere are taken (under pending ones).
 * The records are read without holding the tables for writing (a library of thousands takes a while to
 * read, and the page's own reads would wait behind a write lock); the few that change are read again and
 * written in a second, short transaction, which judges each afresh.
 */
export async function reconcileGenerations(
  db: AppDb,
  userId: string,
  server: ReadonlyMap<string, ServerFlags>,
  upTo: string,
): Promise<{ removed: number; updated: number }> {
  const inSpan = (r: GenerationRecord | undefined): r is GenerationRecord =>
    r !== undefined && r.userId === userId && r.createdAt <= upTo;
  const changing = await db.transaction("r", [db.generations, db.outbox], async () => {
    const overlay = await pendingOverlay(db, userId);
    const local = await db.generations
      .where("[userId+createdAt]")
      .between([userId, ""], [userId, upTo], true, true)
      .toArray();
    return local.filter((r) => !sameRecord(r, reconciled(r, server, overlay) ?? undefined)).map((r) => r.id);
  });
  if (changing.length === 0) return { removed: 0, updated: 0 };
  return db.transaction("rw", [db.generations, db.images, db.imageUse, db.collectionItems, db.outbox], async () => {
    const overlay = await pendingOverlay(db, userId);
    const gone: string[] = [];
    let updated = 0;
    for (const record of (await db.generations.bulkGet(changing)).filter(inSpan)) {
      const next = reconciled(record, server, overlay);
      if (!next) gone.push(record.id);
      else if (!sameRecord(record, next)) {
        await db.generations.put(next);
        updated++;
      }
    }
    await db.generations.bulkDelete(gone);
    await removeImages(db, gone);
    await forgetItemsOf(db, gone);
    return { removed: gone.length, updated };
  });
}

/** Preferences changes the server took, each with when (this device's clock): see applyServerPreferences. */
type SentPreferences = { at: number; patch: PreferencesPatch };
const sentPreferencesKey = (userId: string) => `preferences-sent:${userId}`;
/** A sent change is kept this long for the reads begun before it: far longer than a page's pull takes. */
const SENT_PREFERENCES_KEPT_MS = 10 * 60_000;

async function sentPreferences(db: AppDb, userId: string): Promise<SentPreferences[]> {
  return ((await db.meta.get(sentPreferencesKey(userId)))?.value as SentPreferences[] | undefined) ?? [];
}

/**
 * A preferences entry the server took, at `at` (this device's clock): the entry leaves the outbox and its
 * change is kept beside it for a while, for a read of the server begun before it (applyServerPreferences).
 */
export async function completePreferencesEntry(
  db: AppDb,
  entry: { seq?: number; userId: string; patch: PreferencesPatch },
  at: number,
): Promise<void> {
  await db.transaction("rw", [db.outbox, db.meta], async () => {
    const kept = (await sentPreferences(db, entry.userId)).filter((s) => s.at > at - SENT_PREFERENCES_KEPT_MS);
    await db.meta.put({ key: sentPreferencesKey(entry.userId), value: [...kept, { at, patch: entry.patch }] });
    if (entry.seq !== undefined) await db.outbox.delete(entry.seq);
  });
}

/**
 * The server's preferences, under the changes this device has not sent yet. With `readAt` (this device's
 * clock when the server was read), also under the changes the server took since then: a page's pull reads
 * the preferences beside the rest of the library, and a change saved and sent meanwhile must not be
 * undone by the older copy (fault seed 3642: the device kept the old style, the server the new one).
 */
export async function applyServerPreferences(db: AppDb, record: PreferencesRecord, readAt?: number): Promise<void> {
  await db.transaction("rw", [db.preferences, db.outbox, db.meta], async () => {
    const since = readAt === undefined ? [] : (await sentPreferences(db, record.userId)).filter((s) => s.at >= readAt);
    const overlay = await pendingOverlay(db, record.userId);
    await db.preferences.put(Object.assign({ ...record }, ...since.map((s) => s.patch), overlay.preferences));
  });
}
