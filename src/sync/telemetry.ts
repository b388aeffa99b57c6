// Telemetry delivery (docs/decisions/096-one-delivery-mechanism.md): analytics items (`app_events`,
// `web_vitals`) recorded anywhere in the app wait in memory and in Dexie (src/db/telemetry-buffer.ts)
// and go to the server on an ordered delivery lane (src/sync/delivery.ts), in batches of
// TELEMETRY_BATCH_SIZE, with the lane's backoff after a failure that may pass, waiting for the
// connection (released by the `online` trigger) and for a session (woken when one is renewed); the
// runner's telemetry lane (src/sync/lanes.ts) hears both.
// Recording never waits on the network and never fails its caller; with no signed-in person it is
// skipped. A batch is sent under the Web Lock "promptcanvas-telemetry:<uid>" and re-read from the
// buffer inside it, so two tabs or a tab and the service worker never send the same item (which the
// server would answer 409: the tables are insert-only). Client-minted ids make a resend after a lost
// answer harmless. A run keeps the session it started under, so a sign-out while a batch is on the wire
// cannot turn the next batches into anonymous requests that row-level security refuses.
import type { WebVitalName } from "#shared/vocabulary/web-vitals.ts";
import { sanitizeForLog } from "../api/errors";
import { sendTelemetry, type SendFailure } from "../api/telemetry";
import { supabase } from "../api/client";
import { db } from "../db/db";
import { bufferTelemetry, bufferedTelemetry, dropTelemetry, type TelemetryItem } from "../db/telemetry-buffer";
import { isOnline } from "../lib/online";
import type { Result } from "../lib/result";
import { createLane, systemClock, type Clock, type DeliveryOutcome } from "./delivery";
import { noForeground } from "./foreground";
import { locked } from "./runner";
import { browserSources, type LockManagerLike } from "./triggers";

export type { TelemetryItem } from "../db/telemetry-buffer";

/** What one page load measured, as the web-vitals library reports it. */
export type VitalMeasurement = { name: WebVitalName; value: number; metricId: string; delta: number };

/** Items per request. */
export const TELEMETRY_BATCH_SIZE = 50;
/**
 * Items recorded close together (a page load's vitals, a batch's outcomes) go in one request: they are in
 * Dexie at once, so a page closed meanwhile leaves them to the next page or the worker's drain.
 */
export const TELEMETRY_FLUSH_DELAY_MS = 10_000;
export const TELEMETRY_LOCK_PREFIX = "promptcanvas-telemetry:";
/** The longest a recorded item waits in memory for the foreground work to end (see TelemetryDeps.quiet). */
export const TELEMETRY_PERSIST_WAIT_MS = 5_000;

export type TelemetryBuffer = {
  add(items: readonly TelemetryItem[]): Promise<void>;
  list(userId: string, limit: number): Promise<TelemetryItem[]>;
  drop(userId: string, ids: readonly string[]): Promise<void>;
};

/** Who the backend client is signed in as, and the token that proves it. */
export type TelemetrySession = { userId: string; accessToken: string };

export type TelemetryDeps = {
  /** Sends with the token of the session the run began under. */
  send: (items: readonly TelemetryItem[], accessToken: string) => Promise<Result<void, SendFailure>>;
  /** Absent where IndexedDB is not available: items then wait in memory only. */
  buffer?: TelemetryBuffer;
  /** The person the backend client is signed in as: only their items can be sent (row-level security). */
  session: () => Promise<TelemetrySession | null>;
  isOnline: () => boolean;
  warn: (message: string) => void;
  /** Tabs and the service worker take the user's telemetry lock around each batch (absent: no lock). */
  locks?: LockManagerLike;
  newId?: () => string;
  now?: () => Date;
  flushDelayMs?: number;
  /**
   * Resolves once nothing the person waits for is under way (src/sync/foreground.ts): a recorded item
   * goes into Dexie then, or after TELEMETRY_PERSIST_WAIT_MS at most, so a batch's items are written
   * together rather than one transaction each while its sends are on. Absent: at once.
   */
  quiet?: () => Promise<void>;
  /** The lane's clock (backoff timers) and the flush delay's; tests pass a simulated one. */
  clock?: Clock;
  random?: () => number;
};

export type Telemetry = {
  recordEvent(userId: string | null, name: string, metadata: Record<string, unknown>): void;
  recordVital(userId: string | null, vital: VitalMeasurement): void;
  /** Stores what is only in memory, then sends what can go now; resolves when the lane is idle. */
  flush(): Promise<void>;
  /** The connection is back: lift the lane's wait for it and its backoff. */
  online(): void;
  /** Items not yet safe in Dexie (a page being unloaded keeps these elsewhere). */
  unsent(): TelemetryItem[];
  /** Takes back items kept elsewhere (they keep their ids, so nothing is stored twice). */
  restore(items: readonly TelemetryItem[]): void;
  /**
   * The person is deleting their account: what waits is sent now, and nothing more of theirs is sent
   * until `accountKept` (the deletion failed) or ever (`accountGone`). A row of a deleted account would
   * be refused (409: its user no longer exists).
   */
  closingAccount(userId: string): Promise<void>;
  accountKept(userId: string): void;
  /** The account is deleted: what this device still holds of its telemetry goes. */
  accountGone(userId: string): Promise<void>;
};

