// The request analytics make: each kind into its own table, a row already stored counted as sent,
// the session's token on every insert, and which failures may pass.
import { describe, expect, it } from "vitest";
import type { SupabaseClient } from "@supabase/supabase-js";
import { sendTelemetry } from "#src/api/telemetry.ts";
import type { TelemetryItem } from "#src/db/telemetry-buffer.ts";

const ALICE = "11111111-1111-4111-8111-111111111111";

describe("sendTelemetry", () => {
  /** A client whose inserts answer `status`, or 409 for an id in `stored` (a row already there). */
  function fakeClient(status = 201, stored = new Set<string>()) {
    const calls: { table: string; rows: { id: string }[] }[] = [];
    const headers: Record<string, string>[] = [];
    const answerFor = (rows: { id: string }[]) => {
      if (rows.some((r) => stored.has(r.id))) return { error: { message: "duplicate", code: "23505" }, status: 409 };
      return status >= 200 && status < 300
        ? { error: null, status }
        : { error: { message: "boom", code: "23514" }, status };
    };
    const client = {
      from: (table: string) => ({
        // Like postgrest-js: a thenable request whose headers can be set before it is awaited.
        insert: (rows: { id: string }[]) => {
          calls.push({ table, rows });
          const set: Record<string, string> = {};
          headers.push(set);
          const request = {
            setHeader: (name: string, value: string) => ((set[name] = value), request),
            then: <T>(resolve: (value: ReturnType<typeof answerFor>) => T) =>
              Promise.resolve(answerFor(rows)).then(resolve),
          };
          return request;
        },
      }),
    } as unknown as SupabaseClient;
    return { calls, headers, client: () => client };
  }
  const items: TelemetryItem[] = [
    { kind: "event", id: "e1", userId: ALICE, name: "error", metadata: { type: "error" }, createdAt: "x" },
    { kind: "vital", id: "v1", userId: ALICE, name: "INP", value: 120, metricId: "m1", delta: 40, createdAt: "x" },
  ];

  it("inserts each kind into its own table", async () => {
    const fake = fakeClient();
    expect(await sendTelemetry(items, fake.client)).toEqual({ ok: true, value: undefined });
    expect(fake.calls).toEqual([
      { table: "app_events", rows: [{ id: "e1", user_id: ALICE, name: "error", metadata: { type: "error" } }] },
      {
        table: "web_vitals",
        rows: [{ id: "v1", user_id: ALICE, name: "INP", value: 120, metric_id: "m1", delta: 40 }],
      },
    ]);
  });

  it("counts a row already stored as sent, and still writes the rest of its batch", async () => {
    const fake = fakeClient(201, new Set(["e1"]));
    const e2: TelemetryItem = { ...items[0], id: "e2" };
    expect(await sendTelemetry([items[0], e2], fake.client)).toEqual({ ok: true, value: undefined });
    expect(fake.calls.map((c) => c.rows.map((r) => r.id))).toEqual([["e1", "e2"], ["e1"], ["e2"]]);
  });

  it("sends every insert with the given token, or leaves the header to the client without one", async () => {
    const fake = fakeClient(201, new Set(["e1"]));
    const e2: TelemetryItem = { ...items[0], id: "e2" };
    await sendTelemetry([items[0], e2, items[1]], fake.client, "jwt-1");
    expect(fake.headers).toEqual(fake.calls.map(() => ({ Authorization: "Bearer jwt-1" })));
    expect(fake.headers).toHaveLength(4); // the batch, its two rows one by one, the vitals

    const plain = fakeClient();
    await sendTelemetry(items, plain.client);
    expect(plain.headers).toEqual([{}, {}]);
  });

  it("calls a check violation final and a server error retryable, with a sanitised message", async () => {
    expect(await sendTelemetry(items, fakeClient(400).client)).toEqual({
      ok: false,
      error: { retryable: false, message: "app_events: Invalid operation" },
    });
    expect(await sendTelemetry(items, fakeClient(503).client)).toMatchObject({ ok: false, error: { retryable: true } });
    expect(await sendTelemetry(items, fakeClient(0).client)).toMatchObject({ ok: false, error: { retryable: true } });
  });
});
