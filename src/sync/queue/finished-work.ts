// When a unit of the person's work is over (issue point 6): a batch once its last task has settled,
// a task queued alone once it has. The page and the service worker ask the same question after every
// outcome and say it once per unit: a toast, the unseen count (tab title, app badge) and, when no page
// of the app is visible and notifications are on, a system notification from the service worker.
import { PREFERENCE_DEFAULTS } from "#shared/vocabulary/generation.ts";
import type { AppDb } from "../../db/db";
import type { TaskRecord } from "../../db/schema";

export type FinishedUnit = {
  /** One id per unit (the batch id, else the task id): a unit is announced once. */
  key: string;
  batch: boolean;
  done: number;
  failed: number;
  title: string;
  body: string;
};

/** The message a page sends its service worker to show a system notification if no page is visible. */
export const FINISHED_MESSAGE = "promptcanvas:finished";
export type FinishedMessage = { type: typeof FINISHED_MESSAGE; title: string; body: string; tag: string };

const settled = (t: TaskRecord) => t.status === "done" || t.status === "error";

function clip(text: string, max = 80): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

export function describeUnit(tasks: readonly TaskRecord[], key: string, batch: boolean): FinishedUnit {
  const done = tasks.filter((t) => t.status === "done").length;
  const failed = tasks.filter((t) => t.status === "error").length;
  const n = done + failed;
  let title: string;
  if (!batch) title = done ? "Your image is ready" : "Your image could not be generated";
  else if (!failed) title = `Your ${n} images are ready`;
  else if (!done) title = `Your batch of ${n} images failed`;
  else title = `Batch finished: ${done} ready, ${failed} failed`;
  const prompt = tasks[0]?.prompt ?? "";
  const body = !done ? `“${clip(prompt)}”. Open the queue to retry.` : `“${clip(prompt)}”. See it in History.`;
  return { key, batch, done, failed, title, body };
}

/**
 * The unit the task belongs to, if this outcome finished it; null while any of it is still to run. The task
 * is given by its id, or as a caller has just read it once settled (a task alone then needs no read).
 * `following`: the task the queue went on to in the same slot; one of the same batch means the batch is not
 * over, with no read.
 */
export async function finishedUnit(
  db: AppDb,
  taskOrId: string | TaskRecord | undefined,
  following?: Pick<TaskRecord, "batchId">,
): Promise<FinishedUnit | null> {
  const task = typeof taskOrId === "string" ? await db.tasks.get(taskOrId) : taskOrId;
  if (!task || !settled(task)) return null;
  if (!task.batchId) return describeUnit([task], task.id, false);
  const batchId = task.batchId;
  if (following?.batchId === batchId) return null;
  // The person's tasks in one read (a filter in Dexie would walk a cursor, a request a task).
  const members = (await db.tasks.where("userId").equals(task.userId).toArray()).filter((t) => t.batchId === batchId);
  if (!members.every(settled)) return null;
  return describeUnit(members, batchId, true);
}

/** Whether the person wants to hear about finished work (the preference, on by default). */
export async function notificationsWanted(db: AppDb, userId: string): Promise<boolean> {
  const prefs = await db.preferences.get(userId);
  return prefs?.notificationsEnabled ?? PREFERENCE_DEFAULTS.notificationsEnabled;
}

/** Remembers which units were announced, so two tasks of a batch ending together say it once. */
export function oncePerUnit(): (unit: FinishedUnit) => boolean {
  const said = new Set<string>();
  return (unit) => {
    if (said.has(unit.key)) return false;
    said.add(unit.key);
    return true;
  };
}
