// The one delivery mechanism for work stored on this device and sent later
// (docs/decisions/096-one-delivery-mechanism.md, 144): a lane, an XState machine, asks its source for the
// pending items, delivers them ordered (one at a time; a failure holds the lane, keeping the order) or
// concurrently (up to `limit`), backs off exponentially with jitter (never sooner than the server's
// retry_after), and waits for a connection, a session or a quota reset until the matching release. It is
// woken by triggers (src/sync/triggers.ts); wakes during a look merge into one more, so two triggers at
// once never deliver an item twice. Time comes from an injected clock (the actor's).
import { assign, createActor, fromPromise, raise, setup, waitFor, type SnapshotFrom } from "xstate";

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
  /**
   * Transient: try again after a backoff; `retryAfterMs` is the server's retry_after, a floor. `recorded`:
   * the source has kept the item's own wait (its `dueAt` says when), so the lane keeps no backoff of its own.
   */
  | { outcome: "retry"; retryAfterMs?: number; recorded?: boolean }
  /** Permanent: trying again cannot help; the lane moves on. */
  | { outcome: "failed" }
  | { outcome: "wait"; for: "online" | "session" }
  | { outcome: "wait"; for: "quota"; until: number }
  /** The source could not start it after all (a hand-over whose claim failed): nothing happened. */
  | { outcome: "withdrawn" };

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
  /** Whether an item not yet due waits for a quota reset: the lane then says holdingForQuota. */
  heldForQuota?(item: T): boolean;
  /** Checked before each delivery; offline, the lane waits for release("online"). */
  isOnline?(): boolean;
  clock?: Clock;
  random?: () => number;
  backoff?: Backoff;
  onError?(error: unknown): void;
};

/** What the lane is doing: its machine's state (laneMachine), the wait it is in, its next look by itself. */
export type LaneStatus = { state: LaneState; waiting: WaitFor | null; until: number | null; inFlight: number };
export type LaneState = SnapshotFrom<typeof laneMachine>["value"];

export type Lane<T = unknown> = {
  readonly key: string;
  /** Something may be deliverable: look now (merged with a look under way). */
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
   * Counts a delivery the source started itself in flight at once, so no look starts `item`, and settles
   * it like one of the lane's own, stopped or not (the queue's hand-overs: src/sync/queue/queue-runner.ts).
   */
  follow(item: T, delivery: Promise<DeliveryOutcome>): void;
};

/** One item the lane knows: on the wire while `started` is set, then held by a backoff, or finished. */
type Send = { item: unknown; started?: number; attempts?: number; due?: number; finished?: boolean };
type Sends = Record<string, Send>;
/** When the lane looks again by itself: the soonest held item (`quota`: held for a quota reset), or its own wait's end. */
type Soonest = { at: number; quota?: boolean };
type Ports = LaneOptions<unknown> & { clock: Clock; random: () => number; backoff: Backoff };
type Context = { options: Ports; sends: Sends; soonest: Soonest | null; again: boolean };
type LaneEvent =
  | { type: "wake" | "retryNow" | "stop" }
  | { type: "release"; reason: WaitFor }
  | { type: "send.follow"; item: unknown; delivery: Promise<DeliveryOutcome> }
  /** A delivery has ended and the source has kept its outcome: `send` is the item's record now. */
  | { type: "send.done"; id: string; send: Send; settled: Settled | null };
type Self = { send(event: LaneEvent): void };

const onWire = (sends: Sends) => Object.values(sends).filter((s) => s.started !== undefined).length;
const capacity = ({ mode, limit }: LaneOptions<unknown>) =>
  mode === "ordered" ? 1 : Math.max(1, typeof limit === "function" ? limit() : (limit ?? 1));

/** A look's result: the records (those on the wire or still listed), what starts now, the soonest held. */
function choose({ options, sends, soonest }: Context, items: readonly unknown[]) {
  const now = options.clock.now();
  const listed = new Set(items.map(options.idOf));
  const kept: Sends = {};
  for (const [id, send] of Object.entries(sends)) if (listed.has(id) || send.started !== undefined) kept[id] = send;
  // Counted after the read: the source may have started a delivery of its own meanwhile (follow()).
  const room = capacity(options) - onWire(kept);
  if (room <= 0) return { sends: kept, soonest, starting: [] };
  const starting: unknown[] = [];
  let next: Soonest | null = null;
  for (const item of items) {
    const id = options.idOf(item);
    const send = kept[id];
    if (send?.finished) continue;
    if (options.mode === "ordered" && onWire(kept)) break; // the head is on the wire
    if (send?.started !== undefined) continue;
    const due = options.dueAt?.(item) ?? send?.due ?? 0;
    if (due > now) {
      if (due < (next?.at ?? Infinity)) next = { at: due, quota: options.heldForQuota?.(item) };
      if (options.mode === "ordered") break; // the head holds the lane
      continue;
    }
    starting.push(item);
    kept[id] = { ...send, item, started: now };
    if (starting.length >= room) break;
  }
  return { sends: kept, soonest: next, starting };
}

