// The generation queue (docs/architecture.md, "A generation, end to end"; decisions 117, 144): a concurrent
// lane of the one delivery mechanism (src/sync/delivery.ts, an XState machine whose state says what the queue
// is doing), composed the same way on the page and in the service worker. Its source is the user's queued
// tasks in Dexie, oldest first; a task's persisted wait (src/sync/task-wait.ts) says when it may go; each
// delivery is one send through src/sync/run-task.ts, shown to the person as a run (./run-machine.ts). The
// lane's limit is the person's concurrency, read at each look. The next task is claimed as a send ends and
// handed to the lane in its slot (`Queue.reserve`). The Dexie live query, wake() and the triggers the runner
// hears (heard(): online, offline, visible, a session renewed) make it look again. The caller holds the Web
// Lock that makes this the only runner of the user's queue.
import { Dexie } from "dexie";
import { createActor, fromPromise } from "xstate";
import { refreshSession } from "../../api/auth";
import { generateImage } from "../../api/generate";
import type { AppDb } from "../../db/db";
import { queuedTasks } from "../../db/queries";
import type { LimitsRecord, TaskRecord } from "../../db/schema";
import { markDrawn, recoverInterrupted, releaseWaits, type ClaimDue } from "../../db/tasks";
import { liftQuotaWaits } from "../quota-raises";
import { watchQueuedTasks } from "../../db/watch";
import { isOnline } from "../../lib/online";
import {
  WORKER_DRAIN_WAIT_MS,
  WorkLeftForLater,
  createLane,
  systemClock,
  type Clock,
  type DeliveryOutcome,
  type Lane,
  type LaneStatus,
} from "../delivery";
import {
  claimOf,
  runTask,
  sendClaimed,
  type Claimed,
  type RunOutcome,
  type RunTaskDeps,
  type SendOptions,
} from "../run-task";
import { isDue, waitEnd } from "../task-wait";
import { trackForeground } from "../foreground";
import { trackEvent } from "../telemetry";
import type { Fired } from "../triggers";
import { runMachine, type GenerateTaskOutput, type RunActor } from "./run-machine";

export const QUEUE_LOCK_PREFIX = "promptcanvas-queue:";
export const QUEUE_SYNC_TAG = "promptcanvas-queue";

/** What the lane knows of a queued task: ids and timing, never the row. */
export type QueueEntry = Pick<TaskRecord, "id" | "createdAt" | "wait" | "batchId">;

const entryOf = (task: TaskRecord): QueueEntry => ({
  id: task.id,
  createdAt: task.createdAt,
  wait: task.wait,
  batchId: task.batchId,
});

export type QueueRunnerOptions = {
  db: AppDb;
  userId: string;
  /** The most sends at once, read at each look (the person's setting, changeable live). */
  concurrency: () => number;
  /**
   * Hears every outcome (the page shows toasts and re-reads the limits), with the task going on in its
   * slot (handed over as it ended), if any.
   */
  onOutcome?: (outcome: RunOutcome, following?: Pick<TaskRecord, "batchId">) => void;
  /** What a send uses (default: the backend, runTaskDeps); its `now` must be the clock's. */
  deps?: RunTaskDeps;
  /** The lane's and the runs' clock (default: the system's). */
  clock?: Clock;
};

/** The sends on the wire, as the generator shows them (docs/spec.md §4's progress). */
export type QueueRuns = {
  /** The tasks being sent now, in the order they started. */
  running(): readonly string[];
  /** The run of a task being sent, with its progress. */
  runOf(taskId: string): RunActor | undefined;
  /** Calls back when a run starts or ends; returns its unsubscribe. */
  subscribe(listener: () => void): () => void;
};

