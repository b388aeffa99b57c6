// The one delivery mechanism for work stored on this device and sent later
// (docs/decisions/096-one-delivery-mechanism.md): a lane asks its source for the pending items, delivers
// them ordered (one at a time; a failure holds the lane, keeping the order) or concurrently (up to
// `limit`), backs off exponentially with jitter (never sooner than the server's retry_after), and waits
// for a connection, a session or a quota reset until the matching release. It is woken by triggers
// (src/sync/triggers.ts); runs are coalesced, so two triggers at once never deliver an item twice. Time
// comes from an injected clock.

export type Clock = {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * What a lane can wait for: each is lifted only by its own release (a quota wait also by its time, a
 * connection wait also by a wake that finds the device online).
 */
export type WaitFor = "online" | "session" | "quota";

export type DeliveryOutcome =
  | { outcome: "delivered" }
  /** Transient: try again after a backoff; `retryAfterMs` is the server's retry_after, a floor. */
  | { outcome: "retry"; retryAfterMs?: number }
  /** Permanent: trying again cannot help; the lane moves on. */
  | { outcome: "failed" }
  | { outcome: "wait"; for: "online" | "session" }
  | { outcome: "wait"; for: "quota"; until: number };

/** What the lane made of an outcome, for the source to keep (a retry's time, a wait). */
export type Settled =
  | { outcome: "delivered" }
  | { outcome: "failed" }
  | { outcome: "retry"; at: number; attempts: number }
  | { outcome: "wait"; for: WaitFor; until?: number };

/**
 * How long in all a drain of the service worker's (the queue's, the outbox's) waits for retries that
 * time ends (a backoff after a 429 or a 500, a send the lane holds). Chromium ends a sync event after
 * three minutes (its Background Sync parameters' max_sync_event_duration) and retries a rejected one
 * later; the queue's drain may first wait a minute for its lock (sw/sync.ts), and what is left leaves
 * room for the last send to finish inside the event.
 */
export const WORKER_DRAIN_WAIT_MS = 90_000;

/** A drain that ended with work only time or a connection can free: the sync event is rejected for it. */
export class WorkLeftForLater extends Error {
  constructor(what: string) {
    super(`${what} wait for a retry: left for the browser's next sync`);
    this.name = "WorkLeftForLater";
  }
}

export type Backoff = { baseMs: number; maxMs: number; /** ± this fraction of the delay. */ jitter: number };

export const DELIVERY_BACKOFF: Backoff = { baseMs: 2_000, maxMs: 60_000, jitter: 0.25 };

/** setTimeout's longest delay; a time further out is re-checked then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Exponential from the first attempt, capped, jittered, and never sooner than the server asked. */
export function backoffDelayMs(
  attempts: number,
  random: () => number,
  retryAfterMs = 0,
  backoff: Backoff = DELIVERY_BACKOFF,
): number {
  const exponential = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = exponential * (1 - backoff.jitter + random() * 2 * backoff.jitter);
  return Math.round(Math.max(jittered, retryAfterMs));
}

export type LaneOptions<T> = {
  key: string;
  mode: "ordered" | "concurrent";
  /** Concurrent lanes: the most deliveries at once (default 1). */
  limit?: number | (() => number);
  /** The pending items in delivery order (the lane skips those in flight or not yet due). */
  next(): Promise<readonly T[]>;
  idOf(item: T): string;
  deliver(item: T): Promise<DeliveryOutcome>;
  /** Told what became of an item; awaited before the lane moves on (the source keeps it). */
  settled?(item: T, settled: Settled): void | Promise<void>;
  /** Attempts already made (a persisted count); the lane counts its own otherwise. */
  attemptsOf?(item: T): number;
  /** When a persisted item may go next (epoch ms); the lane keeps its own backoffs otherwise. */
  dueAt?(item: T): number | undefined;
  /** Checked before each delivery; offline, the lane waits for release("online"). */
  isOnline?(): boolean;
  clock?: Clock;
  random?: () => number;
  backoff?: Backoff;
  onError?(error: unknown): void;
};

export type LaneStatus = { waiting: WaitFor | null; until: number | null; inFlight: number; stopped: boolean };

export type Lane<T = unknown> = {
  readonly key: string;
  /** Something may be deliverable: look now (coalesced with a run under way). */
  wake(): void;
  /** What the lane waited for has come: lift that wait (and only that one) and look again. */
  release(reason: WaitFor): void;
  /** Forgets this lane's backoffs (back online: a backoff a lost connection caused has no reason to last). */
  retryNow(): void;
  /** Resolves once nothing is in flight and nothing more can go now (a drain's end). */
  idle(): Promise<LaneStatus>;
  status(): LaneStatus;
  /** Starts nothing more; deliveries on the wire finish and are settled. */
  stop(): void;
  /**
   * Hands the slot of `from`, whose delivery is ending, to `item` (or, with `from` null, a free slot):
   * a source that claims its next item in the same step that settles the last one or writes a new one
   * (the queue: one transaction from an answer, or a click, to the send) asks here first, and the lane
   * then counts `item` in flight, so no look of its own starts it. False, with nothing reserved, when
   * the lane would not start `item` now: stopped, waiting, `from` not in flight or already handed on,
   * `item` in flight, finished or not yet due, or the limit would be passed (without `from`). An
   * ordered lane never hands on (its head's outcome decides what goes).
   */
  reserve(from: string | null, item: T): boolean;
  /** Gives a reserved slot back (the source could not claim the item after all). */
  unreserve(from: string | null, item: T): void;
  /** Settles a reserved item's delivery, already under way, like one of the lane's own. */
  adopt(item: T, delivery: Promise<DeliveryOutcome>): void;
};

export function createLane<T>(options: LaneOptions<T>): Lane<T> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const backoff = options.backoff ?? DELIVERY_BACKOFF;
  const inFlight = new Set<string>();
  /** Backoffs the lane keeps itself (no `dueAt`): id → time and attempts. */
  const held = new Map<string, { at: number; attempts: number }>();
  /** Settled in this lane's life, until the source stops listing them: never delivered twice. */
  const finished = new Set<string>();
  /** Deliveries in flight whose slot is already reserved for the next item (reserve()). */
  const handedOn = new Set<string>();
  let waiting: { for: WaitFor; until?: number } | null = null;
  let timer: unknown;
  let timerAt: number | null = null;
  let running = false;
  let again = false;
  let stopped = false;
  let idleWaiters: Array<(status: LaneStatus) => void> = [];

  const capacity = () => {
    if (options.mode === "ordered") return 1;
    const limit = typeof options.limit === "function" ? options.limit() : (options.limit ?? 1);
    return Math.max(1, limit);
  };
  const status = (): LaneStatus => ({
    waiting: waiting?.for ?? null,
    until: waiting?.until ?? timerAt,
    inFlight: inFlight.size,
    stopped,
  });
  const dueAt = (item: T) => options.dueAt?.(item) ?? held.get(options.idOf(item))?.at ?? 0;

  function arm(at: number | null): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    timerAt = at;
    if (at === null || stopped) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, at - clock.now()));
    timer = clock.setTimeout(() => {
      timer = undefined;
      timerAt = null;
      if (waiting?.for === "quota" && waiting.until !== undefined && waiting.until <= clock.now()) waiting = null;
      wake();
    }, delay);
  }

  function settleIdle(): void {
    if (running || inFlight.size) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((resolve) => resolve(status()));
  }

  function wake(): void {
    if (stopped) return settleIdle();
    if (running) {
      again = true;
      return;
    }
    running = true;
    void pump()
      .catch((e: unknown) => options.onError?.(e))
      .finally(() => {
        running = false;
        if (again && !stopped) wake();
        else settleIdle();
      });
  }

  async function pump(): Promise<void> {
    do {
      again = false;
      if (stopped) return;
      // A connection that came back while no 'online' event reached this lane (it was heard before the
      // lane began to wait, or by a page that closed) is seen at the next wake.
      if (waiting?.for === "online" && options.isOnline?.()) waiting = null;
      if (waiting) return arm(waiting.until ?? null);
      const free = capacity() - inFlight.size;
      if (free <= 0) return;
      if (options.isOnline && !options.isOnline()) {
        waiting = { for: "online" };
        return arm(null);
      }
      const items = await options.next();
      if (stopped) return;
      // Counted again: a source may have reserved a slot (reserve()) while the lane read.
      const room = capacity() - inFlight.size;
      if (room <= 0) return;
      const listed = new Set(items.map(options.idOf));
      for (const id of finished) if (!listed.has(id)) finished.delete(id);
      for (const id of held.keys()) if (!listed.has(id)) held.delete(id);
      const now = clock.now();
      const start: T[] = [];
      let soonest: number | null = null;
      for (const item of items) {
        const id = options.idOf(item);
        if (finished.has(id)) continue;
        if (options.mode === "ordered" && inFlight.size) break; // the head is on the wire
        if (inFlight.has(id)) continue;
        const due = dueAt(item);
        if (due > now) {
          soonest = soonest === null ? due : Math.min(soonest, due);
          if (options.mode === "ordered") break; // the head holds the lane
          continue;
        }
        start.push(item);
        if (start.length >= room) break;
      }
      arm(soonest);
      for (const item of start) {
        inFlight.add(options.idOf(item));
        void run(item);
      }
    } while (again);
  }

  async function run(item: T, delivery?: Promise<DeliveryOutcome>): Promise<void> {
    const id = options.idOf(item);
    try {
      let outcome: DeliveryOutcome;
      try {
        outcome = await (delivery ?? options.deliver(item));
      } catch (e) {
        options.onError?.(e);
        outcome = { outcome: "retry" };
      }
      // Settled first: with no `settled` callback an optional call would skip its argument, and the
      // lane's own backoff with it.
      const result = settle(item, outcome);
      await options.settled?.(item, result);
    } catch (e) {
      options.onError?.(e);
    } finally {
      inFlight.delete(id);
      handedOn.delete(id);
      wake();
    }
  }

  function settle(item: T, outcome: DeliveryOutcome): Settled {
    const id = options.idOf(item);
    switch (outcome.outcome) {
      case "delivered":
      case "failed":
        held.delete(id);
        finished.add(id);
        return { outcome: outcome.outcome };
      case "retry": {
        const attempts = (options.attemptsOf?.(item) ?? held.get(id)?.attempts ?? 0) + 1;
        const at = clock.now() + backoffDelayMs(attempts, random, outcome.retryAfterMs, backoff);
        held.set(id, { at, attempts });
        return { outcome: "retry", at, attempts };
      }
      case "wait":
        waiting = outcome.for === "quota" ? { for: "quota", until: outcome.until } : { for: outcome.for };
        return outcome.for === "quota" ? { outcome: "wait", for: "quota", until: outcome.until } : { ...outcome };
    }
  }

  return {
    key: options.key,
    wake,
    release(reason) {
      if (waiting?.for === reason) waiting = null;
      wake();
    },
    retryNow() {
      held.clear();
      wake();
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    status,
    stop() {
      stopped = true;
      arm(null);
      settleIdle();
    },
    reserve(from, item) {
      const id = options.idOf(item);
      if (options.mode === "ordered" || stopped || waiting) return false;
      if (from !== null && (!inFlight.has(from) || handedOn.has(from))) return false;
      if (inFlight.has(id) || finished.has(id) || dueAt(item) > clock.now()) return false;
      if (inFlight.size - handedOn.size - (from === null ? 0 : 1) >= capacity()) return false;
      if (from !== null) handedOn.add(from);
      inFlight.add(id);
      return true;
    },
    unreserve(from, item) {
      if (from !== null) handedOn.delete(from);
      inFlight.delete(options.idOf(item));
      settleIdle();
    },
    adopt(item, delivery) {
      inFlight.add(options.idOf(item));
      void run(item, delivery);
    },
  };
}

export type Coalesced = {
  /** Runs the job now, or once more after the run under way (however often it is asked meanwhile). */
  request(): void;
  /** Starts no further run (one under way finishes). */
  stop(): void;
};

/**
 * Runs that coalesce, for work that looks at everything each time (a drain, a fill pass): a request
 * during a run asks for one run more after it, never a second run at once. The job may take the
 * pending request itself (`takeRequest`), to start over early from a fresh view of its source.
 */
export function coalesced(
  job: (takeRequest: () => boolean) => Promise<void>,
  onError: (error: unknown) => void,
): Coalesced {
  let running = false;
  let again = false;
  let stopped = false;
  const takeRequest = () => {
    const seen = again;
    again = false;
    return seen;
  };
  async function run(): Promise<void> {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await job(takeRequest);
      } while (again && !stopped);
    } catch (e) {
      onError(e);
    } finally {
      running = false;
    }
  }
  return {
    request: () => void run(),
    stop: () => {
      stopped = true;
    },
  };
}