/** What the lane makes of an outcome: the source's record of it, and the item's record after it. */
function settle(options: Ports, send: Send, outcome: DeliveryOutcome): { settled: Settled | null; send: Send } {
  const { started: _, due: __, ...after } = send;
  switch (outcome.outcome) {
    case "delivered":
    case "failed":
      return { settled: { outcome: outcome.outcome }, send: { ...after, finished: true } };
    case "retry": {
      const attempts = (options.attemptsOf?.(send.item) ?? send.attempts ?? 0) + 1;
      const at = options.clock.now() + backoffDelayMs(attempts, options.random, outcome.retryAfterMs, options.backoff);
      return {
        settled: { outcome: "retry", at, attempts },
        send: { ...after, attempts, due: outcome.recorded ? undefined : at },
      };
    }
    case "wait":
      return { settled: outcome, send: after };
    case "withdrawn":
      return { settled: null, send: after };
  }
}

/** Follows one delivery to its end: its outcome, then the source's `settled`; the slot is counted till then. */
async function follow(self: Self, options: Ports, id: string, send: Send, delivery: Promise<DeliveryOutcome>) {
  let done: ReturnType<typeof settle> = { settled: null, send: { ...send, started: undefined } };
  try {
    done = settle(options, send, await delivery.catch((e: unknown) => (options.onError?.(e), { outcome: "retry" })));
    if (done.settled) await options.settled?.(send.item, done.settled);
  } catch (e) {
    options.onError?.(e);
  }
  self.send({ type: "send.done", id, ...done });
}

const ignore = { actions: [] };
const timer = { untilSoonest: { target: "checking", actions: "timerFired" } } as const;

/**
 * The lane, a statechart: idle; looking at its source; sending (up to its limit); backingOff until the
 * soonest held item may go; holdingForQuota until an item's quota reset; waitingForQuota, waitingForNetwork
 * and waitingForSession (a delivery met that wait) until their own release; stopped. `checking` and `looked`
 * only route. Its context holds one record per item it knows.
 */
