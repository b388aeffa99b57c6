// The plan lane (src/sync/plan.ts) and the queue's quota trigger (src/sync/quota-raises.ts): a change of the
// person's subscription heard on any device re-reads the limits and the billing summary into Dexie at once,
// the channel follows the connection, and a rise of the quota above 0 is announced once per rise.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BillingSummary } from "#src/api/billing.ts";
import { appErrorOf } from "#src/api/errors.ts";
import type { ChangeFeedStatus } from "#src/api/library.ts";
import { getBillingSummary } from "#src/db/billing-summary.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { err, ok } from "#src/lib/result.ts";
import type { MyLimits } from "#shared/vocabulary/rows.ts";
import { followPlan } from "#src/sync/plan.ts";
import { quotaRaises } from "#src/sync/quota-raises.ts";
import { limitsRecord } from "../../support/records.ts";

let db: AppDb | undefined;
let dbs = 0;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

const limitsOf = (tier: MyLimits["tier"], remaining: number): MyLimits =>
  ({
    generations_today: 5 - Math.min(5, remaining),
    daily_limit: tier === "free" ? 5 : 999,
    remaining,
    reset_at: "2026-11-27T00:00:00.000Z",
    tier,
  }) as MyLimits;

const summaryOf = (tier: BillingSummary["tier"]): BillingSummary => ({
  configured: true,
  testMode: true,
  tier,
  subscription: null,
  invoices: [],
});

/** A channel the test drives: `change()` is a row changed on the server, `status()` the socket's news. */
function fakeChannel() {
  const channel = {
    opened: 0,
    open: false,
    onChange: () => undefined as void,
    onStatus: (_s: ChangeFeedStatus) => undefined as void,
    subscribe: (_userId: string, onChange: () => void, onStatus: (s: ChangeFeedStatus) => void) => {
      channel.opened++;
      channel.open = true;
      channel.onChange = onChange;
      channel.onStatus = onStatus;
      return () => void (channel.open = false);
    },
  };
  return channel;
}

function server() {
  const state = { limits: limitsOf("free", 0), summary: summaryOf("free"), reads: 0, summaryFails: false };
  return {
    state,
    readLimits: vi.fn(async () => (state.reads++, ok(state.limits))),
    readSummary: vi.fn(async () => (state.summaryFails ? err(appErrorOf("network_error", "away")) : ok(state.summary))),
  };
}

describe("the plan lane", () => {
  it("re-reads the limits and the summary as soon as the subscription changes", async () => {
    db = openAppDb(`plan-${++dbs}`);
    const channel = fakeChannel();
    const s = server();
    const plan = followPlan({ db, subscribe: channel.subscribe, ...s }, "alice");
    channel.onStatus("SUBSCRIBED");
    // The first subscription reads nothing: the limits machine has just read them.
    expect(s.readLimits).not.toHaveBeenCalled();
    s.state.limits = limitsOf("pro", 999);
    s.state.summary = summaryOf("pro");
    channel.onChange();
    await vi.waitFor(async () => expect((await db!.limits.get("alice"))?.remaining).toBe(999));
    expect((await db.limits.get("alice"))?.tier).toBe("pro");
    await vi.waitFor(async () =>
      expect((await getBillingSummary<BillingSummary>("alice", db))?.summary.tier).toBe("pro"),
    );
    plan.stop();
  });

  it("keeps the last known summary when a read fails", async () => {
    db = openAppDb(`plan-${++dbs}`);
    const channel = fakeChannel();
    const s = server();
    const plan = followPlan({ db, subscribe: channel.subscribe, ...s }, "alice");
    channel.onChange();
    await vi.waitFor(async () => expect(await getBillingSummary("alice", db)).not.toBeNull());
    s.state.summaryFails = true;
    s.state.limits = limitsOf("pro", 999);
    channel.onChange();
    await vi.waitFor(async () => expect((await db!.limits.get("alice"))?.remaining).toBe(999));
    expect((await getBillingSummary<BillingSummary>("alice", db))?.summary.tier).toBe("free");
    plan.stop();
  });

  it("closes the channel offline, opens it again online and catches up on that subscription", async () => {
    db = openAppDb(`plan-${++dbs}`);
    const channel = fakeChannel();
    const s = server();
    const plan = followPlan({ db, subscribe: channel.subscribe, ...s }, "alice");
    channel.onStatus("SUBSCRIBED");
    plan.wake?.({ on: "offline" });
    expect(channel.open).toBe(false);
    plan.wake?.({ on: "online" });
    expect(channel.opened).toBe(2);
    channel.onStatus("SUBSCRIBED");
    await vi.waitFor(() => expect(s.readLimits).toHaveBeenCalledTimes(1));
    plan.stop();
    expect(channel.open).toBe(false);
  });

  it("does not open a channel while offline", () => {
    const channel = fakeChannel();
    const s = server();
    db = openAppDb(`plan-${++dbs}`);
    const plan = followPlan({ db, subscribe: channel.subscribe, isOnline: () => false, ...s }, "alice");
    expect(channel.opened).toBe(0);
    plan.stop();
  });
});

describe("the quota trigger", () => {
  it("fires when the known quota rises above 0, once per rise", async () => {
    db = openAppDb(`plan-${++dbs}`);
    const record = limitsRecord("alice", {
      remaining: 0,
      resetAt: "2026-11-27T00:00:00.000Z",
      checkedAt: "2026-11-26T10:00:00.000Z",
    });
    await db.limits.put(record);
    const fired = vi.fn();
    const stop = quotaRaises("alice", db)(fired);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).not.toHaveBeenCalled();
    await db.limits.put({ ...record, dailyLimit: 999, remaining: 999, tier: "pro" });
    await vi.waitFor(() => expect(fired).toHaveBeenCalledTimes(1));
    await db.limits.put({ ...record, dailyLimit: 999, remaining: 998, tier: "pro" });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toHaveBeenCalledTimes(1);
    stop();
  });
});
