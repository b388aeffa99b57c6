import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import PricingPage from "#src/features/marketing/pricing-page.tsx";
import { setSessionView } from "#src/state/session-store.ts";
import { toasts } from "#src/state/toasts.ts";
import { leavePage } from "#src/ui/plan-card.tsx";
import { Toaster } from "#src/ui/toaster.tsx";

const { choosePlan } = vi.hoisted(() => ({ choosePlan: vi.fn() }));
vi.mock("#src/api/billing.ts", () => ({ choosePlan }));

afterEach(() => {
  setSessionView({ status: "signed-out", user: null, verified: true });
  cleanup();
  toasts.items.splice(0);
  vi.restoreAllMocks();
});

function renderPricing() {
  const location = memoryLocation({ path: "/pricing", record: true });
  render(
    <Router hook={location.hook}>
      <PricingPage />
      <Toaster />
    </Router>,
  );
  return location;
}

describe("/pricing", () => {
  it("shows the three plans of docs/spec.md §9 with Creator marked most popular", () => {
    renderPricing();
    const plans = screen.getByRole("region", { name: "Plans" });
    for (const [name, price] of [
      ["Free", "$0"],
      ["Creator", "$9.99"],
      ["Pro", "$19.99"],
    ]) {
      const heading = within(plans).getByRole("heading", { level: 2, name });
      const card = heading.closest("li")!;
      expect(card.textContent).toContain(`${price}/month`);
    }
    const creator = within(plans).getByRole("heading", { name: "Creator" }).closest("li")!;
    expect(within(creator).getByText("Most popular")).toBeTruthy();
    expect(creator.textContent).toContain("999 generations/day");
  });

  it("compares the plans in one table whose prices may wrap after the slash on a phone, never inside a word", () => {
    renderPricing();
    const table = screen.getByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Feature", "Free", "Creator", "Pro"]);
    const price = within(table).getByRole("row", { name: /^Price/ });
    const cells = within(price).getAllByRole("cell");
    expect(cells.map((c) => c.textContent)).toEqual(["$0/month", "$9.99/month", "$19.99/month"]);
    for (const cell of cells) expect(cell.innerHTML).toMatch(/\/<wbr>month$/);
    expect(table.className).toContain("table-fixed");
  });

  it("lists only what each plan really gives: no unlimited, high-res or fastest-speed claims", () => {
    renderPricing();
    const text = document.body.textContent ?? "";
    for (const claim of [/fastest speeds/i, /high-res/i, /unlimited/i]) expect(text).not.toMatch(claim);
    const plans = screen.getByRole("region", { name: "Plans" });
    const card = (name: string) => within(plans).getByRole("heading", { name }).closest("li")!.textContent;
    expect(card("Free")).toContain("Batch generation, up to 10 at once");
    expect(card("Creator")).toContain("Priority queue");
    expect(card("Pro")).toContain("Custom styles");
    expect(card("Pro")).toContain("9,999 generations/day");
  });

  it("sends a visitor's free plan button to sign-up", () => {
    renderPricing();
    const free = within(screen.getByRole("region", { name: "Plans" })).getByRole("link", { name: /^Start for free/ });
    expect(free.getAttribute("href")).toBe("/auth?mode=sign-up");
  });

  it("sends a visitor who presses a paid plan to sign in first, to continue on /billing, and makes no call", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const location = renderPricing();
    const user = userEvent.setup();
    await user.click(
      within(screen.getByRole("region", { name: "Plans" })).getByRole("button", { name: /^Choose Pro/ }),
    );
    expect(location.history.at(-1)).toBe(`/auth?from=${encodeURIComponent("/billing?choose=pro")}`);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("answers a signed-in person's paid plan with what the billing function says: the notice, or the checkout", async () => {
    setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
    const leave = vi.spyOn(leavePage, "to").mockImplementation(() => undefined);
    choosePlan.mockResolvedValueOnce({ kind: "notice" });
    choosePlan.mockResolvedValueOnce({ kind: "redirect", url: "https://checkout.stripe.test/cs_1" });
    renderPricing();
    const user = userEvent.setup();
    const plans = within(screen.getByRole("region", { name: "Plans" }));
    await user.click(plans.getByRole("button", { name: /^Choose Creator/ }));
    const notices = within(screen.getByRole("region", { name: "Notices" }));
    expect(await notices.findByText("Connect Supabase + Stripe to enable subscriptions.")).toBeTruthy();
    expect(choosePlan).toHaveBeenLastCalledWith("creator");
    await user.click(plans.getByRole("button", { name: /^Choose Pro/ }));
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith("https://checkout.stripe.test/cs_1"));
    expect(choosePlan).toHaveBeenLastCalledWith("pro");
  });
});
