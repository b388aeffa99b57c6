/// <reference lib="webworker" />
// Background Sync: with no page open, a 'sync' event (a tag a page registered when it kept work offline:
// queued generations, library writes) drains every lane of the runner (src/sync/runner.ts, declared in
// src/sync/lanes.ts) with the same code the page runs, in one loop within WORKER_DRAIN_WAIT_MS: the
// queue (its Web Lock awaited for a minute, so a page already running it is left to it and a page just
// closed hands over), the outbox and telemetry. The session comes from the IndexedDB the page's client
// writes to. Finished work is told by a system notification when no page of the app is visible.
import { createBackendClient, setBackendClient, storedBackendConfig } from "../src/api/client";
import { storedUser } from "../src/api/auth";
import { FINISHED_MESSAGE, type FinishedMessage } from "../src/sync/queue/finished-work";
import { LANES } from "../src/sync/lanes";
import { drainLanes, listenForSync } from "../src/sync/runner";

declare const self: ServiceWorkerGlobalScope;

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

/** On any registered sync tag: every lane the runner declares, for the user the page's client stored. */
async function drainAll(): Promise<void> {
  const config = await storedBackendConfig();
  if (!config) return;
  setBackendClient(createBackendClient(config, { onPage: false }));
  const user = await storedUser();
  if (!user) return;
  await drainLanes(LANES, { userId: user.id, notify: notifyFinished });
}

export function listenForBackgroundWork(): void {
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

  // Background Sync: every registered tag drains every lane; the promise goes to the event's waitUntil,
  // and a rejected one is retried by the browser later.
  listenForSync(LANES, drainAll, { worker: self });
}
