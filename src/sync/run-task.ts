// One task's send, the one code path the page and the service worker share: claim the task, send
// it with its request id, and settle it. Success stores the row and the image bytes together;
// every failure is classified once and becomes a wait (offline, backoff, quota, session) or, for
// what trying again cannot fix, an error. Nothing queued is dropped: only the person removes tasks.
import type { ErrorCode } from "#shared/vocabulary/errors.ts";
import { DEFAULT_TIER } from "#shared/vocabulary/tiers.ts";
import type { GenerateAnswer, GenerateListeners, GenerateRequest } from "../api/generate";
import { appErrorOf, type AppError } from "../api/errors";
import type { AppDb } from "../db/db";
import type { GenerationRecord, LimitsRecord, TaskRecord, TaskWait } from "../db/schema";
import { toGenerationRecord } from "../db/generation-record";
import { makeThumbnail } from "../lib/thumbnail";
import { markDone, markDoneDeleted, markFailed, markRunning, markWaiting, runningRecord } from "../db/tasks";
import { storeImage } from "../db/images";
import { answerSettled, awaitAnswer } from "../db/library";
import { addToCollection } from "../db/collections";
import {
  afterFreshShown,
  announceMade,
  forgetFreshImage,
  imageKept,
  keepingImage,
  rememberFreshImage,
} from "./fresh-images";
import type { Result } from "../lib/result";
import { backoffDelayMs } from "./delivery";
import { isDue } from "./task-wait";

/** Sends after which a retryable failure becomes an error. */
export const MAX_ATTEMPTS = 5;

/** The longest a made image's keeping waits for a view of this context to draw it first. */
export const KEEP_AFTER_SHOWN_MS = 1_000;

export type RunTaskDeps = {
  db: AppDb;
  /** One send; `listeners.onDrawn` hears that the server has made the image, before its answer. */
  generate: (request: GenerateRequest, listeners?: GenerateListeners) => Promise<Result<GenerateAnswer, AppError>>;
  fetchImage: (url: string) => Promise<Blob>;
  /** Product analytics (app_events); a failure there never fails the task. */
  track: (userId: string, name: string, metadata: Record<string, unknown>) => Promise<void>;
  /** One attempt to renew the session; true when a fresh one is in place. */
  refreshSession: () => Promise<boolean>;
  isOnline: () => boolean;
  now: () => number;
  random: () => number;
};

/**
 * What became of a made image's bytes, kept after the task settled: `kept`, `refused` (this device would
 * not store them: docs/spec.md §8's save failure), `unfetched` (the download failed: the row is stored and
 * the image is fetched again when shown online) or `gone` (the generation was deleted meanwhile, or the
 * answer was a deleted one's).
 */
export type ImageKept = "kept" | "refused" | "unfetched" | "gone";

export type RunOutcome =
  | {
      status: "done";
      taskId: string;
      /** The task as this send settled it (status done): its hearers need not read it back. */
      task: TaskRecord;
      generationId: string;
      replayed: boolean;
      /** Settles once the image's bytes are kept on this device (or could not be); never rejects. */
      image: Promise<ImageKept>;
      /** The task claimed in the same transaction that stored this answer, already being sent. */
      next?: { task: TaskRecord; sending: Promise<RunOutcome> };
    }
  | { status: "waiting"; taskId: string; wait: TaskWait; error?: AppError }
  | { status: "error"; taskId: string; task: TaskRecord; error: AppError }
  /** Not sent: the task was removed, taken by another runner, or is not due (its wait is kept). */
  | { status: "skipped"; taskId: string; wait?: TaskWait };

const BACKOFF_CODES: ErrorCode[] = ["rate_limit", "timeout", "server_error"];

function requestOf(task: TaskRecord): GenerateRequest {
  return {
    requestId: task.id,
    prompt: task.prompt,
    negativePrompt: task.negativePrompt,
    style: task.style,
    quality: task.quality,
    aspectRatio: task.aspectRatio,
    seed: task.seed,
    referenceImage: task.referenceImage,
    provider: task.provider,
    ...(task.customStyle ? { customStyle: task.customStyle } : {}),
    ...(task.variation ? { variation: { ...task.variation } } : {}),
  };
}

