// The queue's records and their transitions. A task is written before any network call and keeps
// its id (the request id) for life, so whoever sends it again (after a reload, from the worker)
// sends the same id. Transitions that finish a task write everything they touch in one transaction.
import type { AppDb } from "./db";
import { putImage, type ImageBytes } from "./images";
import { writePrompt, type PromptEntry } from "./prompt-history";
import { byCreation, queuedTasks } from "./queries";
import { resultUrlOf, type GenerationRecord, type LimitsRecord, type TaskRecord, type TaskWait } from "./schema";

export type NewTask = Omit<TaskRecord, "status" | "attempts" | "createdAt" | "updatedAt" | "finishedAt" | "error">;

const iso = (now: number) => new Date(now).toISOString();

/**
 * What to queue: the tasks, or a choice made from the person's limits as the queueing transaction reads
 * them (a click decides there whether today's quota lets it go, be held, or be refused, with no read of
 * its own before). A choice of no tasks writes nothing.
 */
export type TaskPlan = NewTask[] | { userId: string; pick: (limits: LimitsRecord | undefined) => NewTask[] };

/**
 * Claims, in the transaction that queues tasks, what may go at once: given the user's queued tasks as that
 * transaction holds them (oldest first, the new ones among them) and the known quota, it answers the
 * records of the tasks it claimed (status running: runningRecord), written in place of their queued ones.
 */
export type ClaimDue = (queued: TaskRecord[], limits: LimitsRecord | undefined) => TaskRecord[];

/**
 * Queues tasks and records their prompt in history, in one transaction. Tasks of one batch get
 * createdAt one millisecond apart, so they run in the order they were queued.
 */
export async function enqueueTasks(
  db: AppDb,
  plan: TaskPlan,
  prompt: PromptEntry | null,
  now: number = Date.now(),
  claimDue?: ClaimDue,
): Promise<string[]> {
  // `claimDue` runs last in the same transaction (src/sync/queue/queue-runner.ts, enqueue), so a click's
  // send needs no transaction of its own. A click waits for this transaction, so it makes two trips to
  // IndexedDB's thread, each waited for once: its reads go out together, then its writes.
  const userId = Array.isArray(plan) ? plan[0]?.userId : plan.userId;
  if (userId === undefined) return [];
  return db.transaction("rw", [db.tasks, db.promptHistory, db.limits], async () => {
    const [limits, history, queued] = await Promise.all([
      Array.isArray(plan) && !claimDue ? undefined : db.limits.get(userId),
      prompt ? db.promptHistory.toArray() : [],
      claimDue ? queuedTasks(userId, db) : [],
    ]);
    const tasks = Array.isArray(plan) ? plan : plan.pick(limits);
    if (!tasks.length) return [];
    const records = tasks.map((t, i): TaskRecord => ({
      ...t,
      status: "queued",
      attempts: 0,
      createdAt: iso(now + i),
      updatedAt: iso(now + i),
    }));
    const claimed = new Map(
      (claimDue?.(byCreation([...queued, ...records]), limits) ?? []).map((t) => [t.id, t] as const),
    );
    const added = new Set(records.map((t) => t.id));
    const older = [...claimed.values()].filter((t) => !added.has(t.id));
    await Promise.all([
      db.tasks.bulkAdd(records.map((t) => claimed.get(t.id) ?? t)),
      older.length ? db.tasks.bulkPut(older) : null,
      prompt && writePrompt(db, history, userId, prompt, now),
    ]);
    return records.map((t) => t.id);
  });
}

export async function removeTask(db: AppDb, id: string): Promise<void> {
  await db.tasks.delete(id);
}

export async function clearTasks(db: AppDb, userId: string): Promise<void> {
  await db.tasks.where("userId").equals(userId).delete();
}

/** A runner that stopped mid-send (reload, closed tab) left tasks `running`: queue them again. */
export async function recoverInterrupted(db: AppDb, userId: string, now: number = Date.now()): Promise<number> {
  return db.tasks
    .where("[userId+status]")
    .equals([userId, "running"])
    .modify({ status: "queued", updatedAt: iso(now) });
}

/**
 * A running task whose image the server has drawn, with the next task sent in its slot: finishing, no
 * longer counted as running against the concurrency (TaskRecord.drawnAt).
 */
export async function markDrawn(db: AppDb, id: string, now: number = Date.now()): Promise<void> {
  await db.tasks
    .where("id")
    .equals(id)
    .and((t) => t.status === "running")
    .modify({ drawnAt: iso(now) });
}

/** Whether a task counts as running against the concurrency: sent, its image not yet drawn. */
export const isGenerating = (task: Pick<TaskRecord, "status" | "drawnAt">): boolean =>
  task.status === "running" && !task.drawnAt;

/**
 * Claims a queued task for sending: answers the task (attempts counted) or undefined when it was
 * removed or is no longer queued meanwhile (then nothing is sent). Given the record itself, read as
 * queued in the caller's transaction, it writes that record with no second read.
 */