export type QueueRunner = QueueRuns & {
  /** Something changed (a task queued or retried here, the concurrency): look now. */
  wake(): void;
  /** A trigger was heard: online and a renewed session lift their waits; offline, visible or a sync look again. */
  heard(fired: Fired): void;
  /**
   * Writes new tasks with `write`, which must hand `claimDue` the queued tasks inside its transaction
   * (db/tasks.ts, enqueueTasks): what may go at once (oldest first, within the concurrency) is claimed
   * there and sent as it commits, so a click's send needs no look and no transaction of its own.
   * Answers what `write` answers.
   */
  enqueue<T>(write: (claimDue: ClaimDue) => Promise<T>): Promise<T>;
  /** Resolves once nothing is on the wire and nothing more can go now. */
  idle(): Promise<void>;
  /** What the queue's lane is doing: its state (sending, backingOff, waitingForNetwork...) and waits. */
  status(): LaneStatus;
  /** Resolves once every finished task's image is kept (or could not be): the worker waits for it. */
  imagesKept(): Promise<void>;
  stop(): void;
};

async function fetchImage(url: string): Promise<Blob> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`image fetch answered ${response.status}`);
  return response.blob();
}

export function runTaskDeps(db: AppDb): RunTaskDeps {
  return {
    db,
    generate: (request, listeners) => generateImage(request, undefined, listeners),
    fetchImage,
    track: trackEvent,
    refreshSession,
    isOnline,
    now: () => Date.now(),
    random: Math.random,
  };
}

const warn = (what: string) => (e: unknown) =>
  console.warn(`[queue] ${what}:`, e instanceof Error ? e.message : String(e));

/** One send this runner follows: what the person sees of it, and what goes on in its slot. */
type Sending = {
  run?: RunActor;
  /** Its run already ended for the person (answered) while the task is still being stored. */
  ended?: boolean;
  /** The task claimed into this send's slot as it ends (a hand-over): the lane counts it already. */
  successor?: Successor;
  /** The claim made once the image was drawn (its transaction). */
  early?: Promise<unknown>;
};
/**
 * A task reserved in a slot: its send (`sending`, once the claim has committed, when it was claimed at
 * drawn) is handed to the lane when the slot's send ends, or the slot is withdrawn.
 */
type Successor = { entry: QueueEntry; settle(delivery: Promise<DeliveryOutcome>): void; sending?: Promise<RunOutcome> };
type Taken = { entry: QueueEntry; claim: Claimed; successor: Successor };

/** The user's queue on its lane (decision 144): the sends it follows, their hand-overs, the runs shown. */
class Queue {
  readonly keeping = new Set<Promise<unknown>>();
  readonly sendings = new Map<string, Sending>();
  readonly listeners = new Set<() => void>();
  running: readonly string[] = [];
  /** Sessions renewed so far: a send that ended waiting for one it missed goes again. */
  renewals = 0;
  /**
   * Whether the queue may hold a task the lane's last look did not see: anything that wakes it from
   * outside (the live query of the user's queued tasks, a trigger, wake(), a write) says so.
   */
  moved = true;
  queuedAtLastLook = 0;
  readonly sendOptions: SendOptions = {
    next: (from) => this.successorOf(from),
    drawn: (from) => this.sentEarly(from),
    answered: (from) => this.answered(from),
  };
  readonly lane: Lane<QueueEntry>;

  constructor(
    readonly options: QueueRunnerOptions,
    readonly clock: Clock,
    readonly deps: RunTaskDeps,
  ) {
    this.lane = createLane<QueueEntry>({
      key: QUEUE_LOCK_PREFIX + options.userId,
      mode: "concurrent",
      limit: () => options.concurrency(),
      next: () => this.look(),
      idOf: (entry) => entry.id,
      // The task's own wait (isDue, the one rule); once due, the lane's backoff for a send that recorded none.
      dueAt: (entry) => (isDue(entry.wait, clock.now(), true) ? undefined : (waitEnd(entry.wait) ?? Infinity)),
      heldForQuota: (entry) => entry.wait?.reason === "quota",
      deliver: (entry) => this.follow(entry, runTask(deps, entry.id, this.sendOptions)),
      isOnline: deps.isOnline,
      clock,
      random: deps.random,
      onError: warn("the queue stumbled"),
    });
  }