/** Sends a batch; answers the ids settled (stored, or refused for good), or null to try again later. */
async function settleBatch(
  deps: Pick<TelemetryDeps, "send" | "warn">,
  batch: readonly TelemetryItem[],
  accessToken: string,
): Promise<string[] | null> {
  const sent = await deps.send(batch, accessToken);
  if (sent.ok) return batch.map((i) => i.id);
  deps.warn(`[telemetry] ${batch.length} item(s) not sent: ${sent.error.message}`);
  if (sent.error.retryable) return null;
  if (batch.length === 1) return [batch[0].id];
  // One bad item must not cost the others: send them one by one and drop only what is refused.
  const settled: string[] = [];
  for (const item of batch) {
    const one = await settleBatch(deps, [item], accessToken);
    if (!one) break;
    settled.push(...one);
  }
  return settled;
}

/** The items waiting on this device: in memory until Dexie holds them, then in Dexie until they are settled. */
function createWaitingItems(deps: Pick<TelemetryDeps, "buffer" | "warn">) {
  let memory: TelemetryItem[] = [];
  const forget = (ids: readonly string[]) => {
    const gone = new Set(ids);
    memory = memory.filter((i) => !gone.has(i.id));
  };
  return {
    memory: () => memory,
    keep: (item: TelemetryItem) => void memory.push(item),
    /** Moves what is only in memory into Dexie; on a failure it stays in memory. */
    async persist(): Promise<void> {
      if (!deps.buffer || memory.length === 0) return;
      const moving = [...memory]; // a copy: items recorded during the write stay in memory
      try {
        await deps.buffer.add(moving);
        forget(moving.map((i) => i.id));
      } catch (e) {
        deps.warn(`[telemetry] kept in memory only: ${sanitizeForLog(e)}`);
      }
    },
    /** The next items of `userId` waiting, oldest first: Dexie's, then those only in memory. */
    async next(userId: string): Promise<TelemetryItem[]> {
      const stored = deps.buffer ? await deps.buffer.list(userId, TELEMETRY_BATCH_SIZE).catch(() => []) : [];
      const held = new Set(stored.map((i) => i.id));
      const fresh = memory.filter((i) => i.userId === userId && !held.has(i.id));
      return [...stored, ...fresh].slice(0, TELEMETRY_BATCH_SIZE);
    },
    async settled(userId: string, ids: readonly string[]): Promise<void> {
      forget(ids);
      if (deps.buffer) await deps.buffer.drop(userId, ids);
    },
    /** Everything of `userId`'s, in memory and in Dexie. */
    async dropAll(userId: string): Promise<void> {
      forget(memory.filter((i) => i.userId === userId).map((i) => i.id));
      if (!deps.buffer) return;
      for (;;) {
        const held = await deps.buffer.list(userId, TELEMETRY_BATCH_SIZE).catch(() => []);
        if (!held.length) return;
        await deps.buffer.drop(
          userId,
          held.map((i) => i.id),
        );
      }
    },
  };
}

type Batch = { userId: string; accessToken: string; items: TelemetryItem[] };

/** Sends a batch under the person's telemetry lock, re-read inside it from what still waits. */
function deliverBatch(
  deps: TelemetryDeps,
  waiting: ReturnType<typeof createWaitingItems>,
  batch: Batch,
): Promise<DeliveryOutcome> {
  const { userId, accessToken } = batch;
  return locked(deps.locks, TELEMETRY_LOCK_PREFIX + userId, async (): Promise<DeliveryOutcome> => {
    // Inside the lock: what another tab or the worker sent meanwhile has left the buffer.
    const ids = new Set(batch.items.map((i) => i.id));
    const still = (await waiting.next(userId)).filter((i) => ids.has(i.id));
    if (!still.length) return { outcome: "delivered" };
    const settled = await settleBatch(deps, still, accessToken);
    if (settled?.length) await waiting.settled(userId, settled);
    return settled && settled.length === still.length ? { outcome: "delivered" } : { outcome: "retry" };
  });
}

/**
 * The lane's next batch: the oldest items waiting of the person signed in. A run keeps the session it
 * started under until it finds nothing more to send; the next run reads the session afresh.
 */
