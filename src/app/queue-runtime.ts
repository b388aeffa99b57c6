// The signed-in user's queue on this page (architecture §4). Every tab publishes a generation
// runtime (views can queue work); the queue runner itself runs in the one tab that holds the
// user's Web Lock, so tabs and the service worker never send the same task at once; the others see
// everything through Dexie and take over when that tab closes. The runner hears connectivity and
// session renewals; offline, new work also asks for a Background Sync. Each tab keeps the limits
// record fresh while visible.
import { createActor, fromPromise } from "xstate";
import { fetchMyLimits } from "../api/user-rows";
import { db } from "../db/db";
import { retryTask } from "../db/tasks";
import { readConcurrency, subscribeConcurrency, writeConcurrency } from "../features/generation/concurrency-store";
import { publishGenerationRuntime, type GenerationRuntime } from "../features/generation/generation-runtime";
import { announceOutcome } from "../features/generation/outcome-toasts";
import type { QueueActor } from "../features/generation/queue-machine";
import { QUEUE_LOCK_PREFIX, QUEUE_SYNC_TAG, startQueueRunner } from "../features/generation/queue-runner";
import { limitsMachine } from "../features/quota/limits-machine";
import { toLimitsRecord } from "../sync/pull";
import type { RunOutcome } from "../sync/run-task";

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

function startLimits(userId: string) {
  const machine = limitsMachine.provide({
    actors: {
      readLimits: fromPromise<void, void>(async () => {
        if (!navigator.onLine) return;
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
  onStart: (queue: QueueActor | null) => void,
  onOutcome: (outcome: RunOutcome) => void,
): Promise<void> {
  const runner = await startQueueRunner({
    db,
    userId,
    concurrency: readConcurrency(),
    online: navigator.onLine,
    onOutcome,
  });
  const queue = runner.actor;
  const online = () => queue.send({ type: "connectivity.online" });
  const offline = () => queue.send({ type: "connectivity.offline" });
  window.addEventListener("online", online);
  window.addEventListener("offline", offline);
  const unsubscribe = subscribeConcurrency(() => queue.send({ type: "concurrency.set", value: readConcurrency() }));
  onStart(queue);
  await stopped;
  unsubscribe();
  window.removeEventListener("online", online);
  window.removeEventListener("offline", offline);
  runner.stop();
  onStart(null);
}

function startPageRunner(userId: string): PageRunner {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const abort = new AbortController();
  const limits = startLimits(userId);
  let queue: QueueActor | null = null;

  const base: Omit<GenerationRuntime, "queue"> = {
    userId,
    enqueued() {
      if (!navigator.onLine) requestBackgroundSync();
    },
    setConcurrency(value) {
      const next = writeConcurrency(value);
      queue?.send({ type: "concurrency.set", value: next });
    },
  };
  const publish = () => {
    const runtime: GenerationRuntime = { ...base, queue };
    if (current?.userId === userId) current.runtime = runtime;
    publishGenerationRuntime(runtime);
  };
  const onOutcome = (outcome: RunOutcome) => {
    announceOutcome(outcome, retry);
    if (outcome.status === "done" || outcome.status === "error") limits.generationFinished();
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

/** A fresh session lifts the tasks that waited for one. */
export function sessionRenewed(userId: string): void {
  if (current?.userId === userId) current.runtime.queue?.send({ type: "auth.changed", signedIn: true });
}
