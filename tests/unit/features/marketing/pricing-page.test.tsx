import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import PricingPage from "#src/features/marketing/pricing-page.tsx";
import { toasts } from "#src/state/toasts.ts";
import { Toaster } from "#src/ui/toaster.tsx";

afterEach(() => {
  cleanup();
  toasts.items.splice(0);
  vi.restoreAllMocks();
});

function renderPricing() {
  const { hook } = memoryLocation({ path: "/pricing" });
  render(
    <Router hook={hook}>
      <PricingPage />
      <Toaster />
    </Router>,
  );
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

  it("lists no extra that no tier has", () => {
    renderPricing();
    const text = document.body.textContent ?? "";
    for (const claim of [/priority queue/i, /fastest speeds/i, /high-res/i, /custom styles/i, /unlimited/i]) {
      expect(text).not.toMatch(claim);
    }
  });

  it("sends a visitor's free plan button to sign-up", () => {
    renderPricing();
    const free = within(screen.getByRole("region", { name: "Plans" })).getByRole("link", { name: /^Start for free/ });
    expect(free.getAttribute("href")).toBe("/auth?mode=sign-up");
  });

  it("answers each paid plan's button with the subscription notice and makes no call", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    renderPricing();
    const user = userEvent.setup();
    const buttons = within(screen.getByRole("region", { name: "Plans" })).getAllByRole("button");
    expect(buttons).toHaveLength(2);
    for (const button of buttons) {
      await user.click(button);
      const notices = within(screen.getByRole("region", { name: "Notices" }));
      expect(notices.getAllByText("Connect Supabase + Stripe to enable subscriptions.").length).toBeGreaterThan(0);
    }
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
