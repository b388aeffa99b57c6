import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { RequireSession } from "#src/features/auth/require-session.tsx";
import { registerSessionRuntime, setSessionView } from "#src/state/session-store.ts";

afterEach(cleanup);

registerSessionRuntime(async () => ({ signOut: async () => ({ ok: true as const }) }));

afterEach(() => setSessionView({ status: "checking", user: null, verified: false }));

function renderAt(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <RequireSession>
        <p>Billing details</p>
      </RequireSession>
    </Router>,
  );
  return location;
}

describe("RequireSession", () => {
  it("shows 'Checking session…' until the session is known", async () => {
    setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: false });
    const location = renderAt("/billing");
    expect(await screen.findByText("Checking session…")).toBeTruthy();
    expect(screen.queryByText("Billing details")).toBeNull();
    expect(location.history).toEqual(["/billing"]);
  });

  it("replaces the entry with /auth carrying the requested path when signed out", async () => {
    setSessionView({ status: "checking", user: null, verified: false });
    const location = renderAt("/history?page=2");
    await act(async () => setSessionView({ status: "signed-out", user: null, verified: true }));
    expect(location.history).toEqual(["/auth?from=%2Fhistory%3Fpage%3D2"]);
  });

  it("shows the page once a session is confirmed", async () => {
    setSessionView({ status: "checking", user: null, verified: false });
    const location = renderAt("/billing");
    await act(async () =>
      setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true }),
    );
    expect(screen.getByText("Billing details")).toBeTruthy();
    expect(location.history).toEqual(["/billing"]);
  });
});
