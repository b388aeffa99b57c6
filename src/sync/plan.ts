// The plan lane (src/sync/lanes.ts): every page of the person hears changes of their `subscriptions` row
// (src/api/billing.ts) and at once re-reads what a tier changes: the limits (every view reads them from
// Dexie: the limit alert, the dashboard, the generator) and the billing summary /billing shows offline. A
// rise of the quota then frees the queue's tasks held at 0 left (the `quota` trigger, quota-raises.ts).
// Realtime is a hint, as for the library (realtime.ts): the channel follows the connection, and every
// re-subscription after the first reads both again, since a change may have passed while it was down.
import type { BillingSummary } from "../api/billing";
import type { AppError } from "../api/errors";
import type { ChangeFeedStatus } from "../api/library";
import { keepBillingSummary } from "../db/billing-summary";
import type { AppDb } from "../db/db";
import type { Result } from "../lib/result";
import type { MyLimits } from "#shared/vocabulary/rows.ts";
import { coalesced } from "./delivery";
import { toLimitsRecord } from "./pull";
import type { StartedLane } from "./runner";
import type { Fired } from "./triggers";

export type PlanDeps = {
  db: AppDb;
  subscribe: (userId: string, onChange: () => void, onStatus: (status: ChangeFeedStatus) => void) => () => void;
  readLimits: () => Promise<Result<MyLimits, AppError>>;
  readSummary: () => Promise<Result<BillingSummary, AppError>>;
  isOnline?: () => boolean;
  onError?: (what: string, error: unknown) => void;
  now?: () => Date;
};

export function followPlan(deps: PlanDeps, userId: string): StartedLane {
  const report = deps.onError ?? (() => undefined);
  const now = deps.now ?? (() => new Date());
  const reads = coalesced(
    async () => {
      const [limits, summary] = await Promise.all([deps.readLimits(), deps.readSummary()]);
      if (limits.ok) await deps.db.limits.put(toLimitsRecord(userId, limits.value, now()));
      else report("reading the limits", limits.error.detail);
      // A summary that cannot be read (no payment provider, Stripe away) leaves the last known one.
      if (summary.ok) await keepBillingSummary(userId, summary.value, deps.db, now);
    },
    (e) => report("refreshing the plan", e),
  );
  let unsubscribe: (() => void) | null = null;
  let subscribedBefore = false;
  const open = () => {
    if (unsubscribe) return;
    unsubscribe = deps.subscribe(
      userId,
      () => reads.request(),
      (status) => {
        if (status === "SUBSCRIBED") {
          // The first subscription finds the figures the limits machine has just read; a later one catches up.
          if (subscribedBefore) reads.request();
          subscribedBefore = true;
        } else if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") report("subscribe", new Error(status));
      },
    );
  };
  const close = () => {
    unsubscribe?.();
    unsubscribe = null;
  };
  if (deps.isOnline?.() ?? true) open();
  return {
    wake: ({ on }: Fired) => {
      if (on === "online") open();
      else if (on === "offline") close();
    },
    stop: () => {
      reads.stop();
      close();
    },
  };
}