function limitsAfter(previous: LimitsRecord | undefined, userId: string, answer: GenerateAnswer, now: number) {
  const { remaining, daily_limit, reset_at } = answer.quota;
  return {
    userId,
    generationsToday: Math.max(0, daily_limit - remaining),
    dailyLimit: daily_limit,
    remaining,
    resetAt: reset_at,
    tier: previous?.tier ?? DEFAULT_TIER,
    checkedAt: new Date(now).toISOString(),
  } satisfies LimitsRecord;
}

/** Today's known quota is used up and its reset is still ahead: the reset moment, else null. */
function quotaSpent(limits: LimitsRecord | undefined, now: number): string | null {
  if (!limits || limits.remaining > 0) return null;
  return Date.parse(limits.resetAt) > now ? limits.resetAt : null;
}

/** The person chose to hold this task for after the daily reset (only they can: never by itself). */
export const heldForReset = (task: Pick<TaskRecord, "wait">): boolean => task.wait?.reason === "quota";

/** A task marked running by this send's claim, ready to go; `held`: see Claim. */
export type Claimed = { task: TaskRecord; held: boolean };

export type SendOptions = {
  /**
   * Runs inside the transaction that stores a success and may claim the task to send next (the
   * queue's, decided by claimOf): its send then starts the moment that transaction commits, before
   * the page's live views redraw with the new row and keep IndexedDB and the main thread busy.
   */
  next?: (doneTaskId: string) => Promise<Claimed | undefined>;
  /**
   * Hears that the server has made this send's image and is storing it: the queue may send its next
   * task now, so the next render starts while this answer is on its way (decision 123).
   */
  drawn?: (taskId: string) => void;
  /**
   * Hears that this send's answer is a made image, the moment it is in (before it is stored here): the
   * run is over for the person, who sees the image at once and may ask for the next.
   */
  answered?: (taskId: string) => void;
};

async function succeed(
  deps: RunTaskDeps,
  task: TaskRecord,
  answer: GenerateAnswer,
  options: SendOptions,
): Promise<RunOutcome> {
  const { db } = deps;
  if ("deleted" in answer) {
    // Made earlier (this send's first answer was lost), then deleted by the person: done, nothing kept.
    const now = deps.now();
    await markDoneDeleted(db, task.id, task.userId, (held) => limitsAfter(held, task.userId, answer, now), now);
    const done: TaskRecord = { ...task, status: "done" };
    return {
      status: "done",
      taskId: task.id,
      task: done,
      generationId: task.id,
      replayed: true,
      image: Promise.resolve("gone"),
    };
  }
  // The row and the quota are stored and the task settled as soon as the answer is here, so the queue's
  // next send starts while this image is still being fetched, scaled and kept (decision 114): the
  // device's own work stays off the renders' path. Until the bytes are kept, the preview shows the
  // answer's signed URL.
  const record = toGenerationRecord(answer.generation);
  rememberFreshImage(record.id, answer.generation.image_url, deps.now());
  announceMade(task.userId, record, deps.now());
  options.answered?.(task.id);
  const now = deps.now();
  const claimed = await intoCollection(deps, task, record.id, now, () =>
    markDone(
      db,
      task.id,
      record,
      (held) => limitsAfter(held, task.userId, answer, now),
      now,
      {},
      options.next && (() => options.next!(task.id)),
    ),
  );
  const next = claimed && { task: claimed.task, sending: sendClaimed(deps, claimed, options) };
  await settleHeardRows(deps, task.id, record);
  void deps.track(task.userId, "queue_task_success", { provider: answer.generation.provider, taskId: task.id });
  const image = keepImage(deps, record.id, answer.generation.image_url);
  return {
    status: "done",
    taskId: task.id,
    task: { ...task, status: "done" },
    generationId: record.id,
    replayed: answer.replayed,
    image,
    ...(next ? { next } : {}),
  };
}

/**
 * Stores a task's answer (`store`); a task queued to "Add new results to" a collection (decision 157) also
 * puts its image there, with its outbox entry, in the same transaction. A collection no longer on this
 * device (deleted meanwhile), or full, is skipped: the image stays in the library.
 */
function intoCollection<T>(
  { db }: RunTaskDeps,
  task: TaskRecord,
  generationId: string,
  now: number,
  store: () => Promise<T>,
): Promise<T> {
  const { collectionId } = task;
  if (!collectionId) return store();
  const tables = [db.tasks, db.generations, db.images, db.imageUse, db.limits, db.collections, db.collectionItems];
  return db.transaction("rw", [...tables, db.outbox], async () => {
    const stored = await store();
    await addToCollection(task.userId, collectionId, [generationId], db, now);
    return stored;
  });
}

