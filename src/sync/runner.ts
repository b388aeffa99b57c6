// The one runner of the work this device keeps and delivers later (docs/decisions/145-one-runner.md). Each
// pipeline that waits is declared once as a lane (src/sync/lanes.ts): its name, its Web Lock per user, its
// Background Sync tag, the triggers that wake it, how a page starts it and how the service worker drains
// it. This module does what they share: the Web Locks (one runner per user across tabs and the worker),
// the trigger subscriptions, the Background Sync registration when work is kept offline, and the worker's
// one drain loop, bounded by WORKER_DRAIN_WAIT_MS, that every registered sync tag starts.
import { sessionRenewals } from "../api/auth";
import { isOnline } from "../lib/online";
import { WORKER_DRAIN_WAIT_MS, WorkLeftForLater } from "./delivery";
import { quotaRaises } from "./quota-raises";
import { browserSources, subscribeAll } from "./triggers";
import type { Fired, LockManagerLike, Trigger, TriggerSources } from "./triggers";

/** How long the worker waits for a page to let go of a lane it holds, before leaving the work to it. */
export const WORKER_LOCK_WAIT_MS = 60_000;

type LaneContext = {
  userId: string;
  /** Runs `job` under the lane's lock taken per run, waiting for it (other lanes: at once). */
  locked<T>(job: () => Promise<T>): Promise<T>;
};

/** What a page starts a lane with; `kept()`: work was kept, offline asks for a Background Sync. */
export type LaneRun = LaneContext & { kept(): void };

/** A worker's drain ends by `deadline`, or rejects with WorkLeftForLater for work a later sync must take. */
export type WorkerDrain = LaneContext & {
  deadline: number;
  sleep(ms: number): Promise<void>;
  /** A page asks for the lane's lock: the drain ends at its next look and leaves the rest to it. */
  handOver(): Promise<boolean>;
  /** Tells the person of finished work with a system notification (no page may be open). */
  notify(note: { title: string; body: string; tag: string }): Promise<void>;
};

export type Lane = {
  name: "queue" | "outbox" | "telemetry" | "images" | "catch-up" | "plan";
  /**
   * The Web Lock is `prefix + userId`. "page": the page that runs the lane holds it all along (other tabs
   * wait and take over when it closes; the worker waits WORKER_LOCK_WAIT_MS); "run": each run takes it.
   */
  lock?: { prefix: string; hold: "page" | "run" };
  /** The Background Sync tag asked for when the lane's work is kept offline. */
  syncTag?: string;
  /** The triggers the runner hears for the lane on a page (`wake`). */
  wakeOn: readonly Trigger[];
  start?(run: LaneRun): StartedLane | Promise<StartedLane>;
  drain?(ctx: WorkerDrain): Promise<void>;
};

export type StartedLane = { wake?(fired: Fired): void; stop(): void };

export const warn = (what: string) => (e: unknown) =>
  console.warn(`[runner] ${what}:`, e instanceof Error ? e.message : String(e));

/** A lock request given up (the page stopped, the worker's wait ended). */
const aborted = (e: unknown) => ["AbortError", "TimeoutError"].includes((e as { name?: string } | null)?.name ?? "");

/** Runs `job` holding the lock `name` (without a lock manager, at once), waiting for it. */
export function locked<T>(locks: LockManagerLike | undefined, name: string, job: () => Promise<T>): Promise<T> {
  return locks ? (locks.request(name, {}, job) as Promise<T>) : job();
}

function lockFor(lane: Lane, userId: string, locks?: LockManagerLike): LaneContext["locked"] {
  return (job) => (lane.lock?.hold === "run" ? locked(locks, lane.lock.prefix + userId, job) : job());
}