  sendingOf(id: string): Sending {
    return this.sendings.get(id) ?? this.sendings.set(id, {}).get(id)!;
  }
  announce(): void {
    this.running = [...this.sendings].filter(([, s]) => s.run).map(([id]) => id);
    this.listeners.forEach((l) => l());
  }
  track(taskId: string, sending: Promise<RunOutcome>): void {
    // A send is what the person waits for: the background fill holds off until it is over.
    void trackForeground(sending).catch(() => undefined);
    const machine = runMachine.provide({
      actors: { generateTask: fromPromise<GenerateTaskOutput, { taskId: string }>(() => sending) },
    });
    const run = createActor(machine, { input: { taskId }, clock: this.clock });
    run.start();
    run.send({ type: "run.start" });
    this.sendingOf(taskId).run = run;
    this.announce();
  }
  untrack(taskId: string): void {
    const record = this.sendings.get(taskId);
    if (!record?.run) return;
    record.run.stop();
    record.run = undefined;
    this.announce();
  }

  /** Oldest first (queuedTasks' order), without the waits that time cannot end (the lane's source). */
  async look(): Promise<QueueEntry[]> {
    this.moved = false;
    const tasks = await queuedTasks(this.options.userId, this.options.db);
    this.queuedAtLastLook = tasks.length;
    const now = this.clock.now();
    // A session, a quota reset with no known time: its own release lifts it in Dexie, and the live query
    // wakes the lane.
    return tasks.filter((t) => isDue(t.wait, now, true) || waitEnd(t.wait) !== undefined).map(entryOf);
  }
  /** Something changed (a task queued or retried here, a trigger, the concurrency): look now. */
  wake(): void {
    this.moved = true;
    this.lane.wake();
  }
  /** Nothing was queued at the lane's last look and nothing has moved since. */
  quiet(): boolean {
    return !this.moved && this.queuedAtLastLook === 0;
  }

  /** What the lane makes of a send: a recorded wait (backoff, quota, offline) holds the task through dueAt. */
  async outcomeOf(outcome: RunOutcome | null, renewalsBefore: number): Promise<DeliveryOutcome> {
    if (outcome?.status === "done") return { outcome: "delivered" };
    if (outcome?.status === "error") return { outcome: "failed" };
    // Ended without recording why (a broken read, a skipped send): the lane's own backoff holds it.
    const wait = outcome?.wait;
    if (!wait) return { outcome: "retry" };
    // The connection may be back already (its trigger fired while the send was out).
    if (wait.reason === "offline" && !this.deps.isOnline()) return { outcome: "wait", for: "online" };
    if (wait.reason === "auth") {
      if (this.renewals === renewalsBefore) return { outcome: "wait", for: "session" };
      // A session was renewed while this send was out: its wait is lifted now.
      await releaseWaits(this.options.db, this.options.userId, "auth", this.clock.now());
    }
    return { outcome: "retry", recorded: true };
  }

  /**
   * Reserves `from`'s slot, whose send is ending (or, with `from` null, a free one), for `entry`: the
   * lane counts it at once, so no look of its own starts it. Refused when the lane would not start it
   * now: stopped or waiting, `from` not followed here or already handed on, `entry` on the wire, or the
   * concurrency passed (a send whose slot is handed on no longer counts, nor does `from`).
   */
  reserve(from: string | null, entry: QueueEntry): Successor | undefined {
    const { state, waiting, inFlight } = this.lane.status();
    const handing = from === null ? undefined : this.sendings.get(from);
    if (state === "stopped" || waiting || this.sendings.has(entry.id)) return;
    if (from !== null && (!handing || handing.successor)) return;
    const leaving = [...this.sendings.values()].filter((s) => s.successor).length + (handing ? 1 : 0);
    if (inFlight - leaving >= this.options.concurrency()) return;
    let settle!: Successor["settle"];
    // Outside the claim's transaction: the lane's next look must not run in it.
    Dexie.ignoreTransaction(() => this.lane.follow(entry, new Promise((resolve) => (settle = resolve))));
    this.sendings.set(entry.id, {});
    const successor = { entry, settle };
    if (handing) handing.successor = successor;
    return successor;
  }
  /** Gives a reserved slot back: the task could not be claimed after all. */
  withdraw(from: string | null, successor: Successor): void {
    this.sendings.delete(successor.entry.id);
    if (from !== null) this.sendingOf(from).successor = undefined;
    successor.settle(Promise.resolve({ outcome: "withdrawn" }));
  }

