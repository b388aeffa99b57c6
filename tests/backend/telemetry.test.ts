// The client's telemetry sender (src/api/telemetry.ts) against the local backend through the real
// supabase-js client: rows land for their owner, a replay stores nothing twice, what can never be
// stored is refused for good (so the client drops it), and the database rates each vital by the spec's
// thresholds (docs/spec.md §9) at every boundary.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { sendTelemetry } from "../../src/api/telemetry.ts";
import type { TelemetryItem } from "../../src/db/telemetry-buffer.ts";
import { WEB_VITAL_NAMES } from "#shared/vocabulary/web-vitals.ts";
import { clientsFor, people, useBackend } from "../support/backend-suite.ts";
import { startBackend } from "../support/backend.ts";
import { countRows, newUser } from "../support/clients.ts";
import { SPEC_WEB_VITAL_THRESHOLDS } from "../support/web-vital-thresholds.ts";

const b = useBackend(() => startBackend(), 90_000);
const { server: service } = clientsFor(b);
const [alice, bob] = people(b, "telemetry-alice", "telemetry-bob");

const at = new Date().toISOString();
const event = (userId: string, metadata: Record<string, unknown> = { type: "error", message: "Error: boom" }) =>
  ({ kind: "event", id: randomUUID(), userId, name: "error", metadata, createdAt: at }) satisfies TelemetryItem;
const vital = (userId: string, name: (typeof WEB_VITAL_NAMES)[number], value: number) =>
  ({
    kind: "vital",
    id: randomUUID(),
    userId,
    name,
    value,
    metricId: `v5-${randomUUID()}`,
    delta: value,
    createdAt: at,
  }) satisfies TelemetryItem;

describe("sending telemetry", () => {
  it("stores events and vitals for their owner; a replay stores nothing twice", async () => {
    const items = [event(alice.id), vital(alice.id, "LCP", 1234.5)];
    expect(await sendTelemetry(items, () => alice.client)).toEqual({ ok: true, value: undefined });
    expect(await sendTelemetry(items, () => alice.client)).toEqual({ ok: true, value: undefined });
    // The resend is answered as any insert: nothing for a browser to log as a failed request.
    const again = await alice.client
      .from("app_events")
      .insert([{ id: items[0].id, user_id: alice.id, name: "error", metadata: {} }]);
    expect(again.status).toBe(201);

    const events = await service.from("app_events").select("id, user_id, name, metadata").eq("user_id", alice.id);
    expect(events.data).toEqual([
      { id: items[0].id, user_id: alice.id, name: "error", metadata: { type: "error", message: "Error: boom" } },
    ]);
    const vitals = await service
      .from("web_vitals")
      .select("id, name, value, metric_id, delta, rating")
      .eq("id", items[1].id);
    expect(vitals.data).toEqual([
      {
        id: items[1].id,
        name: "LCP",
        value: 1234.5,
        metric_id: (items[1] as { metricId: string }).metricId,
        delta: 1234.5,
        rating: "good",
      },
    ]);
  });

  it("refuses for good what can never be stored: another person's row, an unknown metric, oversized metadata", async () => {
    const stranger = await sendTelemetry([event(bob.id)], () => alice.client);
    expect(stranger).toMatchObject({ ok: false, error: { retryable: false } });
    const unknown = await sendTelemetry([{ ...vital(alice.id, "FCP", 10), name: "TTFB" as "FCP" }], () => alice.client);
    expect(unknown).toMatchObject({ ok: false, error: { retryable: false, message: "web_vitals: Invalid operation" } });
    const huge = await sendTelemetry([event(alice.id, { stack: "x".repeat(9000) })], () => alice.client);
    expect(huge).toMatchObject({ ok: false, error: { retryable: false } });
    expect(await countRows(service, "app_events", bob.id)).toBe(0);
  });

  it("a send started under a session keeps its token when the client signs out meanwhile", async () => {
    const carol = await newUser(b, "telemetry-carol");
    const token = (await carol.client.auth.getSession()).data.session!.access_token;
    await carol.client.auth.signOut();
    // Without the token the client's requests are anonymous by now, and row-level security refuses them.
    const anonymous = await sendTelemetry([event(carol.id)], () => carol.client);
    expect(anonymous).toMatchObject({ ok: false, error: { retryable: true } });
    const items = [event(carol.id), vital(carol.id, "INP", 88)];
    expect(await sendTelemetry(items, () => carol.client, token)).toEqual({ ok: true, value: undefined });
    expect(await countRows(service, "app_events", carol.id)).toBe(1);
  });

  it("calls an unreachable server retryable", async () => {
    const { createClient } = await import("@supabase/supabase-js");
    const gone = createClient("http://127.0.0.1:9", b.anonKey, {
      auth: { persistSession: false },
      realtime: { transport: WebSocket as never },
    });
    expect(await sendTelemetry([event(alice.id)], () => gone)).toMatchObject({ ok: false, error: { retryable: true } });
  });
});

describe("ratings", () => {
  it("are derived by the database exactly as docs/spec.md §9's thresholds say, at every boundary", async () => {
    // At most the good threshold is good; above the poor one is poor (the web-vitals library's rule).
    const cases = WEB_VITAL_NAMES.flatMap((name) => {
      const [good, poor] = SPEC_WEB_VITAL_THRESHOLDS[name];
      return [
        [name, 0, "good"],
        [name, good, "good"],
        [name, good + 0.001, "needs-improvement"],
        [name, poor, "needs-improvement"],
        [name, poor + 0.001, "poor"],
        [name, poor * 3, "poor"],
      ] as const;
    });
    const items = cases.map(([name, value]) => vital(alice.id, name, value));
    expect(await sendTelemetry(items, () => alice.client)).toEqual({ ok: true, value: undefined });
    const { data } = await service
      .from("web_vitals")
      .select("id, name, value, rating")
      .in(
        "id",
        items.map((i) => i.id),
      );
    const rated = new Map(data!.map((row) => [row.id, row.rating]));
    expect(cases.map(([name, value], i) => [name, value, rated.get(items[i].id)])).toEqual(cases);
  });
});
