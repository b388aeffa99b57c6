// The signed-in user's queue on this page (docs/architecture.md, "A generation, end to end"). Every tab
// publishes a generation runtime (views can queue work); the queue runner itself runs in the one tab that holds the
// user's Web Lock, so tabs and the service worker never send the same task at once; the others see
// everything through Dexie and take over when that tab closes. The runner's lane hears the shared
// triggers (src/sync/triggers.ts: online, offline, visible, this user's session renewed) and is woken
// here when work is queued or the concurrency changes; offline, new work also asks for a Background
// Sync. Each tab keeps the limits record fresh while visible.
import { createActor, fromPromise } from "xstate";
import { sessionRenewals } from "../api/auth";
import { fetchMyLimits } from "../api/user-rows";
import { db } from "../db/db";
import { isOnline, untilOnline } from "../lib/online";
import { enqueueTasks, retryTask } from "../db/tasks";
import { readConcurrency, subscribeConcurrency, writeConcurrency } from "../sync/queue/concurrency-store";
import { publishGenerationRuntime, type GenerationRuntime } from "../features/generation/generation-runtime";
import {
  FINISHED_MESSAGE,
  finishedUnit,
  notificationsWanted,
  oncePerUnit,
  type FinishedMessage,
  type FinishedUnit,
} from "../sync/queue/finished-work";
import { announceOutcome } from "../features/generation/outcome-toasts";
import { QUEUE_LOCK_PREFIX, QUEUE_SYNC_TAG, startQueueRunner, type QueueRunner } from "../sync/queue/queue-runner";
import { limitsMachine } from "../features/quota/limits-machine";
import { addUnseenFinished, showToast } from "../state/toasts";
import { toLimitsRecord } from "../sync/pull";
import type { RunOutcome } from "../sync/run-task";
import { browserSources } from "../sync/triggers";

type PageRunner = { userId: string; runtime: GenerationRuntime; stop: () => void };
let current: PageRunner | null = null;

const warn = (what: string) => (e: unknown) =>
  console.warn(`[queue] ${what}:`, e instanceof Error ? e.message : String(e));

/** Asks the service worker to drain the queue once the network is back, even with no page open. */
function requestBackgroundSync(): void {
  if (!("serviceWorker" in navigator)) return;
  type WithSync = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
  void navigator.serviceWorker.ready
    .then((registration) => (registration as WithSync).sync?.register(QUEUE_SYNC_TAG))
    .catch(warn("background sync unavailable"));
}

function retry(taskId: string): void {
  void retryTask(db, taskId).catch(warn("retry failed"));
}

/** A unit of work is over: a toast for a batch, and when the page is hidden (and the person wants to
 * hear) the unseen count and, through the service worker, a system notification if no page of the
 * app is visible. */
async function finished(userId: string, unit: FinishedUnit): Promise<void> {
  if (unit.batch) showToast({ tone: unit.failed ? "warning" : "success", title: unit.title, message: unit.body });
  if (document.visibilityState === "visible" || !(await notificationsWanted(db, userId))) return;
  addUnseenFinished();
  if (!("serviceWorker" in navigator) || typeof Notification === "undefined" || Notification.permission !== "granted")
    return;
  const registration = await navigator.serviceWorker.ready;
  const message: FinishedMessage = { type: FINISHED_MESSAGE, title: unit.title, body: unit.body, tag: unit.key };
  registration.active?.postMessage(message);
}

function startLimits(userId: string) {
  const machine = limitsMachine.provide({
    actors: {
      // Offline, the read waits for the connection and then runs once (hiding the page stops it).
      readLimits: fromPromise<void, void>(async ({ signal }) => {
        await untilOnline(signal);
        const limits = await fetchMyLimits();
        if (limits.ok) await db.limits.put(toLimitsRecord(userId, limits.value, new Date()));
      }),
    },
  });
  const actor = createActor(machine, { input: { visible: document.visibilityState === "visible" } }).start();
  const onVisibility = () =>
    actor.send({ type: document.visibilityState === "visible" ? "visibility.visible" : "visibility.hidden" });
  document.addEventListener("visibilitychange", onVisibility);
  return {
    generationFinished: () => actor.send({ type: "generation.finished" }),
    stop: () => {
      document.removeEventListener("visibilitychange", onVisibility);
      actor.stop();
    },
  };
}