export async function markRunning(
  db: AppDb,
  task: string | TaskRecord,
  now: number = Date.now(),
): Promise<TaskRecord | undefined> {
  return db.transaction("rw", db.tasks, async () => {
    const queued = typeof task === "string" ? await db.tasks.get(task) : task;
    if (!queued || queued.status !== "queued") return undefined;
    const running = runningRecord(queued, now);
    await db.tasks.put(running);
    return running;
  });
}

/** A queued task's record as claimed for sending: running, its attempt counted, its wait and error gone. */
export function runningRecord(queued: TaskRecord, now: number): TaskRecord {
  const running: TaskRecord = {
    ...queued,
    status: "running",
    attempts: queued.attempts + 1,
    sent: true,
    updatedAt: iso(now),
  };
  delete running.wait;
  delete running.error;
  delete running.drawnAt;
  return running;
}

/**
 * The quota a finished send leaves: a record, or one made from the record held (read in the same
 * transaction, so a send's answer costs one transaction), or null to leave it.
 */
export type LimitsUpdate = LimitsRecord | null | ((held: LimitsRecord | undefined) => LimitsRecord);

async function putLimits(db: AppDb, userId: string, update: LimitsUpdate): Promise<void> {
  if (!update) return;
  await db.limits.put(typeof update === "function" ? update(await db.limits.get(userId)) : update);
}

/**
 * The generation (with its image bytes) and the task's completion land together or not at all, and
 * so does the quota the server answered with. A task removed while it ran still leaves its image:
 * it was made and charged. `then` runs last in the same transaction (the queue claims its next task
 * there: src/sync/run-task.ts), and what it answers is answered once all of it has committed.
 */
export async function markDone<T = void>(
  db: AppDb,
  id: string,
  generation: GenerationRecord,
  limits: LimitsUpdate,
  now: number = Date.now(),
  bytes: ImageBytes = {},
  then?: () => Promise<T>,
): Promise<T | undefined> {
  return db.transaction("rw", [db.tasks, db.generations, db.images, db.imageUse, db.limits], async () => {
    await db.generations.put(generation);
    if (bytes.image || bytes.thumbnail) await putImage(db, generation.id, generation.userId, bytes);
    await putLimits(db, generation.userId, limits);
    await db.tasks.update(id, {
      status: "done",
      updatedAt: iso(now),
      finishedAt: iso(now),
      provider: generation.provider,
      resultUrl: resultUrlOf(generation.imagePath),
      params: { width: generation.width, height: generation.height, model: generation.model },
    });
    return then?.();
  });
}

/**
 * Done, with nothing to keep: the server made this task's image and the person has deleted it since
 * (a late retry learnt so). Any copy of it on this device goes too.
 */
export async function markDoneDeleted(
  db: AppDb,
  id: string,
  userId: string,
  limits: LimitsUpdate,
  now: number = Date.now(),
): Promise<void> {
  await db.transaction("rw", [db.tasks, db.generations, db.images, db.imageUse, db.limits], async () => {
    await db.generations.delete(id);
    await db.images.delete(id);
    await db.imageUse.delete(id);
    await putLimits(db, userId, limits);
    await db.tasks.update(id, { status: "done", updatedAt: iso(now), finishedAt: iso(now) });
  });
}

export async function markFailed(db: AppDb, id: string, error: TaskRecord["error"], now: number = Date.now()) {
  await db.transaction("rw", db.tasks, async () => {
    const task = await db.tasks.get(id);
    if (!task) return;
    const failed: TaskRecord = { ...task, status: "error", error, updatedAt: iso(now), finishedAt: iso(now) };
    delete failed.wait;
    await db.tasks.put(failed);
  });
}

/** Back to the queue, waiting for something (a connection, the quota reset, a session, a backoff). */
export async function markWaiting(db: AppDb, id: string, wait: TaskWait, now: number = Date.now()): Promise<void> {
  await db.tasks.update(id, { status: "queued", wait, updatedAt: iso(now) });
}

/** Retry re-runs the same request id: queued again, its error and attempts forgotten. */
export async function retryTask(db: AppDb, id: string, now: number = Date.now()): Promise<void> {
  await db.transaction("rw", db.tasks, async () => {
    const task = await db.tasks.get(id);
    if (!task || task.status === "running") return;
    const queued: TaskRecord = { ...task, status: "queued", attempts: 0, updatedAt: iso(now) };
    delete queued.error;
    delete queued.wait;
    delete queued.finishedAt;
    await db.tasks.put(queued);
  });
}

/** Lifts every wait of one reason (a session came back: tasks waiting for it may go). */
export async function releaseWaits(db: AppDb, userId: string, reason: TaskWait["reason"], now: number = Date.now()) {
  await db.tasks
    .where("[userId+status]")
    .equals([userId, "queued"])
    .filter((t) => t.wait?.reason === reason)
    .modify((t) => {
      delete t.wait;
      t.updatedAt = iso(now);
    });
}
