import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { ONBOARDING_KEY } from "#src/features/onboarding/onboarding-storage.ts";
import { setSessionView } from "#src/state/session-store.ts";

const account = vi.hoisted(() => ({ completed: null as boolean | null, marked: 0 }));
vi.mock("#src/api/onboarding-flag.ts", () => ({
  accountOnboardingCompleted: async () => account.completed,
  markAccountOnboardingCompleted: async () => {
    account.marked += 1;
    account.completed = true;
    return { ok: true, value: undefined };
  },
}));

const { OnboardingGate } = await import("#src/features/onboarding/onboarding-gate.tsx");

const signIn = () =>
  setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });

beforeEach(() => {
  localStorage.clear();
  account.completed = null;
  account.marked = 0;
  setSessionView({ status: "signed-out", user: null, verified: true });
  // jsdom has no modal dialogs; the component falls back to the open attribute.
  HTMLDialogElement.prototype.showModal = undefined as unknown as () => void;
});
afterEach(cleanup);

function renderGate(path = "/") {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook}>
      <OnboardingGate />
    </Router>,
  );
  return location;
}

async function openAfterDelay() {
  await act(async () => {
    vi.advanceTimersByTime(1_000);
  });
  vi.useRealTimers();
  return screen.findByRole("dialog", {}, { timeout: 3_000 });
}

describe("onboarding", () => {
  it("opens about one second after the first load, not before", async () => {
    vi.useFakeTimers();
    renderGate();
    await act(async () => {
      vi.advanceTimersByTime(900);
    });
    expect(screen.queryByRole("dialog")).toBeNull();
    const dialog = await openAfterDelay();
    expect(dialog.textContent).toContain("Welcome to PromptCanvas");
  });

  it("walks Welcome, Choose Your Style and Start Creating with the product's true claims", async () => {
    vi.useFakeTimers();
    renderGate();
    await openAfterDelay();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("heading", { name: "Choose Your Style" })).toBeTruthy();
    expect(screen.getByText(/^27 styles/)).toBeTruthy();
    expect(screen.getAllByRole("radio")).toHaveLength(6);
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("heading", { name: "Start Creating" })).toBeTruthy();
    const text = screen.getByRole("dialog").textContent ?? "";
    expect(text).toContain("built-in procedural renderer");
    expect(text).toContain("not an AI model");
    expect(text).toContain("FLUX Schnell, Dev and Pro");
    // Words for the person creating, not for whoever runs the site.
    expect(text).not.toMatch(/operator|Replicate|configured/);
    expect(text).not.toContain("30+");
  });

  it("Skip marks it done and it does not come back", async () => {
    vi.useFakeTimers();
    renderGate();
    await openAfterDelay();
    await userEvent.setup().click(screen.getByRole("button", { name: "Skip" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(localStorage.getItem(ONBOARDING_KEY)).toBe("true");
    cleanup();
    vi.useFakeTimers();
    renderGate();
    await act(async () => {
      vi.advanceTimersByTime(5_000);
    });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("Get Started marks it done and opens the generator with the chosen style", async () => {
    vi.useFakeTimers();
    const location = renderGate("/pricing");
    await openAfterDelay();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("radio", { name: /Anime/ }));
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Get Started" }));
    expect(localStorage.getItem(ONBOARDING_KEY)).toBe("true");
    expect(location.history.at(-1)).toBe("/generate?style=anime");
  });

  it("stays away from the sign-in pages", async () => {
    vi.useFakeTimers();
    renderGate("/auth");
    await act(async () => {
      vi.advanceTimersByTime(5_000);
    });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("is not offered to a person who completed it on another device, and this browser remembers that", async () => {
    signIn();
    account.completed = true;
    vi.useFakeTimers();
    renderGate("/generate");
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    vi.useRealTimers();
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(localStorage.getItem(ONBOARDING_KEY)).toBe("true");
    expect(account.marked).toBe(0);
  });

  it("keeps a completion with the account: Skip while signed in, and one made here before signing in", async () => {
    signIn();
    account.completed = false;
    vi.useFakeTimers();
    renderGate();
    await openAfterDelay();
    await userEvent.setup().click(screen.getByRole("button", { name: "Skip" }));
    await waitFor(() => expect(account.marked).toBe(1));
    cleanup();

    // Finished while a visitor; signed in later, the account learns it without a second tour.
    account.completed = false;
    account.marked = 0;
    renderGate();
    await waitFor(() => expect(account.marked).toBe(1));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  /** Signed in and offline, the tour is skipped; answers the browser's connection state to turn it back on. */
  async function skipOffline() {
    signIn();
    account.completed = false;
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    vi.useFakeTimers();
    renderGate();
    await openAfterDelay();
    await userEvent.setup().click(screen.getByRole("button", { name: "Skip" }));
    expect(localStorage.getItem(ONBOARDING_KEY)).toBe("true");
    return () => {
      onLine.mockReturnValue(true);
      window.dispatchEvent(new Event("online"));
    };
  }
  afterEach(() => vi.restoreAllMocks());

  it("a Skip made offline is kept with the account once the connection returns, not sent before", async () => {
    const reconnect = await skipOffline();
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(account.marked).toBe(0);
    reconnect();
    await waitFor(() => expect(account.marked).toBe(1));
  });

  it("a completion waiting for the connection is dropped when its person signs out meanwhile", async () => {
    const reconnect = await skipOffline();
    setSessionView({ status: "signed-out", user: null, verified: true });
    reconnect();
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(account.marked).toBe(0);
  });
});
