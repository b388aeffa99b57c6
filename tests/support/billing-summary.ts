// A person's billing summary on Creator, as the billing function answers it (decision 148): the fixture the
// billing client's and pages' tests start from.
import type { BillingSummary } from "#src/api/billing.ts";

export const CREATOR_SUMMARY: BillingSummary = {
  configured: true,
  testMode: true,
  tier: "pro",
  subscription: {
    status: "active",
    plan: "creator",
    tier: "pro",
    currentPeriodEnd: "2026-12-26T10:00:00.000Z",
    cancelAtPeriodEnd: false,
    endsAt: null,
    graceUntil: null,
  },
  invoices: [
    {
      id: "in_1",
      number: "STANDIN-0001",
      amountPaid: 999,
      currency: "usd",
      status: "paid",
      created: "2026-11-26T10:00:00.000Z",
      hostedUrl: "https://invoice.stripe.test/in_1",
      pdfUrl: "https://invoice.stripe.test/in_1.pdf",
    },
  ],
};
