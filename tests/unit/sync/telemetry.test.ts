import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { bufferedTelemetry } from "#src/db/telemetry-buffer.ts";
import type { SendFailure } from "#src/api/telemetry.ts";
import {
  createTelemetry,
  dexieTelemetryBuffer,
  TELEMETRY_BATCH_SIZE,
  TELEMETRY_LOCK_PREFIX,
  TELEMETRY_PERSIST_WAIT_MS,
  type Telemetry,
  type TelemetryItem,
} from "#src/sync/telemetry.ts";
import { DELIVERY_BACKOFF } from "#src/sync/delivery.ts";
import { err, ok, type Result } from "#src/lib/result.ts";
import { simClock, type SimClock } from "./sim-clock.ts";

const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";
// Recent: the buffer lets week-old items go.
const NOW = new Date();

let db: AppDb;
let online: boolean;
let sessionUser: string | null;
let sent: TelemetryItem[][];
let tokens: string[];
let answer: (items: readonly TelemetryItem[]) => Result<void, SendFailure>;
let warnings: string[];
let n: number;
let clock: SimClock;

beforeEach(() => {
  clock = simClock();
  db = openAppDb(`telemetry-${crypto.randomUUID()}`);
  online = true;
  sessionUser = ALICE;
  sent = [];
  tokens = [];
  answer = () => ok(undefined);
  warnings = [];
  n = 0;
});
afterEach(async () => {
  await db.delete();
});

function recorder(
  overrides: {
    buffer?: boolean;
    locks?: Parameters<typeof createTelemetry>[0]["locks"];
    quiet?: () => Promise<void>;
  } = {},
): Telemetry {
  return createTelemetry({
    locks: overrides.locks,
    quiet: overrides.quiet,
    clock,
    random: () => 0.5,
    send: async (items, accessToken) => {
      sent.push([...items]);
      tokens.push(accessToken);
      return answer(items);
    },
    buffer: overrides.buffer === false ? undefined : dexieTelemetryBuffer(db),
    session: async () => (sessionUser ? { userId: sessionUser, accessToken: `token-of-${sessionUser}` } : null),
    isOnline: () => online,
    warn: (m) => warnings.push(m),
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    now: () => NOW,
    flushDelayMs: 60_000, // the tests flush by hand
  });
}

const names = (items: TelemetryItem[]) => items.map((i) => i.name);

/** A recorder holding `count` of Alice's events stored while offline; the device is online again. */
async function offlineBacklog(count: number): Promise<Telemetry> {
  online = false;
  const t = recorder();
  for (let i = 0; i < count; i++) t.recordEvent(ALICE, `e${i}`, {});
  await t.flush();
  online = true;
  return t;
}

