// Every pipeline that waits, declared once as a lane of the runner (src/sync/runner.ts, decision 145):
// its Web Lock per user, its Background Sync tag, the triggers that wake it on a page, and how the
// service worker drains it. The page starts of the queue, the outbox and the realtime catch-up are added
// in src/app/queue-runtime.ts and src/app/library-runtime.ts (they tell the person through the page).
import { fetchBillingSummary, subscribeSubscriptionChanges } from "../api/billing";
import { fetchMyLimits } from "../api/user-rows";
import { db } from "../db/db";
import { isOnline } from "../lib/online";
import { followPlan } from "./plan";
import { OUTBOX_LOCK_PREFIX, OUTBOX_SYNC_TAG, drainOutboxInWorker, pushDeps } from "./push";
import { fillDeps, keepLibraryOffline } from "./pull-images";
import { readConcurrency } from "./queue/concurrency-store";
import { finishedUnit, notificationsWanted, oncePerUnit } from "./queue/finished-work";
import { QUEUE_LOCK_PREFIX, QUEUE_SYNC_TAG, drainUserQueue } from "./queue/queue-runner";
import { warn, type Lane, type WorkerDrain } from "./runner";
import { TELEMETRY_LOCK_PREFIX, telemetry } from "./telemetry";

/** The worker's queue drain (decision 118), once the runner has the queue's lock. */
function drainQueue(ctx: WorkerDrain): Promise<void> {
  const firstTime = oncePerUnit();
  return drainUserQueue({
    handOver: ctx.handOver,
    db,
    userId: ctx.userId,
    concurrency: readConcurrency,
    // With no page open, a finished batch or task is told by a system notification (if wanted).
    onOutcome: (outcome, following) => {
      if (outcome.status !== "done" && outcome.status !== "error") return;
      void (async () => {
        const unit = await finishedUnit(db, outcome.task, following);
        if (!unit || !firstTime(unit) || !(await notificationsWanted(db, ctx.userId))) return;
        await ctx.notify({ title: unit.title, body: unit.body, tag: unit.key });
      })().catch(warn("notifying failed"));
    },
  });
}

/** The generation queue (decisions 117, 144). */
export const QUEUE_LANE: Lane = {
  name: "queue",
  lock: { prefix: QUEUE_LOCK_PREFIX, hold: "page" },
  syncTag: QUEUE_SYNC_TAG,
  // `quota`: the known quota rose above 0 (a plan bought on any device): tasks held at 0 left go (issue 45).
  wakeOn: [{ on: "online" }, { on: "offline" }, { on: "visible" }, { on: "session" }, { on: "quota" }],
  drain: drainQueue,
};

/** The library outbox (src/sync/push.ts): each drain takes the lock. */
export const OUTBOX_LANE: Lane = {
  name: "outbox",
  lock: { prefix: OUTBOX_LOCK_PREFIX, hold: "run" },
  syncTag: OUTBOX_SYNC_TAG,
  wakeOn: [{ on: "online" }, { on: "visible" }, { on: "session" }],
  drain: (ctx) => drainOutboxInWorker(pushDeps(db), ctx),
};

/** Telemetry (decision 105): each batch takes the lock; the worker sends what closed pages left. */
export const TELEMETRY_LANE: Lane = {
  name: "telemetry",
  lock: { prefix: TELEMETRY_LOCK_PREFIX, hold: "run" },
  wakeOn: [{ on: "online" }, { on: "session" }],
  start: () => ({
    wake: ({ on }) => (on === "online" ? telemetry().online() : void telemetry().flush()),
    stop: () => undefined,
  }),
  drain: () => telemetry().flush(),
};

/**
 * The offline library's image fills (src/sync/pull-images.ts): no lock, each page fills on its own idle
 * time (a hidden tab holding a lock would fill at its throttled timers' pace); what one keeps, the others skip.
 */
export const IMAGES_LANE: Lane = {
  name: "images",
  wakeOn: [{ on: "online" }],
  start: ({ userId }) => keepLibraryOffline(fillDeps(db), userId, warn("keeping the library offline failed")),
};

/** The realtime catch-up (src/sync/realtime.ts): each page keeps its own channel. */
export const CATCH_UP_LANE: Lane = {
  name: "catch-up",
  wakeOn: [{ on: "online" }, { on: "offline" }, { on: "visible" }],
};

/**
 * The person's plan (src/sync/plan.ts): each page hears changes of their subscription and re-reads the limits
 * and the billing summary at once; the channel follows the connection.
 */
export const PLAN_LANE: Lane = {
  name: "plan",
  wakeOn: [{ on: "online" }, { on: "offline" }],
  start: ({ userId }) =>
    followPlan(
      {
        db,
        subscribe: subscribeSubscriptionChanges,
        readLimits: fetchMyLimits,
        readSummary: fetchBillingSummary,
        isOnline,
        onError: (what, e) => warn(what)(e),
      },
      userId,
    ),
};

export const LANES: readonly Lane[] = [QUEUE_LANE, OUTBOX_LANE, TELEMETRY_LANE, IMAGES_LANE, CATCH_UP_LANE, PLAN_LANE];
