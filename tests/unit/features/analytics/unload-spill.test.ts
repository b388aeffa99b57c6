import { beforeEach, describe, expect, it } from "vitest";
import type { TelemetryItem } from "#src/sync/telemetry.ts";
import { SPILL_KEY, SPILL_MAX_ITEMS, spillUnsent, takeSpilled } from "#src/features/analytics/unload-spill.ts";

const vital = (id: string): TelemetryItem => ({
  kind: "vital",
  id,
  userId: "u1",
  name: "INP",
  value: 80,
  metricId: `m-${id}`,
  delta: 80,
  createdAt: "2026-11-22T10:00:00.000Z",
});

beforeEach(() => localStorage.clear());

describe("unload spill", () => {
  it("keeps items across a page load and hands them over once", () => {
    spillUnsent(localStorage, [vital("a")]);
    spillUnsent(localStorage, [vital("b")]);
    expect(takeSpilled(localStorage).map((i) => i.id)).toEqual(["a", "b"]);
    expect(takeSpilled(localStorage)).toEqual([]);
  });

  it("keeps only the newest items when many pile up", () => {
    spillUnsent(
      localStorage,
      Array.from({ length: SPILL_MAX_ITEMS + 3 }, (_, i) => vital(`v${i}`)),
    );
    const taken = takeSpilled(localStorage);
    expect(taken).toHaveLength(SPILL_MAX_ITEMS);
    expect(taken[0].id).toBe("v3");
  });

  it("ignores anything malformed in storage", () => {
    localStorage.setItem(SPILL_KEY, JSON.stringify([vital("ok"), { kind: "vital", id: "x", name: "TTFB" }, 5, null]));
    expect(takeSpilled(localStorage).map((i) => i.id)).toEqual(["ok"]);
    localStorage.setItem(SPILL_KEY, "{not json");
    expect(takeSpilled(localStorage)).toEqual([]);
  });
});
