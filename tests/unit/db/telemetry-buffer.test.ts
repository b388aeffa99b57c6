import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import {
  bufferedTelemetry,
  bufferTelemetry,
  dropTelemetry,
  TELEMETRY_MAX_AGE_MS,
  telemetryKey,
  type TelemetryItem,
} from "#src/db/telemetry-buffer.ts";
import { clearUserData } from "#src/db/user-data.ts";

const NOW = Date.now();
const event = (id: string, userId = "u1", ageMs = 0): TelemetryItem => ({
  kind: "event",
  id,
  userId,
  name: "error",
  metadata: {},
  createdAt: new Date(NOW - ageMs).toISOString(),
});
const ids = (items: TelemetryItem[]) => items.map((i) => i.id);

let db: AppDb;
beforeEach(() => {
  db = openAppDb(`telemetry-buffer-${crypto.randomUUID()}`);
});
afterEach(async () => {
  await db.delete();
});

describe("telemetry buffer", () => {
  it("keeps each person's items apart, oldest first, each id once", async () => {
    await bufferTelemetry(db, [event("a"), event("b", "u2"), event("c")], { now: NOW });
    await bufferTelemetry(db, [event("a"), event("d")], { now: NOW });
    expect(ids(await bufferedTelemetry(db, "u1"))).toEqual(["a", "c", "d"]);
    expect(ids(await bufferedTelemetry(db, "u2"))).toEqual(["b"]);
    expect(ids(await bufferedTelemetry(db, "u1", 2))).toEqual(["a", "c"]);
  });

  it("drops the oldest beyond the cap", async () => {
    await bufferTelemetry(
      db,
      ["a", "b", "c", "d"].map((id) => event(id)),
      { now: NOW, max: 3 },
    );
    expect(ids(await bufferedTelemetry(db, "u1"))).toEqual(["b", "c", "d"]);
  });

  it("lets items older than a week go unsent", async () => {
    await bufferTelemetry(db, [event("old", "u1", TELEMETRY_MAX_AGE_MS + 1), event("new")], { now: NOW });
    expect(ids(await bufferedTelemetry(db, "u1"))).toEqual(["new"]);
  });

  it("removes sent items, and the key once empty", async () => {
    await bufferTelemetry(db, [event("a"), event("b")]);
    await dropTelemetry(db, "u1", ["a"]);
    expect(ids(await bufferedTelemetry(db, "u1"))).toEqual(["b"]);
    await dropTelemetry(db, "u1", ["b"]);
    expect(await db.meta.get(telemetryKey("u1"))).toBeUndefined();
  });

  it("goes with the rest of the person's data at sign-out", async () => {
    await bufferTelemetry(db, [event("a")]);
    await clearUserData(db, { includeQueuedWork: false });
    expect(await bufferedTelemetry(db, "u1")).toEqual([]);
  });
});