export const laneMachine = setup({
  types: { input: {} as Ports, context: {} as Context, events: {} as LaneEvent },
  actors: { look: fromPromise<readonly unknown[], Ports>(({ input }) => input.next()) },
  delays: {
    untilSoonest: ({ context: { soonest, options } }) =>
      Math.min(MAX_TIMER_MS, Math.max(0, (soonest?.at ?? Infinity) - options.clock.now())),
  },
  guards: {
    full: ({ context }) => onWire(context.sends) >= capacity(context.options),
    offline: ({ context }) => context.options.isOnline?.() === false,
    online: ({ context }) => context.options.isOnline?.() !== false,
    again: ({ context }) => context.again,
    sending: ({ context }) => onWire(context.sends) > 0,
    forQuota: ({ context }) => context.soonest?.quota === true,
    held: ({ context }) => context.soonest !== null,
    /** The delivery that ended met this wait: it holds the lane from now. */
    met: ({ event }, wait: WaitFor) =>
      event.type === "send.done" && event.settled?.outcome === "wait" && event.settled.for === wait,
    releases: ({ event }, reason: WaitFor) => event.type === "release" && event.reason === reason,
  },
  actions: {
    again: assign({ again: true }),
    wakeUp: raise({ type: "wake" }),
    timerFired: assign({ soonest: null }),
    looked: assign(({ context, event, self }) => {
      const { starting, ...chosen } = choose(context, (event as { output?: unknown[] }).output ?? []);
      for (const item of starting) {
        const id = context.options.idOf(item);
        // An async call: a source whose deliver throws at once is settled as a retry, never stops the machine.
        void follow(self, context.options, id, chosen.sends[id]!, (async () => context.options.deliver(item))());
      }
      return chosen;
    }),
    lookFailed: ({ context, event }) => context.options.onError?.((event as { error?: unknown }).error),
    done: assign(({ context: { sends, soonest }, event }) => {
      if (event.type !== "send.done") return {};
      const wait = event.settled?.outcome === "wait" ? event.settled : null;
      const held = wait?.for === "quota" ? { at: wait.until ?? Infinity } : soonest;
      return { sends: { ...sends, [event.id]: event.send }, soonest: held };
    }),
    forgetBackoffs: assign({
      sends: ({ context: { sends } }) =>
        Object.fromEntries(Object.entries(sends).map(([id, { due: _, ...s }]) => [id, s])),
    }),
    follow: assign({
      sends: ({ context: { sends, options }, event, self }) => {
        if (event.type !== "send.follow") return sends;
        const id = options.idOf(event.item);
        const send = { ...sends[id], item: event.item, started: options.clock.now() };
        void follow(self, options, id, send, event.delivery);
        return { ...sends, [id]: send };
      },
    }),
  },
}).createMachine({
  id: "lane",
  context: ({ input }) => ({ options: input, sends: {}, soonest: null, again: false }),
  initial: "idle",
  on: {
    wake: ".checking",
    // A release lifts its own wait (each waiting state's); for the rest it is a wake.
    release: { actions: "wakeUp" },
    // As a wake after it: each state answers a wake its own way (a look, one more look, nothing while waiting).
    retryNow: { actions: ["forgetBackoffs", "wakeUp"] },
    stop: ".stopped",
    "send.follow": { actions: "follow" },
    "send.done": [
      { guard: { type: "met", params: "online" }, target: ".waitingForNetwork", actions: "done" },
      { guard: { type: "met", params: "session" }, target: ".waitingForSession", actions: "done" },
      { guard: { type: "met", params: "quota" }, target: ".waitingForQuota", actions: "done" },
      { actions: ["done", "wakeUp"] },
    ],
  },
  states: {
    /** Nothing on the wire, nothing held that time frees: a wake, a release or a trigger looks again. */
    idle: {},
    /** Decides at once: a free slot and a connection mean a look. */
    checking: {
      always: [{ guard: "full", target: "sending" }, { guard: "offline", target: "waitingForNetwork" }, "looking"],
    },
    looking: {
      entry: assign({ again: false }),
      invoke: {
        src: "look",
        input: ({ context }) => context.options,
        onDone: { target: "looked", actions: "looked" },
        onError: { target: "looked", actions: "lookFailed" },
      },
      // Wakes during a look merge into one more look after it.
      on: { wake: { actions: "again" } },
    },
    looked: {
      always: [
        { guard: "again", target: "checking" },
        { guard: "sending", target: "sending" },
        { guard: "forQuota", target: "holdingForQuota" },
        { guard: "held", target: "backingOff" },
        "idle",
      ],
    },
    /** Deliveries on the wire, up to the limit; a held item whose time comes is looked at then. */
    sending: { after: { untilSoonest: { ...timer.untilSoonest, guard: "held" } } },
    /** Nothing on the wire; the soonest held item may go after its backoff. */
    backingOff: { after: timer },
    /** Nothing on the wire; the soonest held item waits for a quota reset. */
    holdingForQuota: { after: timer },
    /** A delivery met the quota: nothing goes before its reset or release("quota"). */
    waitingForQuota: {
      after: timer,
      on: {
        wake: ignore,
        release: { guard: { type: "releases", params: "quota" }, target: "checking", actions: "timerFired" },
      },
    },
    waitingForNetwork: {
      on: {
        // A connection back without an `online` heard here (it came before the wait began) is seen at a wake.
        wake: [{ guard: "online", target: "checking" }, ignore],
        release: { guard: { type: "releases", params: "online" }, target: "checking" },
      },
    },
    waitingForSession: {
      on: {
        wake: ignore,
        release: { guard: { type: "releases", params: "session" }, target: "checking" },
      },
    },
    /** Starts nothing more; deliveries on the wire finish and are settled. */
    stopped: {
      on: { wake: ignore, stop: ignore, "send.done": { actions: "done" } },
    },
  },
});

type LaneSnapshot = SnapshotFrom<typeof laneMachine>;

const WAITS: Partial<Record<LaneState, WaitFor>> = { waitingForNetwork: "online", waitingForSession: "session" };
function statusOf({ value: state, context: { sends, soonest } }: LaneSnapshot): LaneStatus {
  const waiting = WAITS[state] ?? (state === "waitingForQuota" ? "quota" : null);
  const until = waiting === "online" || waiting === "session" ? null : (soonest?.at ?? null);
  return { state, waiting, until, inFlight: onWire(sends) };
}

export function createLane<T>(options: LaneOptions<T>): Lane<T> {
  const clock = options.clock ?? systemClock;
  const ports = {
    ...options,
    clock,
    random: options.random ?? Math.random,
    backoff: options.backoff ?? DELIVERY_BACKOFF,
  };
  const actor = createActor(laneMachine, { input: ports as Ports, clock });
  actor.start();
  const idle = (s: LaneSnapshot) => !s.matches("looking") && !onWire(s.context.sends);
  return {
    key: options.key,
    wake: () => actor.send({ type: "wake" }),
    release: (reason) => actor.send({ type: "release", reason }),
    retryNow: () => actor.send({ type: "retryNow" }),
    idle: async () => statusOf(await waitFor(actor, idle)),
    status: () => statusOf(actor.getSnapshot()),
    stop: () => actor.send({ type: "stop" }),
    follow: (item, delivery) => actor.send({ type: "send.follow", item, delivery }),
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
