import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dismissToast, showToast, toasts } from "#src/state/toasts.ts";
import { Toaster } from "#src/ui/toaster.tsx";

afterEach(() => {
  for (const t of [...toasts.items]) dismissToast(t.id);
});

describe("toaster", () => {
  it("runs a callback action (Retry) and then dismisses the notice", async () => {
    const retry = vi.fn();
    render(<Toaster />);
    act(() => {
      showToast({
        tone: "error",
        title: "Connection Failed",
        message: "Check your internet connection and try again",
        action: { label: "Retry", onClick: retry },
      });
    });
    await userEvent.click(await screen.findByRole("button", { name: "Retry" }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("Connection Failed")).toBeNull();
  });

  it("opens a path action as a link", async () => {
    const location = memoryLocation({ path: "/generate", record: true });
    render(
      <Router hook={location.hook}>
        <Toaster />
      </Router>,
    );
    act(() => {
      showToast({ tone: "error", title: "Daily Limit Reached", action: { label: "Upgrade Now", to: "/pricing" } });
    });
    await userEvent.click(await screen.findByRole("link", { name: "Upgrade Now" }));
    expect(location.history).toContain("/pricing");
  });

  it("keeps a notice for 5 s, then removes it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    render(<Toaster />);
    await act(async () => {
      showToast({ tone: "info", title: "Hello" });
    });
    await act(async () => vi.advanceTimersByTime(4_900));
    expect(screen.getByText("Hello")).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(200));
    expect(screen.queryByText("Hello")).toBeNull();
  });
});
