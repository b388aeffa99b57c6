/// <reference lib="webworker" />
// Background Sync: with no page open, the 'sync' event (tag promptcanvas-queue, registered by a page
// that queued work offline) drains the signed-in user's queue with the same code the page runs: the
// queue machine in drain mode, its runs sending through src/sync/run-task.ts. The session comes from
// the IndexedDB the page's client writes to; the Web Lock is taken only if free, so a page already
// running the queue is left to it. The tag promptcanvas-outbox (a write made offline) runs the page's
// outbox drain (src/sync/push.ts), which waits for the outbox lock instead.
import { createBackendClient, setBackendClient, storedBackendConfig } from "../src/api/client";
import { storedUser } from "../src/api/auth";
import { db } from "../src/db/db";
import { readConcurrency } from "../src/features/generation/concurrency-store";
import { QUEUE_LOCK_PREFIX, QUEUE_SYNC_TAG, startQueueRunner } from "../src/features/generation/queue-runner";
import { waitFor } from "xstate";
import { OUTBOX_SYNC_TAG, drainWithLock, pushDeps } from "../src/sync/push";

declare const self: ServiceWorkerGlobalScope;

type SyncEvent = ExtendableEvent & { tag: string; lastChance?: boolean };

/** Drains the queue once; resolves when nothing more is due (or there is nothing to do). */
export async function drainQueue(): Promise<void> {
  const config = await storedBackendConfig();
  if (!config) return;
  setBackendClient(createBackendClient(config, { onPage: false }));
  const user = await storedUser();
  if (!user) return;
  const drain = async (lock: Lock | null) => {
    if (lock === null && "locks" in navigator) return; // a page (or another sync) runs the queue
    const runner = await startQueueRunner({
      db,
      userId: user.id,
      concurrency: readConcurrency(),
      online: navigator.onLine,
      drain: true,
    });
    try {
      await waitFor(runner.actor, (s) => s.status === "done");
    } finally {
      runner.stop();
    }
  };
  if ("locks" in navigator) await navigator.locks.request(QUEUE_LOCK_PREFIX + user.id, { ifAvailable: true }, drain);
  else await drain(null);
}

/** Drains the signed-in user's outbox once, with the page's drain (and its Web Lock). */
export async function drainOutboxInWorker(): Promise<void> {
  const config = await storedBackendConfig();
  if (!config) return;
  setBackendClient(createBackendClient(config, { onPage: false }));
  const user = await storedUser();
  if (user) await drainWithLock(pushDeps(db), user.id);
}

export function listenForQueueSync(): void {
  self.addEventListener("sync", (event) => {
    const sync = event as SyncEvent;
    if (sync.tag === OUTBOX_SYNC_TAG) {
      sync.waitUntil(
        drainOutboxInWorker().catch((e: unknown) => {
          console.warn("[sw] outbox sync failed:", e instanceof Error ? e.message : String(e));
          throw e;
        }),
      );
      return;
    }
    if (sync.tag !== QUEUE_SYNC_TAG) return;
    sync.waitUntil(
      drainQueue().catch((e: unknown) => {
        console.warn("[sw] queue sync failed:", e instanceof Error ? e.message : String(e));
        // A rejected sync is retried by the browser later.
        throw e;
      }),
    );
  });
}