  /**
   * Inside a transaction that holds the tasks and the limits: claims the due queued tasks, oldest
   * first, into slots reserved in the lane (`from`'s, or free ones), at most `most`, and writes them as
   * running, unless the known quota fails `may`. Their sends start once the transaction has committed.
   */
  async take(from: string | null, most: number, may?: (limits: LimitsRecord | undefined) => boolean): Promise<Taken[]> {
    const { db, userId } = this.options;
    const [queued, limits] = await Promise.all([queuedTasks(userId, db), db.limits.get(userId)]);
    if (may && !may(limits)) return [];
    const taken = this.choose(from, most, queued, limits);
    if (!taken.length) return taken;
    try {
      await db.tasks.bulkPut(taken.map((t) => t.claim.task));
      return taken;
    } catch (e) {
      // Not claimed after all: the slots go back, and the transaction that asked goes on without them.
      warn("claiming the next task failed")(e);
      for (const { successor } of taken) this.withdraw(from, successor);
      return [];
    }
  }

  /**
   * Chooses from the queued tasks (oldest first, as a transaction holding the tasks and the limits read
   * them): the due ones, in slots reserved for them, at most `most`. It stops at the first that may not go
   * now (offline, today's quota: the lane's own look settles it). Decides only; the caller writes.
   */
  choose(from: string | null, most: number, queued: TaskRecord[], limits: LimitsRecord | undefined): Taken[] {
    const taken: Taken[] = [];
    const now = this.clock.now();
    for (const task of queued) {
      if (taken.length >= most) break;
      const entry = entryOf(task);
      const successor = isDue(task.wait, now, true) ? this.reserve(from, entry) : undefined;
      if (!successor) continue;
      const claim = claimOf(this.deps, task, limits);
      if (claim.kind !== "claimed") {
        this.withdraw(from, successor);
        break;
      }
      taken.push({ entry, claim, successor });
    }
    return taken;
  }

  /** In the transaction that stores the answer of task `from`: the task to send next in its slot. */
  async successorOf(from: string): Promise<Claimed | undefined> {
    // Already handed on when the server said the image was drawn. One that found nothing to send (nothing
    // due, or today's quota) leaves the choice to this transaction. Nothing was queued at the last look
    // and nothing has moved since: no read holds the answer's transaction open (the preview waits for its
    // commit); a task queued meanwhile wakes the lane.
    if (this.sendings.get(from)?.successor || this.quiet()) return undefined;
    const [next] = await this.take(from, 1);
    return next?.claim;
  }

