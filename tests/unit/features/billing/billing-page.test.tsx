// /billing (issue 45): the plan and its status from the billing summary (kept on the device, so offline
// shows the last known one, labelled so), the invoices, Manage billing, the plan buttons (Checkout, the
// portal for a plan the person has, the spec's notice with no payment provider) and a choice made before
// signing in continued.
import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BillingSummary } from "#src/api/billing.ts";
import { keepBillingSummary } from "#src/db/billing-summary.ts";
import { db } from "#src/db/db.ts";
import { PLANS, SUBSCRIPTION_NOTICE } from "#src/features/marketing/plans.ts";
import { err, ok } from "#src/lib/result.ts";
import { appErrorOf } from "#src/api/errors.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { toasts } from "#src/state/toasts.ts";
import { leavePage } from "#src/ui/plan-card.tsx";
import { Toaster } from "#src/ui/toaster.tsx";
import { renderAt } from "../../../support/render-at.tsx";
import { CREATOR_SUMMARY } from "../../../support/billing-summary.ts";

const api = vi.hoisted(() => ({ fetchBillingSummary: vi.fn(), choosePlan: vi.fn(), manageBilling: vi.fn() }));
vi.mock("#src/api/billing.ts", () => api);

const { default: BillingPage } = await import("#src/features/billing/billing-page.tsx");

const CREATOR = CREATOR_SUMMARY;
const FREE: BillingSummary = { configured: true, testMode: true, tier: "free", subscription: null, invoices: [] };

function renderPage(path = "/billing") {
  return renderAt(
    path,
    <>
      <BillingPage plans={PLANS} notice={SUBSCRIPTION_NOTICE} />
      <Toaster />
    </>,
  );
}

const limits = (tier: "free" | "pro", dailyLimit: number, remaining: number) =>
  db.limits.put({
    userId: "u1",
    generationsToday: dailyLimit - remaining,
    dailyLimit,
    remaining,
    resetAt: "2026-11-27T00:00:00.000Z",
    tier,
    checkedAt: "2026-11-26T10:00:00.000Z",
  });

beforeEach(async () => {
  await db.limits.clear();
  await db.meta.clear();
  setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  for (const f of Object.values(api)) f.mockReset();
  toasts.items.splice(0);
  setSessionView({ status: "signed-out", user: null, verified: true });
});

