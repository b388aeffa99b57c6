// The signed-in user's queue on this page (docs/architecture.md, "A generation, end to end"). Every tab
// publishes a generation runtime (views can queue work); the queue runs as a lane of the runner
// (src/sync/runner.ts, src/sync/lanes.ts) in the one tab that holds the user's Web Lock, so tabs and the
// service worker never send the same task at once; the others see everything through Dexie and take over
// when that tab closes. The queue's lane hears the shared triggers (online, offline, visible, this user's
// session renewed) and is woken here when work is queued or the concurrency changes; offline, new work
// also asks for a Background Sync. Each tab keeps the limits record fresh while visible.
import { createActor, fromPromise } from "xstate";
import { fetchMyLimits } from "../api/user-rows";
import { db } from "../db/db";
import { untilOnline } from "../lib/online";
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
import { startQueueRunner, type QueueRunner, type QueueRunnerOptions } from "../sync/queue/queue-runner";
import { QUEUE_LANE } from "../sync/lanes";
import { keptOffline, startLanes, type Lane } from "../sync/runner";
import { limitsMachine } from "../features/quota/limits-machine";
import { addUnseenFinished, showToast } from "../state/toasts";
import { toLimitsRecord } from "../sync/pull";
import type { RunOutcome } from "../sync/run-task";
import type { TaskRecord } from "../db/schema";

let current: { userId: string; stop: () => void } | null = null;

const warn = (what: string) => (e: unknown) =>
  console.warn(`[queue] ${what}:`, e instanceof Error ? e.message : String(e));

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

/**
 * The queue as a lane of the runner (src/sync/lanes.ts): it runs in the tab that holds the user's queue
 * lock and hears the triggers the lane declares; `onStart` publishes it (null once stopped).
 */
function queueLane(onStart: (queue: QueueRunner | null) => void, onOutcome: QueueRunnerOptions["onOutcome"]): Lane {
  return {
    ...QUEUE_LANE,
    async start({ userId }) {
      const runner = await startQueueRunner({ db, userId, concurrency: readConcurrency, onOutcome });
      // The concurrency is the lane's limit, read at each look: a change (here or in another tab) is a wake.
      const unsubscribe = subscribeConcurrency(() => runner.wake());
      onStart(runner);
      return {
        wake: runner.heard,
        stop: () => {
          unsubscribe();
          runner.stop();
          onStart(null);
        },
      };
    },
  };
}

function startPageRunner(userId: string): () => void {
  let stopping = false;
  const limits = startLimits(userId);
  let queue: QueueRunner | null = null;

  const base: Omit<GenerationRuntime, "queue"> = {
    userId,
    enqueued() {
      keptOffline(QUEUE_LANE);
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
  const publish = () => void (stopping || publishGenerationRuntime({ ...base, queue }));
  const firstTime = oncePerUnit();
  // The limits are read again once the queue is idle (a batch's last image): each answer stored its own quota.
  let limitsRead: Promise<void> | null = null;
  const onOutcome = (outcome: RunOutcome, following?: Pick<TaskRecord, "batchId">) => {
    if (outcome.status !== "done" && outcome.status !== "error") {
      announceOutcome(outcome, retry);
      return;
    }
    limitsRead ??= (queue?.idle() ?? Promise.resolve()).then(() => ((limitsRead = null), limits.generationFinished()));
    void (async () => {
      const { task } = outcome;
      // A done task is announced once its image is kept (a device that refused the bytes says so).
      const announced = outcome.status === "done" ? { ...outcome, image: await outcome.image } : outcome;
      // A batch's images are announced together when its last task settles; failures at once.
      announceOutcome(announced, retry, { quietSuccess: Boolean(task.batchId) });
      const unit = await finishedUnit(db, task, following);
      if (unit && firstTime(unit)) await finished(userId, unit);
    })().catch(warn("announcing a finished task failed"));
  };
  const stopLanes = startLanes(userId, [queueLane((q) => ((queue = q), publish()), onOutcome)]);
  publish();
  return () => {
    stopping = true;
    stopLanes();
    limits.stop();
  };
}

/** Starts the queue for the user now signed in, stops it on sign-out or a switch of user. */
export function followSignedInUser(userId: string | null): void {
  if (current?.userId === userId) return;
  current?.stop();
  current = null;
  publishGenerationRuntime(null);
  if (userId) current = { userId, stop: startPageRunner(userId) };
}