/**
 * Fetches a made image, makes its thumbnail (in a worker) and keeps both with the row; never rejects.
 * The views of this context hear when it is done (src/sync/fresh-images.ts): a grid's tile waits for the
 * thumbnail rather than decode the full image at a tile's size. A view putting the image on screen from
 * the answer's URL (the generator's preview) draws it first, within KEEP_AFTER_SHOWN_MS: the fetch then
 * reads the bytes its image just loaded, and the thumbnail's decode does not delay that image's frame.
 */
async function keepImage(deps: RunTaskDeps, id: string, url: string): Promise<ImageKept> {
  keepingImage(id);
  let thumbnail: string | undefined;
  try {
    await afterFreshShown(id, KEEP_AFTER_SHOWN_MS);
    return await fetchAndKeep(deps, id, url, (made) => (thumbnail = made));
  } finally {
    imageKept(id, thumbnail);
  }
}

async function fetchAndKeep(
  deps: RunTaskDeps,
  id: string,
  url: string,
  made: (thumbnail: string) => void,
): Promise<ImageKept> {
  let image: Blob;
  try {
    image = await deps.fetchImage(url);
  } catch {
    forgetFreshImage(id);
    return "unfetched";
  }
  // The grid's thumbnail is made now, while the bytes are at hand (none where the platform cannot).
  const thumbnail = await makeThumbnail(image).catch(() => undefined);
  try {
    const kept = await storeImage(id, { image, thumbnail }, deps.db);
    if (kept && thumbnail) made(thumbnail);
    return kept ? "kept" : "gone";
  } catch (e) {
    // The device refused the bytes (storage full, a broken database): the row stays, the image is
    // fetched again when shown online, and the person is told.
    console.warn("[queue] storing the image failed:", e instanceof Error ? e.message : String(e));
    return "refused";
  }
}

async function wait(deps: RunTaskDeps, task: TaskRecord, wait: TaskWait, error?: AppError): Promise<RunOutcome> {
  await markWaiting(deps.db, task.id, wait, deps.now());
  return { status: "waiting", taskId: task.id, wait, error };
}

async function fail(deps: RunTaskDeps, task: TaskRecord, error: AppError): Promise<RunOutcome> {
  await markFailed(deps.db, task.id, { code: error.code, message: error.message || "Generation failed" }, deps.now());
  void deps.track(task.userId, "queue_task_fail", { provider: task.provider ?? null, taskId: task.id });
  return { status: "error", taskId: task.id, task: { ...task, status: "error" }, error };
}

async function settleFailure(deps: RunTaskDeps, task: TaskRecord, error: AppError, held: boolean): Promise<RunOutcome> {
  const at = (ms: number) => new Date(deps.now() + ms).toISOString();
  if (error.code === "network_error" && !deps.isOnline()) return wait(deps, task, { reason: "offline" }, error);
  if (error.code === "daily_limit") {
    const limits = await deps.db.limits.get(task.userId);
    const until = error.retryAfterMs !== undefined ? at(error.retryAfterMs) : limits?.resetAt;
    if (limits) await deps.db.limits.put({ ...limits, remaining: 0, checkedAt: at(0) });
    // Only a task the person chose to hold for the reset waits for it; any other is refused now (it
    // stays in the list as failed, with Retry), so tomorrow's quota is never spent behind their back.
    if (held) return wait(deps, task, until ? { reason: "quota", until } : { reason: "quota" }, error);
    return fail(deps, task, error);
  }
  if (error.code === "auth_required") {
    // A lapsed token is renewed once and the task re-sent; if that fails it waits for a sign-in.
    const renewed = task.attempts < MAX_ATTEMPTS && (await deps.refreshSession());
    return wait(deps, task, renewed ? { reason: "backoff", until: at(0) } : { reason: "auth" }, error);
  }
  // A connection that fails while the device says it is online is retried for as long as it takes
  // (a network failure never becomes the task's error); the server's own failures have a cap.
  if (error.code === "network_error" || (BACKOFF_CODES.includes(error.code) && task.attempts < MAX_ATTEMPTS)) {
    return wait(
      deps,
      task,
      { reason: "backoff", until: at(backoffDelayMs(task.attempts, deps.random, error.retryAfterMs)) },
      error,
    );
  }
  return fail(deps, task, error);
}

