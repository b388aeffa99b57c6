// The queue as a running process, composed the same way on the page and in the service worker: the
// queue machine, whose runs send through src/sync/run-task.ts, fed by a live query of the user's
// queued tasks. The caller adds what only it has (connectivity and auth events, toasts) and holds
// the Web Lock that makes this the only runner of the user's queue.
import { createActor, fromPromise } from "xstate";
import { refreshSession } from "../../api/auth";
import { trackEvent } from "../telemetry";
import { generateImage } from "../../api/generate";
import type { AppDb } from "../../db/db";
import { recoverInterrupted, releaseWaits } from "../../db/tasks";
import { watchQueuedTasks } from "../../db/watch";
import { runTask, type RunOutcome, type RunTaskDeps } from "../run-task";
import { queueMachine, type QueueActor } from "./queue-machine";
import { reportingRunMachine, type GenerateTaskOutput } from "./run-machine";

export const QUEUE_LOCK_PREFIX = "promptcanvas-queue:";
export const QUEUE_SYNC_TAG = "promptcanvas-queue";

export type QueueRunnerOptions = {
  db: AppDb;
  userId: string;
  concurrency: number;
  online: boolean;
  drain?: boolean;
  /** Hears every outcome (the page shows toasts and re-reads the limits). */
  onOutcome?: (outcome: RunOutcome) => void;
};

async function fetchImage(url: string): Promise<Blob> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`image fetch answered ${response.status}`);
  return response.blob();
}

export function runTaskDeps(db: AppDb): RunTaskDeps {
  return {
    db,
    generate: (request) => generateImage(request),
    fetchImage,
    track: trackEvent,
    refreshSession,
    isOnline: () => (typeof navigator === "undefined" ? true : navigator.onLine),
    now: () => Date.now(),
    random: Math.random,
  };
}

export type QueueRunner = {
  actor: QueueActor;
  /** Resolves once every finished task's image is kept (or could not be): the worker waits for it. */
  imagesKept: () => Promise<void>;
  stop: () => void;
};

/** Recovers interrupted sends, then starts the queue; call it while holding the user's queue lock. */
export async function startQueueRunner(options: QueueRunnerOptions): Promise<QueueRunner> {
  const { db, userId } = options;
  await recoverInterrupted(db, userId);
  const deps = runTaskDeps(db);
  const keeping = new Set<Promise<unknown>>();
  const generateTask = fromPromise<GenerateTaskOutput, { taskId: string }>(async ({ input }) => {
    const outcome = await runTask(deps, input.taskId);
    if (outcome.status === "done") {
      const image = outcome.image;
      keeping.add(image);
      void image.finally(() => keeping.delete(image));
    }
    options.onOutcome?.(outcome);
    return outcome;
  });
  const machine = queueMachine.provide({
    actors: {
      run: reportingRunMachine.provide({ actors: { generateTask } }),
      releaseAuthWaits: fromPromise(() => releaseWaits(db, userId, "auth")),
    },
  });
  const actor = createActor(machine, {
    input: { concurrency: options.concurrency, online: options.online, signedIn: true, drain: options.drain },
  });
  actor.start();
  const unwatch = watchQueuedTasks(
    db,
    userId,
    (tasks) =>
      actor.send({
        type: "tasks.changed",
        tasks: tasks.map((t) => ({ id: t.id, createdAt: t.createdAt, wait: t.wait })),
      }),
    (e) => console.warn("[queue] reading the queue failed:", e instanceof Error ? e.message : String(e)),
  );
  return {
    actor,
    imagesKept: async () => {
      while (keeping.size) await Promise.all([...keeping]);
    },
    stop: () => {
      unwatch();
      actor.stop();
    },
  };
}