describe("recording", () => {
  it("writes what is recorded while the person waits for something once that is over, or after a while", async () => {
    let over!: () => void;
    const t = recorder({ quiet: () => new Promise<void>((resolve) => (over = resolve)) });
    t.recordEvent(ALICE, "a", {});
    t.recordEvent(ALICE, "b", {});
    await new Promise((r) => setTimeout(r, 30));
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
    // Kept in memory meanwhile: a page being unloaded hands these over.
    expect(names(t.unsent())).toEqual(["a", "b"]);
    over();
    await vi.waitFor(async () => expect(names(await bufferedTelemetry(db, ALICE))).toEqual(["a", "b"]));
    // Foreground work that never ends holds an item no longer than TELEMETRY_PERSIST_WAIT_MS.
    const busy = recorder({ quiet: () => new Promise<void>(() => undefined) });
    busy.recordEvent(ALICE, "c", {});
    await new Promise((r) => setTimeout(r, 30));
    expect(names(await bufferedTelemetry(db, ALICE))).toEqual(["a", "b"]);
    await clock.advance(TELEMETRY_PERSIST_WAIT_MS);
    await vi.waitFor(async () => expect(names(await bufferedTelemetry(db, ALICE))).toEqual(["a", "b", "c"]));
  });

  it("skips everything silently with no signed-in person", async () => {
    const t = recorder();
    t.recordEvent(null, "error", { message: "boom" });
    t.recordVital(null, { name: "LCP", value: 1200, metricId: "v1", delta: 1200 });
    await t.flush();
    expect(sent).toEqual([]);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("sends events and vitals of the signed-in person with client-minted ids", async () => {
    const t = recorder();
    t.recordEvent(ALICE, "queue_task_success", { provider: "builtin", taskId: "t1" });
    t.recordVital(ALICE, { name: "CLS", value: 0.02, metricId: "v5-1", delta: 0.02 });
    await t.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual([
      {
        kind: "event",
        id: "00000000-0000-4000-8000-000000000001",
        userId: ALICE,
        name: "queue_task_success",
        metadata: { provider: "builtin", taskId: "t1" },
        createdAt: NOW.toISOString(),
      },
      {
        kind: "vital",
        id: "00000000-0000-4000-8000-000000000002",
        userId: ALICE,
        name: "CLS",
        value: 0.02,
        metricId: "v5-1",
        delta: 0.02,
        createdAt: NOW.toISOString(),
      },
    ]);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
  });
});

describe("offline", () => {
  it("keeps items in Dexie while offline and sends them once, in order, when back online", async () => {
    online = false;
    const t = recorder();
    t.recordEvent(ALICE, "error", { message: "first" });
    t.recordVital(ALICE, { name: "FCP", value: 900, metricId: "v1", delta: 900 });
    await t.flush();
    expect(sent).toEqual([]);
    expect(names(await bufferedTelemetry(db, ALICE))).toEqual(["error", "FCP"]);

    // A reload: a new recorder over the same Dexie finds what the last page left.
    online = true;
    const next = recorder();
    await next.flush();
    expect(sent.map(names)).toEqual([["error", "FCP"]]);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
    await next.flush();
    expect(sent).toHaveLength(1);
  });

  it("stores every item recorded while an earlier one is being written", async () => {
    online = false;
    const t = recorder();
    t.recordEvent(ALICE, "first", {});
    await Promise.resolve(); // the first write is under way
    t.recordEvent(ALICE, "second", {});
    t.recordVital(ALICE, { name: "FID", value: 3, metricId: "fid-1", delta: 3 });
    await t.flush();
    expect(names(await bufferedTelemetry(db, ALICE))).toEqual(["first", "second", "FID"]);
    expect(t.unsent()).toEqual([]);
  });

  it("holds a signed-out device's items until that person's session is back", async () => {
    const t = recorder();
    t.recordEvent(ALICE, "error", { message: "while signed in" });
    sessionUser = null;
    await t.flush();
    expect(sent).toEqual([]);
    sessionUser = BOB; // another person on this browser never sends Alice's items
    await t.flush();
    expect(sent).toEqual([]);
    sessionUser = ALICE;
    await t.flush();
    expect(sent.map(names)).toEqual([["error"]]);
  });

  it("sends a whole flush with the token of the session it began under, even if that session ends meanwhile", async () => {
    const t = await offlineBacklog(TELEMETRY_BATCH_SIZE + 1);
    answer = () => {
      sessionUser = null; // signed out while the first batch was on the wire
      return ok(undefined);
    };
    await t.flush();
    expect(sent.map((b) => b.length)).toEqual([TELEMETRY_BATCH_SIZE, 1]);
    expect(tokens).toEqual([`token-of-${ALICE}`, `token-of-${ALICE}`]);
  });

  it("keeps items in memory when IndexedDB is not available", async () => {
    online = false;
    const t = recorder({ buffer: false });
    t.recordEvent(ALICE, "error", { message: "memory only" });
    await t.flush();
    expect(t.unsent().map((i) => i.name)).toEqual(["error"]);
    online = true;
    await t.flush();
    expect(sent.map(names)).toEqual([["error"]]);
    expect(t.unsent()).toEqual([]);
  });

  it("sends a long backlog in batches", async () => {
    const t = await offlineBacklog(TELEMETRY_BATCH_SIZE + 5);
    await t.flush();
    expect(sent.map((b) => b.length)).toEqual([TELEMETRY_BATCH_SIZE, 5]);
  });
});

describe("failures", () => {
  it("keeps items after a network failure and only warns", async () => {
    answer = () => err({ retryable: true, message: "app_events: An error occurred" });
    const t = recorder();
    t.recordEvent(ALICE, "error", { message: "x" });
    await t.flush();
    expect(warnings).toEqual(["[telemetry] 1 item(s) not sent: app_events: An error occurred"]);
    expect(names(await bufferedTelemetry(db, ALICE))).toEqual(["error"]);
    answer = () => ok(undefined);
    // The lane backs off: a flush before the backoff ends sends nothing; its end sends by itself.
    await t.flush();
    expect(sent).toHaveLength(1);
    await clock.advance(DELIVERY_BACKOFF.baseMs);
    await t.flush();
    expect(sent).toHaveLength(2);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
  });

  it("sends at once when the connection returns, whatever the backoff", async () => {
    answer = () => err({ retryable: true, message: "app_events: Failed to fetch" });
    const t = recorder();
    t.recordEvent(ALICE, "error", { message: "x" });
    await t.flush();
    answer = () => ok(undefined);
    t.online();
    await t.flush();
    expect(sent).toHaveLength(2);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
  });

  it("never sends an item another tab sent while this one waited for the lock", async () => {
    const t = recorder({
      locks: {
        // Another tab holds the lock and sends (and drops) Alice's items before this one gets it.
        request: async (name, _options, callback) => {
          expect(name).toBe(TELEMETRY_LOCK_PREFIX + ALICE);
          const held = await bufferedTelemetry(db, ALICE);
          await dexieTelemetryBuffer(db).drop(
            ALICE,
            held.map((i) => i.id),
          );
          return callback();
        },
      },
    });
    t.recordEvent(ALICE, "error", { message: "x" });
    await t.flush();
    expect(sent).toEqual([]);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
  });

  it("drops only the item the server refuses for good", async () => {
    answer = (items) =>
      items.some((i) => i.name === "bad") ? err({ retryable: false, message: "Invalid operation" }) : ok(undefined);
    const t = recorder();
    t.recordEvent(ALICE, "good-1", {});
    t.recordEvent(ALICE, "bad", {});
    t.recordEvent(ALICE, "good-2", {});
    await t.flush();
    expect(sent.map(names)).toEqual([["good-1", "bad", "good-2"], ["good-1"], ["bad"], ["good-2"]]);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
    expect(warnings).toHaveLength(2);
  });

  it("restores items kept elsewhere without storing any twice", async () => {
    online = false;
    const t = recorder();
    t.recordEvent(ALICE, "error", {});
    await t.flush();
    const [held] = await bufferedTelemetry(db, ALICE);
    t.restore([held, { ...held, id: "00000000-0000-4000-8000-0000000000ff" }]);
    await t.flush();
    expect((await bufferedTelemetry(db, ALICE)).map((i) => i.id)).toEqual([
      held.id,
      "00000000-0000-4000-8000-0000000000ff",
    ]);
  });
});

describe("an account being deleted", () => {
  it("sends what waits first, then nothing of it while it goes, and forgets the rest once it is gone", async () => {
    const t = recorder();
    t.recordEvent(ALICE, "before", {});
    await t.closingAccount(ALICE);
    expect(sent.map(names)).toEqual([["before"]]);
    t.recordEvent(ALICE, "while-deleting", {}); // not even recorded
    await dexieTelemetryBuffer(db).add([
      { kind: "event", id: "late-1", userId: ALICE, name: "late", metadata: {}, createdAt: NOW.toISOString() },
    ]);
    await t.flush();
    expect(sent).toHaveLength(1);
    await t.accountGone(ALICE);
    expect(await bufferedTelemetry(db, ALICE)).toEqual([]);
    expect(t.unsent()).toEqual([]);
  });

  it("sends again when the deletion failed and the account stays", async () => {
    const t = recorder();
    await t.closingAccount(ALICE);
    t.accountKept(ALICE);
    t.recordEvent(ALICE, "after", {});
    await t.flush();
    expect(sent.map(names)).toEqual([["after"]]);
  });
});