/** What a send found when it went to claim its task. */
export type Claim =
  | { kind: "skipped"; wait?: TaskWait }
  | { kind: "spent"; queued: TaskRecord; until: string }
  | { kind: "offline"; queued: TaskRecord }
  /** `held`: the person had held it for the reset (its wait, gone once it runs, said so). */
  | ({ kind: "claimed" } & Claimed);

/**
 * Whether `queued`, read in the caller's transaction with the known quota `limits`, may go now: claimed
 * (its record as running, still to be written) or why not. Decides only; the caller reads and writes.
 */
export function claimOf(deps: RunTaskDeps, queued: TaskRecord | undefined, limits: LimitsRecord | undefined): Claim {
  if (!queued || queued.status !== "queued") return { kind: "skipped" };
  // The scheduler chose from what it last saw; the record may have moved on since.
  if (queued.wait && !isDue(queued.wait, deps.now(), true)) return { kind: "skipped", wait: queued.wait };
  // With today's quota known to be spent nothing new is sent. A task sent before is sent again
  // whatever the device knows: its row may already be on the server (the answer was lost), and only
  // the server can tell a free replay from a request the day's quota refuses.
  const spentUntil = queued.sent ? null : quotaSpent(limits, deps.now());
  if (spentUntil) return { kind: "spent", queued, until: spentUntil };
  if (!deps.isOnline()) return { kind: "offline", queued };
  return { kind: "claimed", task: runningRecord(queued, deps.now()), held: heldForReset(queued) };
}

/**
 * Reads the task and the known quota and, when it may go, marks it running: one transaction, so the
 * path to a send holds no more than it must.
 */
function claim(deps: RunTaskDeps, taskId: string): Promise<Claim> {
  const { db } = deps;
  return db.transaction("rw", [db.tasks, db.limits], async (): Promise<Claim> => {
    const queued = await db.tasks.get(taskId);
    const claimed = claimOf(deps, queued, queued && (await db.limits.get(queued.userId)));
    if (claimed.kind !== "claimed" || !queued) return claimed;
    // Read above in this transaction: claimed as it stands, with no second read.
    const task = await markRunning(db, queued, deps.now());
    return task ? { ...claimed, task } : { kind: "skipped" };
  });
}

export async function runTask(deps: RunTaskDeps, taskId: string, options: SendOptions = {}): Promise<RunOutcome> {
  const claimed = await claim(deps, taskId);
  switch (claimed.kind) {
    case "skipped":
      return { status: "skipped", taskId, ...(claimed.wait ? { wait: claimed.wait } : {}) };
    case "spent":
      // A held task waits for the reset; any other fails at once with the daily-limit error.
      if (heldForReset(claimed.queued)) return wait(deps, claimed.queued, { reason: "quota", until: claimed.until });
      return fail(deps, claimed.queued, appErrorOf("daily_limit", "quota spent (known before sending)"));
    case "offline": {
      const { queued } = claimed;
      return wait(deps, queued, heldForReset(queued) && queued.wait ? queued.wait : { reason: "offline" });
    }
  }
  return sendClaimed(deps, claimed, options);
}

/** The rows realtime or a pull brought while `taskId` was sent (db/library.ts awaitAnswer); never rejects. */
function settleHeardRows(deps: RunTaskDeps, taskId: string, stored?: GenerationRecord): Promise<void> {
  return answerSettled(deps.db, taskId, stored).catch((e: unknown) => {
    console.warn("[queue] writing the rows heard during a send failed:", e instanceof Error ? e.message : String(e));
  });
}

/** Sends a claimed task and settles it. */
export async function sendClaimed(
  deps: RunTaskDeps,
  { task, held }: Claimed,
  options: SendOptions = {},
): Promise<RunOutcome> {
  const drawn = options.drawn;
  awaitAnswer(deps.db, task.id);
  try {
    const answer = await deps.generate(requestOf(task), drawn && { onDrawn: () => drawn(task.id) });
    // A replay (the request reached the server before a reload) answers the stored row: a success.
    if (answer.ok) return await succeed(deps, task, answer.value, options);
    return await settleFailure(deps, task, answer.error, held);
  } finally {
    // Rows heard for it meanwhile that its answer did not store are written now (succeed settles first).
    await settleHeardRows(deps, task.id);
  }
}
