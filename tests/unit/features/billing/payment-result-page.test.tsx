// /payment-success runs the billing sync with Checkout's session id and shows the plan it answers, whatever
// the webhook did (issue 45); it says so while it checks, when it cannot, and when no payment provider is
// connected. /payment-canceled says nothing was charged.
import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BillingSummary } from "#src/api/billing.ts";
import { appErrorOf } from "#src/api/errors.ts";
import { getBillingSummary } from "#src/db/billing-summary.ts";
import { db } from "#src/db/db.ts";
import { err, ok } from "#src/lib/result.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { renderAt } from "../../../support/render-at.tsx";
import { CREATOR_SUMMARY } from "../../../support/billing-summary.ts";

const api = vi.hoisted(() => ({ syncBilling: vi.fn() }));
vi.mock("#src/api/billing.ts", () => api);

const { PaymentSuccessPage } = await import("#src/features/billing/payment-result-page.tsx");

const CREATOR: BillingSummary = { ...CREATOR_SUMMARY, invoices: [] };

beforeEach(async () => {
  await db.meta.clear();
  setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
});
afterEach(() => {
  cleanup();
  api.syncBilling.mockReset();
  vi.restoreAllMocks();
  setSessionView({ status: "signed-out", user: null, verified: true });
});

describe("/payment-success", () => {
  it("syncs with the checkout's session and shows the new plan, kept on the device", async () => {
    api.syncBilling.mockResolvedValue(ok(CREATOR));
    renderAt("/payment-success?session_id=cs_test_1", <PaymentSuccessPage />);
    expect(await screen.findByRole("heading", { level: 1, name: "Payment Successful" })).toBeTruthy();
    expect(screen.getByText("Creator")).toBeTruthy();
    expect(screen.getByText("Test payments")).toBeTruthy();
    expect(screen.getByText(/Renews on December 26, 2026/)).toBeTruthy();
    expect(api.syncBilling).toHaveBeenCalledWith("cs_test_1");
    expect((await getBillingSummary<BillingSummary>("u1", db))?.summary.tier).toBe("pro");
  });

  it("says it is confirming while the sync runs", () => {
    api.syncBilling.mockReturnValue(new Promise(() => undefined));
    renderAt("/payment-success?session_id=cs_test_1", <PaymentSuccessPage />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Confirming Your Payment");
  });

  it("when the sync fails, says the plan follows the payment anyway and checks again on request", async () => {
    api.syncBilling.mockResolvedValueOnce(err(appErrorOf("server_error", "down")));
    api.syncBilling.mockResolvedValueOnce(ok(CREATOR));
    renderAt("/payment-success?session_id=cs_test_1", <PaymentSuccessPage />);
    expect(await screen.findByText(/you need not pay again/)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole("button", { name: "Check again" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Payment Successful" })).toBeTruthy();
  });

  it("with no payment provider, says no payment was taken", async () => {
    api.syncBilling.mockResolvedValue(ok({ ...CREATOR, configured: false, tier: "free", subscription: null }));
    renderAt("/payment-success", <PaymentSuccessPage />);
    expect(await screen.findByRole("heading", { level: 1, name: "No Payment Was Taken" })).toBeTruthy();
    expect(api.syncBilling).toHaveBeenCalledWith(null);
  });

  it("asks a signed-out person to sign in, and returns them here", () => {
    setSessionView({ status: "signed-out", user: null, verified: true });
    renderAt("/payment-success?session_id=cs_test_1", <PaymentSuccessPage />);
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      `/auth?from=${encodeURIComponent("/payment-success?session_id=cs_test_1")}`,
    );
    expect(api.syncBilling).not.toHaveBeenCalled();
  });
});