  /**
   * The server has drawn `from`'s image and is storing it (decision 123): its slot goes to the next task
   * now, claimed in a transaction of its own, so the next render starts while this answer travels and is
   * stored here. The lane counts the successor in `from`'s slot, and `follow` hands its send to the lane
   * when `from` settles, as it does a successor claimed with the answer.
   */
  sentEarly(from: string): void {
    const record = this.sendingOf(from);
    if (record.early || this.quiet()) return;
    const { db } = this.options;
    record.early = db
      .transaction("rw", [db.tasks, db.limits], async () => {
        // Each send on the wire will use one of today's known remaining images: with none to spare, the
        // next task waits for the answer, whose quota says what is left (it is not sent to be refused).
        const taken = await this.take(from, 1, (limits) => !limits || limits.remaining > this.running.length);
        if (taken.length) await markDrawn(db, from, this.clock.now());
        return taken;
      })
      .then(([next]) => {
        // Kept, not awaited: the claim's promise settles once committed, not when the send ends.
        if (next) next.successor.sending = sendClaimed(this.deps, next.claim, this.sendOptions);
      })
      .catch(warn("sending the next task early failed"));
  }
  /**
   * A run ends for the person when its image is in: the preview shows it and Generate is free again,
   * while the task is still being stored (the lane counts it until then). A successor already sent
   * takes over as the run shown, in the same step, so a batch shows one run throughout.
   */
  answered(from: string): void {
    const record = this.sendingOf(from);
    record.ended = true;
    this.untrack(from);
    const next = record.successor;
    if (next?.sending && !this.sendings.get(next.entry.id)?.run) this.track(next.entry.id, next.sending);
  }

  /** Follows a send to its end: shown as a run meanwhile, then heard and turned into the lane's outcome. */
  async follow(entry: QueueEntry, sending: Promise<RunOutcome>): Promise<DeliveryOutcome> {
    const renewalsBefore = this.renewals;
    if (!this.sendings.get(entry.id)?.run && !this.sendings.get(entry.id)?.ended) this.track(entry.id, sending);
    const outcome = await sending.catch((e: unknown) => {
      warn("sending a task failed")(e);
      return null;
    });
    this.untrack(entry.id);
    const record = this.sendings.get(entry.id);
    await record?.early;
    this.sendings.delete(entry.id);
    // A successor goes on in this send's slot; one reserved whose claim then failed gives it back.
    const successor = record?.successor;
    const next = successor?.sending ?? (outcome?.status === "done" ? outcome.next?.sending : undefined);
    if (successor && next) successor.settle(this.follow(successor.entry, next));
    else if (successor) this.withdraw(null, successor);
    if (outcome?.status === "done") {
      const image = outcome.image;
      this.keeping.add(image);
      void image.finally(() => this.keeping.delete(image));
    }
    const following = successor?.entry ?? (outcome?.status === "done" ? outcome.next?.task : undefined);
    if (outcome) this.options.onOutcome?.(outcome, following);
    return this.outcomeOf(outcome, renewalsBefore);
  }

  async enqueue<T>(write: (claimDue: ClaimDue) => Promise<T>): Promise<T> {
    let taken: Taken[] = [];
    let written: T;
    try {
      written = await write((queued, limits) => {
        taken = this.choose(null, Infinity, queued, limits);
        return taken.map((t) => t.claim.task);
      });
    } catch (e) {
      for (const { successor } of taken) this.withdraw(null, successor);
      throw e;
    }
    // Committed: what was claimed goes now.
    for (const { entry, claim, successor } of taken)
      successor.settle(this.follow(entry, sendClaimed(this.deps, claim, this.sendOptions)));
    this.wake();
    return written;
  }

  /** A trigger was heard: online, a renewed session and a quota rise lift their waits; anything else looks again. */
  heard({ on }: Fired): void {
    this.moved = true;
    if (on === "online") this.lane.release("online");
    else if (on === "session") void this.sessionRenewed().catch(warn("lifting the waits for a session failed"));
    else if (on === "quota") void this.quotaRaised().catch(warn("lifting the waits for the quota failed"));
    else this.wake();
  }
  /** The known quota rose above 0 (a plan bought, on any device): the tasks held at 0 left are due now. */
  async quotaRaised(): Promise<void> {
    await liftQuotaWaits(this.options.db, this.options.userId, this.clock.now());
    this.moved = true;
    this.lane.release("quota");
  }
  async sessionRenewed(): Promise<void> {
    this.renewals++;
    await releaseWaits(this.options.db, this.options.userId, "auth", this.clock.now());
    this.moved = true;
    this.lane.release("session");
  }
}

