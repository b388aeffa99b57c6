/// <reference lib="webworker" />
// Background Sync: with no page open, the 'sync' event (tag promptcanvas-queue, registered by a page
// that queued work offline) drains the signed-in user's queue with the same code the page runs: the
// queue's delivery lane until it is idle, its sends through src/sync/run-task.ts. The session comes from
// the IndexedDB the page's client writes to. The Web Lock is awaited for a minute, so a page already
// running the queue is left to it and a page just closed hands over. The tag promptcanvas-outbox (a
// write made offline) runs the page's outbox drain (src/sync/push.ts), which waits for its own lock.
import { createBackendClient, setBackendClient, storedBackendConfig } from "../src/api/client";
import { storedUser } from "../src/api/auth";
import { db } from "../src/db/db";
import { readConcurrency } from "../src/sync/queue/concurrency-store";
import { WorkLeftForLater } from "../src/sync/delivery";
import { QUEUE_LOCK_PREFIX, QUEUE_SYNC_TAG, drainUserQueue } from "../src/sync/queue/queue-runner";
import {
  FINISHED_MESSAGE,
  finishedUnit,
  notificationsWanted,
  oncePerUnit,
  type FinishedMessage,
} from "../src/sync/queue/finished-work";
import { OUTBOX_SYNC_TAG, drainOutboxInWorker, pushDeps } from "../src/sync/push";
import { subscribe } from "../src/sync/triggers";

declare const self: ServiceWorkerGlobalScope;

/** How long a sync waits for a page to let go of the queue before leaving the work to that page. */
const QUEUE_LOCK_WAIT_MS = 60_000;

/** Where a click on a finished-work notification leads. */
const FINISHED_URL = "/history";

/** Shows a finished-work notification unless a page of the app (other than `except`) is visible. */
export async function notifyFinished(note: Omit<FinishedMessage, "type">, except?: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  if (windows.some((c) => c.id !== except && c.visibilityState === "visible")) return;
  type Badging = { setAppBadge?: () => Promise<void> };
  await (self.navigator as Badging).setAppBadge?.().catch(() => undefined);
  if (Notification.permission !== "granted") return;
  await self.registration.showNotification(note.title, {
    body: note.body,
    tag: note.tag,
    icon: "/icons/icon-192.png",
    badge: "/icons/maskable-192.png",
    data: { url: FINISHED_URL },
  });
}

/**
 * Drains the queue: resolves once nothing more is due (or there is nothing to do, or a page has it);
 * rejects with WorkLeftForLater when tasks must wait past the drain (src/sync/queue/queue-runner.ts).
 */
export async function drainQueue(): Promise<void> {
  const config = await storedBackendConfig();
  if (!config) return;
  setBackendClient(createBackendClient(config, { onPage: false }));
  const user = await storedUser();
  if (!user) return;
  const firstTime = oncePerUnit();
  // Nothing is due or on the wire any more, and the last tasks' images are kept: the sync event lasts
  // until then (and through retries due within the drain's time).
  const drain = (handOver?: () => Promise<boolean>) =>
    drainUserQueue({
      handOver,
      db,
      userId: user.id,
      concurrency: readConcurrency,
      // With no page open, a finished batch or task is told by a system notification (if wanted).
      onOutcome: (outcome) => {
        if (outcome.status !== "done" && outcome.status !== "error") return;
        void (async () => {
          const unit = await finishedUnit(db, outcome.taskId);
          if (!unit || !firstTime(unit) || !(await notificationsWanted(db, user.id))) return;
          await notifyFinished({ title: unit.title, body: unit.body, tag: unit.key });
        })().catch((e: unknown) => console.warn("[sw] notifying failed:", e instanceof Error ? e.message : String(e)));
      },
    });
  if (!("locks" in navigator)) return drain();
  // A page that runs the queue holds the lock; one that was just closed releases it a moment after the
  // browser fires this event (on reconnect it fires at once). So wait for the lock, for a while: once
  // it is ours, a page still open has finished or gone, and whatever is still due is sent here.
  const lock = QUEUE_LOCK_PREFIX + user.id;
  // While the drain waits for a retry, a page that opens and asks for the queue is given it.
  const handOver = async () => ((await navigator.locks.query()).pending ?? []).some((l) => l.name === lock);
  try {
    await navigator.locks.request(lock, { signal: AbortSignal.timeout(QUEUE_LOCK_WAIT_MS) }, () => drain(handOver));
  } catch (e) {
    if (e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError")) return; // a page runs it
    throw e;
  }
}

/** Drains the signed-in user's outbox with the page's drain and its Web Lock (src/sync/push.ts). */
async function syncOutbox(): Promise<void> {
  const config = await storedBackendConfig();
  if (!config) return;
  setBackendClient(createBackendClient(config, { onPage: false }));
  const user = await storedUser();
  if (user) await drainOutboxInWorker(pushDeps(db), user.id);
}

export function listenForQueueSync(): void {
  // A page whose work finished while it was hidden asks for the notification here: only the worker
  // knows whether any page of the app is visible.
  self.addEventListener("message", (event) => {
    const data = event.data as Partial<FinishedMessage> | null;
    if (data?.type !== FINISHED_MESSAGE || typeof data.title !== "string" || typeof data.body !== "string") return;
    const source = event.source && "id" in event.source ? event.source.id : undefined;
    const note = { title: data.title.slice(0, 200), body: data.body.slice(0, 300), tag: String(data.tag ?? "") };
    event.waitUntil(notifyFinished(note, source).catch(() => undefined));
  });
  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = (event.notification.data as { url?: string } | null)?.url ?? FINISHED_URL;
    event.waitUntil(
      (async () => {
        const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
        const open = windows[0];
        if (open) {
          await open.focus();
          await open.navigate(url).catch(() => undefined);
        } else await self.clients.openWindow(url);
      })(),
    );
  });

  // Background Sync, as src/sync/triggers.ts hears it: the listener's promise goes to the event's
  // waitUntil, and a rejected one is retried by the browser later.
  const failed = (what: string) => (e: unknown) => {
    // Work left for a later retry is no failure of the worker's, but the browser must fire the sync again.
    if (e instanceof WorkLeftForLater) console.info(`[sw] ${what} sync: ${e.message}`);
    else console.warn(`[sw] ${what} sync failed:`, e instanceof Error ? e.message : String(e));
    throw e;
  };
  const sources = { worker: self };
  subscribe({ on: "sync", tag: OUTBOX_SYNC_TAG }, () => syncOutbox().catch(failed("outbox")), sources);
  subscribe({ on: "sync", tag: QUEUE_SYNC_TAG }, () => drainQueue().catch(failed("queue")), sources);
}
