// The whole page path in jsdom, with nothing replaced: errors caught before the runtime loads, a
// render error an error boundary caught, both in the signed-in person's Dexie buffer (no backend is
// configured here, so they wait there exactly as they would offline).
import { render, screen } from "@testing-library/react";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "#src/app/error-boundary.tsx";
import { reportError } from "#src/app/report-error.ts";
import { db } from "#src/db/db.ts";
import { bufferedTelemetry, type TelemetryEventItem } from "#src/db/telemetry-buffer.ts";
import { startAnalytics } from "#src/features/analytics/start-analytics.ts";
import { setSessionView } from "#src/state/session-store.ts";

const USER = { id: "33333333-3333-4333-8333-333333333333", email: "carol@example.test" };

function Broken(): never {
  throw new Error("cannot draw this");
}

afterAll(async () => {
  await db.delete();
});

async function waitForEvents(count: number): Promise<TelemetryEventItem[]> {
  for (let i = 0; i < 100; i++) {
    const items = await bufferedTelemetry(db, USER.id);
    if (items.length >= count) return items as TelemetryEventItem[];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the errors never reached the buffer");
}

describe("startAnalytics", () => {
  it("records early errors and caught render errors for the signed-in person", async () => {
    setSessionView({ status: "signed-in", user: USER, verified: true });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined); // React's own report
    startAnalytics(window);
    window.dispatchEvent(
      new ErrorEvent("error", {
        error: new Error("early"),
        message: "Uncaught Error: early",
        filename: "http://app.test/assets/a.js?access_token=secret",
        lineno: 3,
        colno: 4,
      }),
    );
    render(
      <ErrorBoundary onError={reportError}>
        <Broken />
      </ErrorBoundary>,
    );
    error.mockRestore();
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeTruthy();

    const items = await waitForEvents(2);
    warn.mockRestore();
    expect(items.map((i) => [i.name, i.userId, i.metadata.type])).toEqual([
      ["error", USER.id, "error"],
      ["error", USER.id, "render"],
    ]);
    expect(items[0].metadata).toMatchObject({
      message: "Uncaught Error: early",
      source: "http://app.test/assets/a.js",
      lineno: 3,
      colno: 4,
    });
    expect(items[1].metadata).toMatchObject({
      message: "Error: cannot draw this",
      source: expect.stringMatching(/^at Broken\b/),
    });
  }, 10_000);
});
