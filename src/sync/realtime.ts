// Live updates of the person's generations (another tab or device made, published or deleted one):
// realtime changes are applied to Dexie by id (an upsert, so a row that also arrives by pull or by
// the queue's own success is kept once), and every (re)subscription runs the catch-up, because
// realtime is a hint: what happened while the socket was down is fetched, never assumed.
// Changes and catch-ups run one at a time, in arrival order. Deletes arrive as Supabase Realtime sends
// them, unfiltered: the id of every deleted generation, anyone's; one is applied only to a record of
// this user's (applyServerDelete checks), so the others change nothing. Offline there is no socket:
// the channel is removed when the connection goes (so the client stops retrying a socket it cannot
// open) and made again when it returns, whose SUBSCRIBED runs the catch-up (the runner's catch-up lane
// wakes it, src/sync/lanes.ts). A catch-up that ended with an error (the backend down or restarting while
// the device is online) is made again after a backoff, until one completes: nothing else may come to
// wake it, and the device would stay behind.
import type { ChangeFeedStatus, GenerationChange } from "../api/library";
import type { AppDb } from "../db/db";
import { applyServerStyleDelete, applyServerStyles } from "../db/custom-styles";
import {
  applyServerCollectionDelete,
  applyServerCollections,
  applyServerItemDelete,
  applyServerItems,
} from "../db/collections";
import { applyServerDelete, applyServerRows } from "../db/library";
import { backoffDelayMs, systemClock, type Clock } from "./delivery";
import type { Fired } from "./triggers";

/** A page that was hidden longer than this catches up when it is shown again. */
const VISIBLE_CATCH_UP_AFTER_MS = 30_000;

export type RealtimeDeps = {
  db: AppDb;
  subscribe: (
    userId: string,
    onChange: (change: GenerationChange) => void,
    onStatus: (status: ChangeFeedStatus) => void,
  ) => () => void;
  /** A catch-up; one whose answer lists errors is made again after a backoff while online. */
  catchUp: (userId: string) => Promise<{ errors: readonly unknown[] } | void>;
  onError?: (what: string, error: unknown) => void;
  /** Whether the device is online (absent: always); at the start, and before a catch-up on `visible`. */
  isOnline?: () => boolean;
  /** The backoff's timers (absent: the system's) and its jitter. */
  clock?: Clock;
  random?: () => number;
};

export type LiveGenerations = {
  /** Runs the catch-up (after `online`, or when the page becomes visible again). */
  catchUp: () => Promise<void>;
  /** The runner's triggers: the channel follows the connection; its return, or the page shown after a
   * long while hidden (online), runs a catch-up. */
  wake: (fired: Fired) => void;
  /** Resolves once everything received so far has been applied. */
  settled: () => Promise<void>;
  stop: () => void;
};

export async function applyChange(db: AppDb, userId: string, change: GenerationChange): Promise<void> {
  switch (change.type) {
    case "delete":
      return void (await applyServerDelete(db, userId, change.id));
    case "upsert":
      return void (await applyServerRows(db, userId, [change.row]));
    case "style.delete":
      return void (await applyServerStyleDelete(db, userId, change.id));
    case "style.upsert":
      return void (await applyServerStyles(db, userId, [change.row]));
    case "collection.delete":
      return void (await applyServerCollectionDelete(db, userId, change.id));
    case "collection.upsert":
      return void (await applyServerCollections(db, userId, [change.row]));
    case "item.delete":
      return void (await applyServerItemDelete(db, userId, change.collectionId, change.generationId));
    case "item.upsert":
      return void (await applyServerItems(db, userId, [change.row]));
  }
}

export function followGenerations(deps: RealtimeDeps, userId: string): LiveGenerations {
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  const report = deps.onError ?? (() => undefined);
  const enqueue = (what: string, run: () => Promise<unknown>) => {
    chain = chain.then(async () => {
      if (stopped) return;
      try {
        await run();
      } catch (e) {
        report(what, e);
      }
    });
    return chain;
  };
  const online = () => deps.isOnline?.() ?? true;
  const clock = deps.clock ?? systemClock;
  // Failed catch-ups in a row, and the timer of the next try.
  let failures = 0;
  let retry: unknown = null;
  const cancelRetry = () => {
    if (retry !== null) clock.clearTimeout(retry);
    retry = null;
  };
  const catchUp = (): Promise<void> =>
    enqueue("catch-up", async () => {
      cancelRetry();
      const answer = await deps.catchUp(userId);
      if (!answer?.errors.length) failures = 0;
      else if (!stopped && online()) {
        failures++;
        retry = clock.setTimeout(
          () => {
            retry = null;
            void catchUp();
          },
          backoffDelayMs(failures, deps.random ?? Math.random),
        );
      }
    });
  let unsubscribe: (() => void) | null = null;
  const open = () => {
    if (unsubscribe || stopped) return;
    unsubscribe = deps.subscribe(
      userId,
      (change) => void enqueue("apply change", () => applyChange(deps.db, userId, change)),
      (status) => {
        if (status === "SUBSCRIBED") void catchUp();
        else if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") report("subscribe", new Error(status));
      },
    );
  };
  const close = () => {
    unsubscribe?.();
    unsubscribe = null;
    // Offline, the connection's return catches up.
    cancelRetry();
  };
  if (online()) open();
  return {
    catchUp,
    wake: ({ on, hiddenForMs = 0 }) => {
      if (on === "online") open();
      else if (on === "offline") close();
      if (on === "online" || (hiddenForMs > VISIBLE_CATCH_UP_AFTER_MS && online())) void catchUp();
    },
    settled: () => chain,
    stop: () => {
      stopped = true;
      close();
    },
  };
}