describe("billing page", () => {
  it("shows the plan, its renewal, the test-payments mark and the invoices with amounts, dates and links", async () => {
    api.fetchBillingSummary.mockResolvedValue(ok(CREATOR));
    await limits("pro", 999, 996);
    renderPage();
    expect(await screen.findByRole("heading", { name: "Current plan: Creator" })).toBeTruthy();
    expect(await screen.findByText("Renews on December 26, 2026.")).toBeTruthy();
    expect(screen.getByText("Active")).toBeTruthy();
    expect(screen.getByText("Test payments")).toBeTruthy();
    expect(screen.getByText("999 generations a day, 996 left today.", { exact: false })).toBeTruthy();
    const row = within(screen.getByRole("table")).getByRole("row", { name: /STANDIN-0001/ });
    expect(row.textContent).toContain("$9.99");
    expect(row.textContent).toContain("November 26, 2026");
    expect(within(row).getByRole("link", { name: /^View/ }).getAttribute("href")).toBe(
      "https://invoice.stripe.test/in_1",
    );
    expect(screen.queryByText(/Last known plan/)).toBeNull();
  });

  it("opens the billing portal from Manage billing, and from the plan the person has", async () => {
    api.fetchBillingSummary.mockResolvedValue(ok(CREATOR));
    api.manageBilling.mockResolvedValue({ kind: "redirect", url: "https://portal.stripe.test/bps_1" });
    api.choosePlan.mockResolvedValue({ kind: "redirect", url: "https://portal.stripe.test/bps_2" });
    const leave = vi.spyOn(leavePage, "to").mockImplementation(() => undefined);
    await limits("pro", 999, 999);
    renderPage();
    const user = userEvent.setup();
    await vi.waitFor(
      () => expect(screen.getAllByRole("button", { name: /^Manage billing: Creator plan/ })).toHaveLength(2),
      { timeout: 5_000 },
    );
    await user.click(screen.getAllByRole("button", { name: /^Manage billing: Creator plan/ })[0]);
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith("https://portal.stripe.test/bps_1"));
    // The Free card's action is the portal too (a plan ends by cancelling it there).
    expect(screen.getByRole("button", { name: /^Manage billing: Free plan/ })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: /^Choose Pro/ }));
    await vi.waitFor(() => expect(api.choosePlan).toHaveBeenCalledWith("pro"));
  });

  it("says when a cancelled plan ends, and how long a failed renewal's grace lasts", async () => {
    const cancelling = { ...CREATOR, subscription: { ...CREATOR.subscription!, cancelAtPeriodEnd: true } };
    api.fetchBillingSummary.mockResolvedValue(ok(cancelling));
    renderPage();
    expect(await screen.findByText("Cancels on December 26, 2026")).toBeTruthy();
    cleanup();
    const pastDue = {
      ...CREATOR,
      subscription: { ...CREATOR.subscription!, status: "past_due", graceUntil: "2027-01-02T10:00:00.000Z" },
    };
    api.fetchBillingSummary.mockResolvedValue(ok(pastDue));
    renderPage();
    expect(await screen.findByText("Past due")).toBeTruthy();
    expect(screen.getByText(/Your plan stays until January 2, 2027/)).toBeTruthy();
  });

  it("offline, shows the last known summary, labelled so, and the buttons say they need a connection", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    await keepBillingSummary("u1", CREATOR, db, () => new Date("2026-11-26T10:00:00.000Z"));
    renderPage();
    expect(await screen.findByRole("heading", { name: "Current plan: Creator" })).toBeTruthy();
    expect(screen.getByText(/Last known plan, as of November 26, 2026/)).toBeTruthy();
    expect(api.fetchBillingSummary).not.toHaveBeenCalled();
    const pro = screen.getByRole("button", { name: "Needs a connection: Pro plan" });
    expect((pro as HTMLButtonElement).disabled).toBe(true);
  });

  it("keeps the last known summary when the read fails, with the reason", async () => {
    await keepBillingSummary("u1", FREE, db);
    api.fetchBillingSummary.mockResolvedValue(err(appErrorOf("server_error", "down")));
    renderPage();
    expect(await screen.findByText(/Last known plan/)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Current plan: Free" })).toBeTruthy();
  });

  it("with no payment provider, a plan button shows the spec's notice", async () => {
    api.fetchBillingSummary.mockResolvedValue(ok({ ...FREE, configured: false, testMode: false }));
    api.choosePlan.mockResolvedValue({ kind: "notice" });
    renderPage();
    const user = userEvent.setup();
    expect(await screen.findAllByText(SUBSCRIPTION_NOTICE)).toHaveLength(1);
    expect(screen.queryByRole("button", { name: /^Manage billing/ })).toBeNull();
    await user.click(screen.getByRole("button", { name: /^Choose Creator/ }));
    const notices = within(screen.getByRole("region", { name: "Notices" }));
    expect(await notices.findByText(SUBSCRIPTION_NOTICE)).toBeTruthy();
  });

  it("shows the server's sentence when payments cannot be reached, and nothing changes", async () => {
    api.fetchBillingSummary.mockResolvedValue(ok(FREE));
    const message = "Payments can't be reached right now. Nothing was charged; try again in a minute.";
    api.choosePlan.mockResolvedValue({ kind: "failed", title: "Payments Unavailable", message });
    const leave = vi.spyOn(leavePage, "to").mockImplementation(() => undefined);
    renderPage();
    await userEvent.setup().click(await screen.findByRole("button", { name: /^Choose Creator/ }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(leave).not.toHaveBeenCalled();
    expect((screen.getByRole("button", { name: /^Choose Creator/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("continues a plan chosen before signing in (?choose=creator), once", async () => {
    api.fetchBillingSummary.mockResolvedValue(ok(FREE));
    api.choosePlan.mockResolvedValue({ kind: "redirect", url: "https://checkout.stripe.test/cs_1" });
    const leave = vi.spyOn(leavePage, "to").mockImplementation(() => undefined);
    renderPage("/billing?choose=creator");
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith("https://checkout.stripe.test/cs_1"));
    expect(api.choosePlan).toHaveBeenCalledTimes(1);
    expect(api.choosePlan).toHaveBeenCalledWith("creator");
  });
});
