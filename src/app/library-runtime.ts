// The signed-in user's library on this page (docs/architecture.md, "The library"), as lanes of the runner
// (src/sync/runner.ts): the outbox drain runs on start, after every write (any tab's), on `online`, when the
// page is shown, when a backoff ends and when a session comes back, each under the user's outbox Web Lock;
// writes kept offline ask for a Background Sync. Conflicts are announced once (whichever tab claims them)
// and stay listed (listConflicts). The realtime catch-up, the image fills and telemetry are lanes too.
import { ERROR_CATALOGUE, type ErrorCode } from "#shared/vocabulary/errors.ts";
import { renewingOnce } from "../api/auth";
import { sanitizeForLog } from "../api/errors";
import { subscribeGenerationChanges } from "../api/library";
import { db } from "../db/db";
import { claimUnnotifiedConflicts, releaseWaits, watchPending } from "../db/outbox";
import type { OutboxEntry } from "../db/schema";
import { isOnline } from "../lib/online";
import { getSessionView, sessionCall } from "../state/session-store";
import { showToast } from "../state/toasts";
import { coalesced } from "../sync/delivery";
import { CATCH_UP_LANE, IMAGES_LANE, OUTBOX_LANE, PLAN_LANE, TELEMETRY_LANE } from "../sync/lanes";
import { catchUp } from "../sync/pull";
import { drainOutbox, pushDeps } from "../sync/push";
import { followGenerations } from "../sync/realtime";
import { startLanes, type Lane } from "../sync/runner";
import { confirmSession } from "./session-watch";

const warn = (what: string) => (e: unknown) => console.warn(`[library] ${what}: ${sanitizeForLog(e)}`);

let current: { userId: string; stop: () => void } | null = null;

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

const BACKEND_READS = [undefined, undefined, undefined, undefined, undefined] as const;

/** The realtime catch-up (src/sync/realtime.ts); `soon.request` runs one if online (after a conflict). */
function catchUpLane(soon: { request: () => void }): Lane {
  return {
    ...CATCH_UP_LANE,
    start: ({ userId }) => {
      const live = followGenerations(
        {
          db,
          subscribe: subscribeGenerationChanges,
          // A session the server refuses is renewed at once and the catch-up made again (renewingOnce).
          catchUp: (uid) =>
            renewingOnce(
              // The backend's reads (the defaults), each a call of the session: none sent once this page is
              // ending its session or has ended it (the lane stops after the page hears so, and a step may
              // start in between), and a sign-out waits for the one in flight.
              () =>
                catchUp(db, uid, ...BACKEND_READS, (run, skipped) =>
                  getSessionView().user?.id === uid ? sessionCall(run, skipped) : Promise.resolve(skipped),
                ),
              (r) => r.errors.some((e) => e.code === "auth_required"),
            ),
          onError: (w, e) => warn(w)(e),
          isOnline,
        },
        userId,
      );
      soon.request = () => void (isOnline() && live.catchUp());
      return live;
    },
  };
}

/** The outbox: a drain under the lock, again when its backoff ends; a conflict asks for a catch-up. */
function outboxLane(catchUpSoon: { request: () => void }): Lane {
  return {
    ...OUTBOX_LANE,
    start: ({ userId, locked, kept }) => {
      // A change refused as a gone account's would be is first checked against the server (decision 129).
      const deps = { ...pushDeps(db), sessionHolds: confirmSession };
      let stopped = false;
      let retryTimer: ReturnType<typeof setTimeout> | undefined;
      // Sessions renewed as this page heard them. A drain may park an entry for a session (written as it
      // ends) while a renewal is heard and its release finds nothing parked yet: the drain then lifts it.
      let renewals = 0;
      // Runs are coalesced (src/sync/delivery.ts): a trigger during a run asks for one more run after it.
      const drainer = coalesced(async () => {
        const renewalsBefore = renewals;
        const report = await locked(() => drainOutbox(deps, userId));
        if (stopped) return;
        clearTimeout(retryTimer);
        if (report.stopped.reason === "auth" && renewals !== renewalsBefore) release("auth");
        else if (report.stopped.reason === "backoff")
          retryTimer = setTimeout(drain, Math.max(0, report.stopped.until - Date.now()));
        else if (report.stopped.reason === "offline") kept();
        // A conflict means this device was wrong about the server: take its truth for the rest too.
        if (report.conflicts) catchUpSoon.request();
        const fresh = await claimUnnotifiedConflicts(db, userId);
        if (fresh.length) showToast(conflictToast(fresh));
      }, warn("outbox drain failed"));
      const drain = () => drainer.request();
      // Back online, a backoff that a lost connection caused has no reason to last longer; a renewed
      // session lifts the entries parked for one.
      // A release that fails still drains: what is not parked goes.
      const release = (why: "backoff" | "auth") =>
        void releaseWaits(db, userId, why).catch(warn("releasing waiting writes failed")).then(drain);
      const unwatch = watchPending(
        db,
        userId,
        ({ count }) => {
          if (!count) return;
          kept();
          drain();
        },
        warn("reading the outbox failed"),
      );
      // The lane starts for a signed-in person: entries parked for a session (by an earlier page, or by the
      // worker) are tried again, as the queue's are; a renewal heard before this page listened is not heard again.
      release("auth");
      return {
        wake: ({ on }) => {
          if (on === "session") renewals++;
          if (on === "online") release("backoff");
          else if (on === "session") release("auth");
          else drain();
        },
        stop: () => {
          stopped = true;
          drainer.stop();
          clearTimeout(retryTimer);
          unwatch();
        },
      };
    },
  };
}

/** Starts the library for the user now signed in, stops it on sign-out or a switch of user. */
export function followLibraryUser(userId: string | null): void {
  if (current?.userId === userId) return;
  current?.stop();
  current = null;
  if (!userId) return;
  const catchUpSoon = { request: () => undefined as void };
  const lanes = [outboxLane(catchUpSoon), catchUpLane(catchUpSoon), IMAGES_LANE, TELEMETRY_LANE, PLAN_LANE];
  current = { userId, stop: startLanes(userId, lanes) };
}
