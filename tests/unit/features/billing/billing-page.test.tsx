import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "#src/db/db.ts";
import { PLANS, SUBSCRIPTION_NOTICE } from "#src/features/marketing/plans.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { dismissToast, toasts } from "#src/state/toasts.ts";

const { default: BillingPage } = await import("#src/features/billing/billing-page.tsx");

function renderPage() {
  const location = memoryLocation({ path: "/billing" });
  render(
    <Router hook={location.hook}>
      <BillingPage plans={PLANS} notice={SUBSCRIPTION_NOTICE} />
    </Router>,
  );
}

beforeEach(async () => {
  await db.limits.clear();
  setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const t of [...toasts.items]) dismissToast(t.id);
  setSessionView({ status: "signed-out", user: null, verified: true });
});

describe("billing page", () => {
  it("shows the current tier as its plan", async () => {
    await db.limits.put({
      userId: "u1",
      generationsToday: 3,
      dailyLimit: 999,
      remaining: 996,
      resetAt: "2026-11-23T00:00:00.000Z",
      tier: "pro",
      checkedAt: "2026-11-22T10:00:00.000Z",
    });
    renderPage();
    expect(await screen.findByRole("heading", { name: "Current plan: Creator" })).toBeTruthy();
    expect(screen.getByText("999 generations a day, 996 left today.")).toBeTruthy();
    expect(screen.getAllByText("Your plan")).toHaveLength(1);
  });

  it("answers every plan button with the notice and makes no call", async () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    renderPage();
    const buttons = ["Start for free", "Choose Creator", "Choose Pro"].map((cta) =>
      screen.getByRole("button", { name: new RegExp(`^${cta}:`) }),
    );
    for (const b of buttons) await userEvent.click(b);
    expect(toasts.items.map((t) => t.title)).toEqual([
      "Connect Supabase + Stripe to enable subscriptions.",
      "Connect Supabase + Stripe to enable subscriptions.",
      "Connect Supabase + Stripe to enable subscriptions.",
    ]);
    expect(fetch).not.toHaveBeenCalled();
  });
});
