import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { RequireSession } from "#src/features/auth/require-session.tsx";
import { registerSessionRuntime, setSessionView } from "#src/state/session-store.ts";

afterEach(cleanup);

registerSessionRuntime(async () => ({ signOut: async () => ({ ok: true as const }) }));

afterEach(() => setSessionView({ status: "checking", user: null, verified: false }));

function renderAt(path: string, leaving = false) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <RequireSession leaving={leaving}>
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

  it("sends nobody to /auth while its page is being left, and does once it is the page again", async () => {
    setSessionView({ status: "checking", user: null, verified: false });
    const location = memoryLocation({ path: "/", record: true });
    const tree = (leaving: boolean) => (
      <Router hook={location.hook} searchHook={location.searchHook}>
        <RequireSession leaving={leaving}>
          <p>Billing details</p>
        </RequireSession>
      </Router>
    );
    const { rerender } = render(tree(true));
    await act(async () => setSessionView({ status: "signed-out", user: null, verified: true }));
    expect(location.history).toEqual(["/"]);
    rerender(tree(false));
    await act(async () => undefined);
    expect(location.history).toEqual(["/auth?from=%2F"]);
  });
});