/** Offline, asks the service worker for a Background Sync of `lane` (online, the page sends the work). */
export function keptOffline(lane: Lane): void {
  if (isOnline() || !lane.syncTag || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  type WithSync = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
  void navigator.serviceWorker.ready
    .then((registration) => (registration as WithSync).sync?.register(lane.syncTag!))
    .catch(warn(`background sync unavailable for ${lane.name}`));
}

/**
 * Starts `lanes` for `userId` on this page (one whose lock a page holds, once it is ours), hearing the
 * browser's triggers, this person's session renewals and quota rises; answers their stop.
 */
export function startLanes(
  userId: string,
  lanes: readonly Lane[],
  sources: TriggerSources = { ...browserSources(), session: sessionRenewals(userId), quota: quotaRaises(userId) },
): () => void {
  const abort = new AbortController();
  const stopped = new Promise((resolve) => abort.signal.addEventListener("abort", resolve));
  for (const lane of lanes) {
    const run: LaneRun = { userId, locked: lockFor(lane, userId, sources.locks), kept: () => keptOffline(lane) };
    const go = async () => {
      if (abort.signal.aborted || !lane.start) return;
      const started = await lane.start(run);
      const unsubscribe = subscribeAll(lane.wakeOn, (fired) => started.wake?.(fired), sources);
      await stopped;
      unsubscribe();
      started.stop();
    };
    const held = lane.lock?.hold === "page" && sources.locks;
    (held ? sources.locks!.request(lane.lock!.prefix + userId, { signal: abort.signal }, go) : go()).catch(
      (e: unknown) => aborted(e) || warn(`the ${lane.name} lane stopped`)(e),
    );
  }
  return () => abort.abort();
}

/** One lane's drain in the worker; a lane a page holds once its lock is ours (given up if a page keeps it). */
async function drainOne(lane: Lane, ctx: Omit<WorkerDrain, "locked" | "handOver">, locks?: LockManagerLike) {
  if (!lane.drain) return;
  const name = lane.lock ? lane.lock.prefix + ctx.userId : "";
  const handOver = async () => ((await locks?.query?.())?.pending ?? []).some((l) => l.name === name);
  const drain = () => lane.drain!({ ...ctx, locked: lockFor(lane, ctx.userId, locks), handOver });
  if (lane.lock?.hold !== "page" || !locks) return drain();
  await locks.request(name, { signal: AbortSignal.timeout(WORKER_LOCK_WAIT_MS) }, drain).catch((e: unknown) => {
    if (!aborted(e)) throw e; // else a page runs it
  });
}

/**
 * The service worker's one drain: every lane's drain at once, within WORKER_DRAIN_WAIT_MS. Once all have
 * ended, rejects when one failed (with WorkLeftForLater only when nothing else failed: the browser fires
 * the sync again).
 */
export async function drainLanes(
  lanes: readonly Lane[],
  options: Pick<WorkerDrain, "userId" | "notify">,
  locks = browserSources().locks,
): Promise<void> {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const ctx = { ...options, sleep, deadline: Date.now() + WORKER_DRAIN_WAIT_MS };
  const ended = await Promise.allSettled(lanes.map((lane) => drainOne(lane, ctx, locks)));
  const failures = ended.flatMap((end, i) =>
    end.status === "rejected" ? [{ lane: lanes[i], reason: end.reason }] : [],
  );
  for (const { lane, reason } of failures) {
    if (reason instanceof WorkLeftForLater) console.info(`[runner] ${lane.name} sync: ${reason.message}`);
    else warn(`${lane.name} sync failed`)(reason);
  }
  const failure = failures.find((f) => !(f.reason instanceof WorkLeftForLater)) ?? failures[0];
  if (failure) throw failure.reason;
}

/** Every lane's Background Sync tag starts `drain` (its promise goes to the event's waitUntil). */
export function listenForSync(lanes: readonly Lane[], drain: () => Promise<void>, sources: TriggerSources) {
  const tags = lanes.flatMap((lane) => (lane.syncTag ? [{ on: "sync", tag: lane.syncTag } as const] : []));
  return subscribeAll(tags, drain, sources);
}
