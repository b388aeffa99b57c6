import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { row, seed } from "../library/seed.ts";
import { renderAt } from "../../../support/render-at.tsx";
import { signedInDevice } from "../../../support/signed-in.ts";

vi.mock("#src/api/library.ts", () => ({
  SIGNED_URL_SECONDS: 3600,
  signedImageUrl: vi.fn(async () => ({ ok: false, error: { message: "offline" } })),
}));
const { default: DashboardPage } = await import("#src/features/dashboard/dashboard-page.tsx");

const limits = {
  remaining: 2,
  dailyLimit: 5,
  resetAt: "2026-11-23T00:00:00.000Z",
  tier: "free",
  checkedAt: "2026-11-22T10:00:00.000Z",
  stale: false,
};

function renderPage(view: typeof limits | null, countdown = { label: "03:04:05", past: false }) {
  renderAt("/dashboard", <DashboardPage quota={{ useLimits: () => view, useCountdown: () => countdown }} />);
}

signedInDevice();

describe("dashboard page", () => {
  it("shows today's usage against the limit, the countdown and the plan", () => {
    renderPage(limits);
    const usage = screen.getByRole("region", { name: "Today's usage" });
    expect(usage.textContent).toContain("3 of 5 generations used today");
    expect(usage.textContent).toContain("2 left · Resets in 03:04:05");
    expect(within(usage).getByRole("link", { name: "Free plan" }).getAttribute("href")).toBe("/billing");
    expect(within(usage).getByRole("progressbar", { name: "Generations used today" })).toHaveProperty("value", 3);
  });

  it("says Resetting... once the reset time has passed", () => {
    renderPage(limits, { label: "00:00:00", past: true });
    expect(screen.getByRole("region", { name: "Today's usage" }).textContent).toContain("Resetting...");
  });

  it("counts what was made, saved and published, and shows the newest", async () => {
    await seed([
      row({ prompt: "one", is_saved: true, is_public: true }),
      row({ prompt: "two", is_saved: true }),
      row({ prompt: "three" }),
      row({ prompt: "not mine", user_id: "u2", is_saved: true }),
    ]);
    renderPage(null);
    const library = screen.getByRole("region", { name: "Your library" });
    await waitFor(() => {
      const values = within(library)
        .getAllByRole("definition")
        .map((d) => d.textContent);
      expect(values).toEqual(["3", "2", "1"]);
    });
    const recent = within(library).getByRole("list", { name: "Recent generations" });
    expect(
      within(recent)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["three", "two", "one"]);
  });

  it("welcomes a new account, and welcomes back a person who has made images", async () => {
    renderPage(null);
    expect(await screen.findByText(/^Welcome to PromptCanvas, a@example.com\./)).toBeTruthy();
    expect(screen.queryByText(/Welcome back/)).toBeNull();
    await seed([row({ prompt: "one" })]);
    expect(await screen.findByText("Welcome back, a@example.com.")).toBeTruthy();
  });
});
