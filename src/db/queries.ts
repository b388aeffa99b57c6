// The reads views make, each a plain async function for `useLiveQuery` (Dexie is the truth the UI
// shows). The database is a parameter with the page's singleton as default, so tests pass their own.
import { db as appDb, type AppDb } from "./db";
import type { ImageBytes } from "./images";
import { promptsOf } from "./prompt-history";
import type { GenerationRecord, OutboxEntry, PreferencesRecord, PromptHistoryRecord, TaskRecord } from "./schema";

/** A user's tasks, oldest first (the order the queue runs them in). */
export function listTasks(userId: string, db: AppDb = appDb): Promise<TaskRecord[]> {
  return db.tasks.where("[userId+createdAt]").between([userId, ""], [userId, "\uffff"]).toArray();
}

/** Only queued tasks, oldest first: what the scheduler chooses from. */
export function queuedTasks(userId: string, db: AppDb = appDb): Promise<TaskRecord[]> {
  return db.tasks.where("[userId+status]").equals([userId, "queued"]).toArray().then(byCreation);
}

/** Tasks in place, oldest first. */
export function byCreation(tasks: TaskRecord[]): TaskRecord[] {
  return tasks.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * All of the user's generations, newest first (records only: no image bytes are read). Read in the
 * index's order and turned around here: IndexedDB reads a whole range at once only forwards, and a
 * reverse read walks a cursor record by record.
 */
export async function listGenerations(userId: string, db: AppDb = appDb): Promise<GenerationRecord[]> {
  const oldestFirst = await db.generations
    .where("[userId+createdAt]")
    .between([userId, ""], [userId, "\uffff"])
    .toArray();
  return oldestFirst.reverse();
}

/** A record, with the image bytes this device keeps for it where a caller has read them too. */
export type GenerationWithImage = GenerationRecord & ImageBytes;

/** The user's `limit` newest generations, newest first (records only). */
export function newestGenerations(userId: string, limit: number, db: AppDb = appDb): Promise<GenerationRecord[]> {
  return db.generations
    .where("[userId+createdAt]")
    .between([userId, ""], [userId, "\uffff"])
    .reverse()
    .limit(limit)
    .toArray();
}

/** The user's generations made with this seed, newest first (the generator asks before making one again). */
export async function generationsWithSeed(
  userId: string,
  seed: number,
  db: AppDb = appDb,
): Promise<GenerationRecord[]> {
  const found = await db.generations
    .where("userId")
    .equals(userId)
    .filter((g) => g.seed === seed)
    .toArray();
  return found.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export function getGeneration(id: string, db: AppDb = appDb): Promise<GenerationRecord | undefined> {
  return db.generations.get(id);
}

/** The signed-in account's prompt history, newest first (other accounts' on this browser are not listed). */
export function listPromptHistory(userId: string, db: AppDb = appDb): Promise<PromptHistoryRecord[]> {
  return promptsOf(db, userId);
}

export function getPreferences(userId: string, db: AppDb = appDb): Promise<PreferencesRecord | undefined> {
  return db.preferences.get(userId);
}

/** The user's saved generations, newest first. */
export async function savedGenerations(userId: string, db: AppDb = appDb): Promise<GenerationRecord[]> {
  const saved = await db.generations.where({ userId, isSaved: 1 }).toArray();
  return saved.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** How many generations of the user this device holds (an index count: no record is read). */
export function countGenerations(userId: string, db: AppDb = appDb): Promise<number> {
  return db.generations.where("userId").equals(userId).count();
}

export type GenerationCounts = { total: number; saved: number; published: number };

export async function generationCounts(userId: string, db: AppDb = appDb): Promise<GenerationCounts> {
  const [total, saved, published] = await Promise.all([
    countGenerations(userId, db),
    db.generations.where({ userId, isSaved: 1 }).count(),
    db.generations.where({ userId, isPublic: 1 }).count(),
  ]);
  return { total, saved, published };
}

/** Writes of the user the server has not confirmed yet (conflicts are not counted: they are listed). */
export function pendingOutboxCount(userId: string, db: AppDb = appDb): Promise<number> {
  return db.outbox.where("[userId+status]").equals([userId, "pending"]).count();
}

/** Writes the server could not apply (the row is gone, or the change was refused), oldest first. */
export function listConflicts(userId: string, db: AppDb = appDb): Promise<OutboxEntry[]> {
  return db.outbox.where("[userId+status]").equals([userId, "conflict"]).toArray();
}

export type UnsyncedWork = { outbox: number; tasks: number };

/**
 * What signing out by choice would lose on this device: unsent writes and generation requests not
 * yet made (queued or in flight). Zero of both means nothing is lost.
 */
export async function unsyncedWork(userId: string, db: AppDb = appDb): Promise<UnsyncedWork> {
  const [outbox, queued, running] = await Promise.all([
    pendingOutboxCount(userId, db),
    db.tasks.where("[userId+status]").equals([userId, "queued"]).count(),
    db.tasks.where("[userId+status]").equals([userId, "running"]).count(),
  ]);
  return { outbox, tasks: queued + running };
}
