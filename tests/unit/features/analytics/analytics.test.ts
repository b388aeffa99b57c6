import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { bufferedTelemetry } from "#src/db/telemetry-buffer.ts";
import { createTelemetry, dexieTelemetryBuffer, type Telemetry, type TelemetryItem } from "#src/sync/telemetry.ts";
import { createAnalytics, MAX_ERROR_EVENTS_PER_PAGE, type Analytics } from "#src/features/analytics/analytics.ts";
import { spillUnsent, takeSpilled } from "#src/features/analytics/unload-spill.ts";
import type { SessionView } from "#src/state/session-store.ts";
import { ok } from "#src/lib/result.ts";

const ALICE = { id: "11111111-1111-4111-8111-111111111111", email: "alice@example.test" };
const signedIn: SessionView = { status: "signed-in", user: ALICE, verified: true };
const signedOut: SessionView = { status: "signed-out", user: null, verified: true };
const checking: SessionView = { status: "checking", user: null, verified: false };

let db: AppDb;
let view: SessionView;
let listeners: Set<() => void>;
let sent: TelemetryItem[];
let online: boolean;
let loads: number;
let telemetry: Telemetry;
let analytics: Analytics | undefined;

function setView(next: SessionView) {
  view = next;
  listeners.forEach((l) => l());
}

beforeEach(() => {
  db = openAppDb(`analytics-${crypto.randomUUID()}`);
  view = signedIn;
  listeners = new Set();
  sent = [];
  online = true;
  loads = 0;
  telemetry = createTelemetry({
    send: async (items) => {
      sent.push(...items);
      return ok(undefined);
    },
    buffer: dexieTelemetryBuffer(db),
    session: async () => (view.user ? { userId: view.user.id, accessToken: "token" } : null),
    isOnline: () => online,
    warn: () => undefined,
    flushDelayMs: 60_000,
  });
});
afterEach(async () => {
  analytics?.stop();
  analytics = undefined;
  await db.delete();
});

function start(extra: Partial<Parameters<typeof createAnalytics>[0]> = {}): Analytics {
  analytics = createAnalytics({
    session: {
      get: () => view,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    loadTelemetry: async () => {
      loads++;
      return telemetry;
    },
    warn: () => undefined,
    ...extra,
  });
  return analytics;
}

/** Lets the recorder's load, its Dexie writes and the flush settle. */
async function settled() {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  await telemetry.flush();
}

const boom = () => ({ type: "error" as const, error: new Error("boom"), source: "http://app.test/a.js", lineno: 1 });

describe("who analytics are recorded for", () => {
  it("records nothing, and loads no recorder, for a signed-out visitor", async () => {
    view = signedOut;
    const a = start();
    a.captureError(boom());
    a.recordVital({ name: "LCP", value: 1800, metricId: "v1", delta: 1800 });
    await settled();
    expect(loads).toBe(0);
    expect(sent).toEqual([]);
  });

  it("records errors and vitals for the signed-in person", async () => {
    const a = start();
    a.captureError(boom());
    a.recordVital({ name: "LCP", value: 1800, metricId: "v1", delta: 1800 });
    await settled();
    expect(sent.map((i) => [i.kind, i.name, i.userId])).toEqual([
      ["event", "error", ALICE.id],
      ["vital", "LCP", ALICE.id],
    ]);
    expect(sent[0]).toMatchObject({ metadata: { type: "error", message: "Error: boom", lineno: 1 } });
  });

  it("holds reports made while the session is checked, then records them for who signed in", async () => {
    view = checking;
    const a = start();
    a.captureError(boom());
    await settled();
    expect(sent).toEqual([]);
    setView(signedIn);
    await settled();
    expect(sent.map((i) => i.userId)).toEqual([ALICE.id]);
  });

  it("forgets held reports when the check ends signed out", async () => {
    view = checking;
    const a = start();
    a.captureError(boom());
    setView(signedOut);
    setView(signedIn);
    await settled();
    expect(sent).toEqual([]);
  });
});

describe("errors", () => {
  it("reports one failure once per page load, and at most a bounded number in all", async () => {
    const a = start();
    for (let i = 0; i < 3; i++) a.captureError(boom());
    for (let i = 0; i < MAX_ERROR_EVENTS_PER_PAGE + 5; i++) {
      a.captureError({ type: "unhandledrejection", error: new Error(`e${i}`) });
    }
    await settled();
    expect(sent).toHaveLength(MAX_ERROR_EVENTS_PER_PAGE);
    expect(sent.filter((i) => i.kind === "event" && i.metadata.message === "Error: boom")).toHaveLength(1);
  });

  it("sends after coming back online what was recorded offline", async () => {
    online = false;
    const a = start();
    a.captureError({ type: "render", error: new Error("bad"), source: "at Grid" });
    await settled();
    expect(sent).toEqual([]);
    expect(await bufferedTelemetry(db, ALICE.id)).toHaveLength(1);
    online = true;
    a.flush();
    await settled();
    expect(sent.map((i) => i.kind === "event" && i.metadata.type)).toEqual(["render"]);
  });
});

describe("a page that closes", () => {
  it("discards what a closing page kept once the person signs out", async () => {
    const storage = window.localStorage;
    storage.clear();
    const a = start({ spill: (items) => spillUnsent(storage, items), takeSpilled: () => takeSpilled(storage) });
    await settled();
    online = false;
    a.recordVital({ name: "LCP", value: 900, metricId: "v-lcp", delta: 900 });
    a.pageHide();
    expect(storage.getItem("promptcanvas.telemetry-unsent")).not.toBeNull();
    setView(signedOut);
    expect(storage.getItem("promptcanvas.telemetry-unsent")).toBeNull();
  });

  it("takes back what it kept when the page is shown again, storing nothing twice", async () => {
    const storage = window.localStorage;
    storage.clear();
    online = false;
    const a = start({ spill: (items) => spillUnsent(storage, items), takeSpilled: () => takeSpilled(storage) });
    await settled();
    a.recordVital({ name: "INP", value: 64, metricId: "v-inp", delta: 64 });
    a.pageHide();
    await settled(); // the page stayed: its own write finished too
    a.reclaim();
    await settled();
    expect(storage.getItem("promptcanvas.telemetry-unsent")).toBeNull();
    expect((await bufferedTelemetry(db, ALICE.id)).map((i) => i.name)).toEqual(["INP"]);
  });

  it("keeps what is not stored yet and hands it to the next page load", async () => {
    const storage = window.localStorage;
    storage.clear();
    online = false;
    const a = start({ spill: (items) => spillUnsent(storage, items) });
    await settled(); // the recorder is loaded for the signed-in person
    a.recordVital({ name: "CLS", value: 0.3, metricId: "v-cls", delta: 0.3 });
    a.pageHide(); // before the Dexie write could finish
    a.stop();
    expect(JSON.parse(storage.getItem("promptcanvas.telemetry-unsent")!)).toHaveLength(1);

    // The next page load: a fresh recorder over the same Dexie takes the spilled item, once.
    await db.meta.clear();
    telemetry = createTelemetry({
      send: async (items) => {
        sent.push(...items);
        return ok(undefined);
      },
      buffer: dexieTelemetryBuffer(db),
      session: async () => ({ userId: ALICE.id, accessToken: "token" }),
      isOnline: () => true,
      warn: () => undefined,
      flushDelayMs: 60_000,
    });
    start({ takeSpilled: () => takeSpilled(storage) });
    await settled();
    expect(sent.map((i) => [i.name, i.id])).toEqual([["CLS", expect.any(String)]]);
    expect(storage.getItem("promptcanvas.telemetry-unsent")).toBeNull();
  });
});