function nextBatches(
  deps: Pick<TelemetryDeps, "session">,
  waiting: ReturnType<typeof createWaitingItems>,
  closing: ReadonlySet<string>,
  persist: () => Promise<void>,
): () => Promise<Batch[]> {
  let run: TelemetrySession | null | undefined;
  return async () => {
    await persist();
    if (run === undefined) run = await deps.session().catch(() => null);
    const items = run && !closing.has(run.userId) ? await waiting.next(run.userId) : [];
    if (!run || !items.length) {
      run = undefined;
      return [];
    }
    return [{ userId: run.userId, accessToken: run.accessToken, items }];
  };
}

export function createTelemetry(deps: TelemetryDeps): Telemetry {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const now = deps.now ?? (() => new Date());
  const clock = deps.clock ?? systemClock;
  const waiting = createWaitingItems(deps);
  let chain: Promise<void> = Promise.resolve();
  let timer: unknown;
  const serial = (job: () => Promise<void>) => (chain = chain.then(job, job));
  const persist = () => serial(waiting.persist);
  /** Accounts being deleted (or deleted): none of their items is sent. */
  const closing = new Set<string>();

  const lane = createLane<Batch>({
    key: "telemetry",
    mode: "ordered",
    next: nextBatches(deps, waiting, closing, persist),
    idOf: (batch) => batch.items[0].id,
    deliver: (batch) => deliverBatch(deps, waiting, batch),
    isOnline: deps.isOnline,
    clock,
    random: deps.random,
    onError: (e) => deps.warn(`[telemetry] delivery failed: ${sanitizeForLog(e)}`),
  });

  async function flush(): Promise<void> {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    await persist();
    if (deps.isOnline()) lane.release("online");
    else lane.wake();
    await lane.idle();
  }

  /** One write for what is recorded until then, once quiet: see TelemetryDeps.quiet. */
  let persisting: Promise<void> | null = null;
  const persistWhenQuiet = async () => {
    const { quiet } = deps;
    if (quiet) {
      let waited: unknown;
      const capped = new Promise<void>((resolve) => (waited = clock.setTimeout(resolve, TELEMETRY_PERSIST_WAIT_MS)));
      await Promise.race([quiet(), capped]);
      clock.clearTimeout(waited);
    }
    persisting = null;
    await persist();
  };

  function add(item: TelemetryItem): void {
    waiting.keep(item);
    // Into Dexie soon (a worker or a tab may be gone before the send; a page being unloaded hands over
    // what is still in memory, `unsent`); the send waits a moment.
    persisting ??= persistWhenQuiet();
    timer ??= clock.setTimeout(() => {
      timer = undefined;
      void flush();
    }, deps.flushDelayMs ?? TELEMETRY_FLUSH_DELAY_MS);
  }

  return {
    recordEvent(userId, name, metadata) {
      if (!userId || closing.has(userId)) return; // docs/spec.md §5: silently skipped with no signed-in person
      add({ kind: "event", id: newId(), userId, name, metadata, createdAt: now().toISOString() });
    },
    recordVital(userId, vital) {
      if (!userId || closing.has(userId)) return;
      add({ kind: "vital", id: newId(), userId, ...vital, createdAt: now().toISOString() });
    },
    flush,
    online() {
      lane.retryNow();
      lane.release("online");
    },
    unsent: () => waiting.memory().filter((i) => !closing.has(i.userId)),
    async closingAccount(userId) {
      await flush();
      closing.add(userId);
      await lane.idle();
    },
    accountKept(userId) {
      closing.delete(userId);
    },
    async accountGone(userId) {
      closing.add(userId);
      await waiting.dropAll(userId);
    },
    restore(items) {
      const ids = new Set(waiting.memory().map((i) => i.id));
      items.filter((i) => !ids.has(i.id)).forEach(add);
    },
  };
}

export const dexieTelemetryBuffer = (target = db): TelemetryBuffer => ({
  add: (items) => bufferTelemetry(target, items),
  list: (userId, limit) => bufferedTelemetry(target, userId, limit),
  drop: (userId, ids) => dropTelemetry(target, userId, ids),
});

let shared: Telemetry | undefined;

/**
 * The page's (or the service worker's) one recorder. Its lane is woken when the connection returns and
 * when a session is renewed (the runner's telemetry lane, src/sync/lanes.ts).
 */
export function telemetry(): Telemetry {
  shared ??= createTelemetry({
    send: (items, accessToken) => sendTelemetry(items, supabase, accessToken),
    buffer: typeof indexedDB === "undefined" ? undefined : dexieTelemetryBuffer(),
    session: async () => {
      const session = (await supabase().auth.getSession()).data.session;
      return session ? { userId: session.user.id, accessToken: session.access_token } : null;
    },
    isOnline,
    warn: (message) => console.warn(message),
    locks: browserSources().locks,
    quiet: noForeground,
  });
  return shared;
}

/** An `app_events` row for this person; skipped with no person (the queue's outcomes use this). */
export function trackEvent(userId: string | null, name: string, metadata: Record<string, unknown>): Promise<void> {
  telemetry().recordEvent(userId, name, metadata);
  return Promise.resolve();
}
