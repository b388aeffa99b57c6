// The signed-in user's library on this page (docs/architecture.md, "The library"): the outbox drain and the live
// updates. The drain runs on start, on `online`, when the page becomes visible, after every write
// (any tab's: a live query of the pending entries), when a backoff ends and when a session comes
// back; each run takes the user's outbox Web Lock, so tabs and the service worker never send the
// same entry at once. Writes made offline also ask for a Background Sync ("promptcanvas-outbox"),
// which the service worker answers with the same drain. Conflicts are announced once (whichever
// tab claims them) and stay listed for the UI (listConflicts).
import { ERROR_CATALOGUE, type ErrorCode } from "#shared/vocabulary/errors.ts";
import { renewingOnce, sessionRenewals } from "../api/auth";
import { sanitizeForLog } from "../api/errors";
import { subscribeGenerationChanges } from "../api/library";
import { db } from "../db/db";
import { claimUnnotifiedConflicts, releaseWaits, watchPending } from "../db/outbox";
import type { OutboxEntry } from "../db/schema";
import { isOnline, onlineTrigger } from "../lib/online";
import { showToast } from "../state/toasts";
import { catchUp } from "../sync/pull";
import { OUTBOX_SYNC_TAG, drainWithLock, pushDeps, type DrainReport } from "../sync/push";
import { followGenerations } from "../sync/realtime";
import { coalesced } from "../sync/delivery";
import { browserSources, subscribe, subscribeAll, type Fired, type TriggerSources } from "../sync/triggers";
import { fillDeps, keepLibraryOffline } from "../sync/pull-images";
import { confirmSession } from "./session-watch";

/** A page that was hidden longer than this catches up when it is shown again. */
const VISIBLE_CATCH_UP_AFTER_MS = 30_000;

const warn = (what: string) => (e: unknown) => console.warn(`[library] ${what}: ${sanitizeForLog(e)}`);

let current: { userId: string; stop: () => void } | null = null;

/** Asks the service worker to drain the outbox once the network is back, even with no page open. */
function requestOutboxSync(): void {
  if (!("serviceWorker" in navigator)) return;
  type WithSync = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
  void navigator.serviceWorker.ready
    .then((registration) => (registration as WithSync).sync?.register(OUTBOX_SYNC_TAG))
    .catch(warn("background sync unavailable"));
}

/** Refusals the error catalogue words (a refused publish): their toast is the catalogue's title and action. */
const CATALOGUED: ReadonlySet<ErrorCode> = new Set(["nsfw_content", "publishing_suspended"]);

/**
 * The toast for conflicts found at once: one refused publish is the catalogue's (its title and action,
 * the server's words for why); anything else says a change could not be applied.
 */
export function conflictToast(fresh: Pick<OutboxEntry, "conflict">[]): Parameters<typeof showToast>[0] {
  const code = fresh.length === 1 ? fresh[0].conflict?.code : undefined;
  const entry = code && CATALOGUED.has(code) ? ERROR_CATALOGUE[code] : null;
  return {
    tone: "warning",
    title:
      entry?.title ??
      (fresh.length === 1 ? "A change could not be applied" : `${fresh.length} changes could not be applied`),
    message: fresh.length === 1 ? fresh[0].conflict?.message : "The server's version was kept; see your history.",
    ...(entry ? { action: entry.action } : {}),
  };
}

async function announceConflicts(userId: string): Promise<void> {
  const fresh = await claimUnnotifiedConflicts(db, userId);
  if (fresh.length) showToast(conflictToast(fresh));
}

function startLibrary(userId: string): () => void {
  // A change refused as a gone account's would be is first checked against the server (decision 129).
  const deps = { ...pushDeps(db), sessionHolds: confirmSession };
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  // The offline library: thumbnails of everything, full images within the budget (src/sync/pull-images.ts).
  const offline = keepLibraryOffline(fillDeps(db), userId, warn("keeping the library offline failed"));
  const live = followGenerations(
    {
      db,
      subscribe: subscribeGenerationChanges,
      // A session the server refuses is renewed at once and the catch-up made again (renewingOnce).
      catchUp: (uid) =>
        renewingOnce(
          () => catchUp(db, uid),
          (r) => r.errors.some((e) => e.code === "auth_required"),
        ),
      onError: (w, e) => warn(w)(e),
      connectivity: {
        isOnline,
        onChange: (listener) =>
          subscribeAll([{ on: "online" }, { on: "offline" }], ({ on }) => listener(on === "online")),
      },
    },
    userId,
  );
  // Offline, a catch-up is certain to fail: it waits for the connection, and runs once however often
  // it was asked for meanwhile (the `online` handler asks too).
  const catchUpSoon = onlineTrigger(() => void live.catchUp());

  const schedule = (report: DrainReport) => {
    clearTimeout(retryTimer);
    if (report.stopped.reason === "backoff") {
      retryTimer = setTimeout(drain, Math.max(0, report.stopped.until - Date.now()));
    } else if (report.stopped.reason === "offline") {
      requestOutboxSync();
    }
  };

  // Runs are coalesced (src/sync/delivery.ts): a trigger during a run asks for one more run after it.
  const drainer = coalesced(async () => {
    const report = await drainWithLock(deps, userId);
    if (stopped) return;
    schedule(report);
    // A conflict means this device was wrong about the server: take its truth for the rest too.
    if (report.conflicts) catchUpSoon.request();
    await announceConflicts(userId);
  }, warn("outbox drain failed"));
  const drain = () => drainer.request();

  // Back online: a backoff that a lost connection caused has no reason to last longer.
  const onOnline = () => {
    offline.kick();
    void releaseWaits(db, userId, "backoff").then(drain).catch(warn("releasing waiting writes failed"));
    catchUpSoon.request();
  };
  const onVisible = ({ hiddenForMs = 0 }: Fired) => {
    drain();
    if (hiddenForMs > VISIBLE_CATCH_UP_AFTER_MS) catchUpSoon.request();
  };
  // A renewed session lifts the entries parked for one.
  const onSession = () =>
    void releaseWaits(db, userId, "auth").then(drain).catch(warn("releasing parked writes failed"));
  const sources: TriggerSources = {
    ...browserSources(),
    session: sessionRenewals(userId),
  };
  const untrigger = [
    subscribe({ on: "online" }, onOnline, sources),
    subscribe({ on: "visible" }, onVisible, sources),
    subscribe({ on: "session" }, onSession, sources),
  ];
  const unwatch = watchPending(
    db,
    userId,
    ({ count }) => {
      if (!count) return;
      if (!isOnline()) requestOutboxSync();
      drain();
    },
    warn("reading the outbox failed"),
  );
  drain();

  return () => {
    stopped = true;
    drainer.stop();
    clearTimeout(retryTimer);
    untrigger.forEach((off) => off());
    unwatch();
    catchUpSoon.cancel();
    live.stop();
    offline.stop();
  };
}

/** Starts the library for the user now signed in, stops it on sign-out or a switch of user. */
export function followLibraryUser(userId: string | null): void {
  if (current?.userId === userId) return;
  current?.stop();
  current = null;
  if (userId) current = { userId, stop: startLibrary(userId) };
}