/**
 * Recovers interrupted sends, lifts the waits for a session (the runner starts only for a signed-in
 * person), then starts the queue's lane; call it while holding the user's queue lock.
 */
export async function startQueueRunner(options: QueueRunnerOptions): Promise<QueueRunner> {
  const { db, userId } = options;
  const clock = options.clock ?? systemClock;
  // A reload or a closed tab left sends half-way: they are queued again (the server replays a send that
  // reached it). A renewal heard by an earlier page is not heard again after a reload: a session is here.
  await recoverInterrupted(db, userId, clock.now());
  await releaseWaits(db, userId, "auth", clock.now());
  const queue = new Queue(options, clock, options.deps ?? runTaskDeps(db));
  const { lane, sendings, keeping, listeners } = queue;
  const wake = () => queue.wake();
  const unwatch = watchQueuedTasks(db, userId, wake, warn("reading the queue failed"));
  lane.wake();
  return {
    wake,
    heard: (fired) => queue.heard(fired),
    enqueue: (write) => queue.enqueue(write),
    idle: async () => {
      await lane.idle();
    },
    status: () => lane.status(),
    imagesKept: async () => {
      while (keeping.size) await Promise.all([...keeping]);
    },
    running: () => queue.running,
    runOf: (taskId) => sendings.get(taskId)?.run,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      unwatch();
      lane.stop();
      for (const id of sendings.keys()) queue.untrack(id);
      queue.announce();
    },
  };
}

/**
 * When the soonest queued task that time alone frees may go (epoch ms; `now` for one with no wait, held
 * by the lane), and how many there are. Waits for a session or for the day's quota are not counted:
 * a page's sign-in or the next day frees those, not a retry of the sync.
 */
async function retriesLeft(db: AppDb, userId: string, now: number): Promise<{ count: number; soonest: number }> {
  let count = 0;
  let soonest = Infinity;
  for (const task of await queuedTasks(userId, db)) {
    const wait = task.wait;
    if (wait?.reason === "auth" || wait?.reason === "quota") continue;
    count += 1;
    soonest = Math.min(soonest, wait?.reason === "backoff" ? (waitEnd(wait) ?? now) : now);
  }
  return { count, soonest };
}

/**
 * The service worker's drain: sends what is due, waits (within WORKER_DRAIN_WAIT_MS) for retries that
 * time frees, and resolves once nothing is on the wire, nothing more can go, and the finished tasks'
 * images are kept; then the runner stops. With no page open nothing else would send a task whose retry
 * comes later, so a drain that must leave one (offline, or its wait ends past the drain's time) rejects
 * with WorkLeftForLater, and the browser fires the sync again later. `handOver` says a page asks for the
 * queue: the drain then ends at its next look and leaves the waiting tasks to it.
 */
export async function drainUserQueue(
  options: QueueRunnerOptions & { handOver?: () => Promise<boolean> },
): Promise<void> {
  const clock = options.clock ?? systemClock;
  const isOnline = (options.deps ?? runTaskDeps(options.db)).isOnline;
  const handOver = options.handOver ?? (async () => false);
  const deadline = clock.now() + WORKER_DRAIN_WAIT_MS;
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
  const runner = await startQueueRunner(options);
  try {
    for (;;) {
      await runner.idle();
      const left = await retriesLeft(options.db, options.userId, clock.now());
      if (!left.count || (await handOver())) break;
      if (!isOnline() || left.soonest > deadline) {
        await runner.imagesKept();
        throw new WorkLeftForLater(`${left.count} queued task(s)`);
      }
      // Looks each second while it waits (a page asking for the queue is heard within one), and never
      // more often: a task the lane holds without a recorded wait is not looked at in a tight loop.
      const at = Math.max(left.soonest, clock.now() + 1_000);
      while (clock.now() < at && !(await handOver())) await sleep(Math.min(1_000, at - clock.now()));
      runner.wake();
    }
    await runner.imagesKept();
  } finally {
    runner.stop();
  }
}