/** Runs the queue while this tab holds the user's lock; resolves when stopped. */
async function holdQueue(
  userId: string,
  stopped: Promise<void>,
  onStart: (queue: QueueRunner | null) => void,
  onOutcome: (outcome: RunOutcome) => void,
): Promise<void> {
  const runner = await startQueueRunner({
    db,
    userId,
    concurrency: readConcurrency,
    onOutcome,
    sources: { ...browserSources(), session: sessionRenewals(userId) },
  });
  // The concurrency is the lane's limit, read at each look: a change (here or in another tab) is a wake.
  const unsubscribe = subscribeConcurrency(() => runner.wake());
  onStart(runner);
  await stopped;
  unsubscribe();
  runner.stop();
  onStart(null);
}

function startPageRunner(userId: string): PageRunner {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const abort = new AbortController();
  const limits = startLimits(userId);
  let queue: QueueRunner | null = null;

  const base: Omit<GenerationRuntime, "queue"> = {
    userId,
    enqueued() {
      if (!isOnline()) requestBackgroundSync();
      queue?.wake();
    },
    async enqueue(plan, prompt) {
      const now = Date.now();
      const taskIds = queue
        ? await queue.enqueue((claimDue) => enqueueTasks(db, plan, prompt, now, claimDue))
        : await enqueueTasks(db, plan, prompt, now);
      if (taskIds.length) base.enqueued(taskIds);
      return taskIds;
    },
    // Announced to the runner's subscription (subscribeConcurrency), which wakes its lane.
    setConcurrency: (value) => void writeConcurrency(value),
  };
  const publish = () => {
    const runtime: GenerationRuntime = { ...base, queue };
    if (current?.userId === userId) current.runtime = runtime;
    publishGenerationRuntime(runtime);
  };
  const firstTime = oncePerUnit();
  const onOutcome = (outcome: RunOutcome) => {
    if (outcome.status !== "done" && outcome.status !== "error") {
      announceOutcome(outcome, retry);
      return;
    }
    limits.generationFinished();
    void (async () => {
      const task = await db.tasks.get(outcome.taskId);
      // A done task is announced once its image is kept (a device that refused the bytes says so).
      const announced = outcome.status === "done" ? { ...outcome, image: await outcome.image } : outcome;
      // A batch's images are announced together when its last task settles; failures at once.
      announceOutcome(announced, retry, { quietSuccess: Boolean(task?.batchId) });
      const unit = await finishedUnit(db, outcome.taskId);
      if (unit && firstTime(unit)) await finished(userId, unit);
    })().catch(warn("announcing a finished task failed"));
  };
  const run = () =>
    holdQueue(
      userId,
      stopped,
      (q) => {
        queue = q;
        if (!abort.signal.aborted) publish();
      },
      onOutcome,
    );

  if (navigator.locks) {
    navigator.locks.request(QUEUE_LOCK_PREFIX + userId, { signal: abort.signal }, run).catch((e: unknown) => {
      if (!(e instanceof DOMException && e.name === "AbortError")) warn("the queue stopped")(e);
    });
  } else {
    void run().catch(warn("the queue stopped"));
  }

  const runner: PageRunner = {
    userId,
    runtime: { ...base, queue: null },
    stop: () => {
      abort.abort();
      stop();
      limits.stop();
    },
  };
  publishGenerationRuntime(runner.runtime);
  return runner;
}

/** Starts the queue for the user now signed in, stops it on sign-out or a switch of user. */
export function followSignedInUser(userId: string | null): void {
  if (current?.userId === userId) return;
  current?.stop();
  current = null;
  publishGenerationRuntime(null);
  if (userId) current = startPageRunner(userId);
}
