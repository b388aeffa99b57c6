// The words /billing and the payment-success page use for a plan's state (pure, so they are tested alone):
// the plan's name, its status (active, cancels on a date, past due with its grace), the date it renews or
// ends, and an invoice's amount.
import type { BillingInvoice, BillingSubscription } from "../../api/billing";

export function formatDate(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ""
    : date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}

export function formatAmount(invoice: Pick<BillingInvoice, "amountPaid" | "currency">): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: invoice.currency.toUpperCase() }).format(
      invoice.amountPaid / 100,
    );
  } catch {
    return `${(invoice.amountPaid / 100).toFixed(2)} ${invoice.currency.toUpperCase()}`;
  }
}

/** A subscription the person still has (the server answers the portal for it, never a second checkout). */
export function isLive(subscription: BillingSubscription | null): boolean {
  return ["active", "trialing", "past_due", "unpaid", "paused"].includes(subscription?.status ?? "");
}

export type StatusText = { label: string; tone: "success" | "warning" | "error" | "neutral"; detail: string };

/** The subscription's state in words: what it is now and the date that matters next. */
export function statusText(subscription: BillingSubscription | null): StatusText {
  if (!subscription) {
    return { label: "No subscription", tone: "neutral", detail: "Nothing is charged on the free plan." };
  }
  const periodEnd = formatDate(subscription.currentPeriodEnd);
  const endsOn = formatDate(subscription.endsAt) || periodEnd;
  if (subscription.status === "past_due" || subscription.status === "unpaid") {
    const grace = formatDate(subscription.graceUntil);
    return {
      label: "Past due",
      tone: "error",
      detail: grace
        ? `The last renewal could not be charged. Your plan stays until ${grace}; update your card in Manage billing to keep it.`
        : "The last renewal could not be charged. Update your card in Manage billing to keep your plan.",
    };
  }
  if (subscription.status === "canceled" || subscription.status === "incomplete_expired") {
    return { label: "Ended", tone: "neutral", detail: endsOn ? `Ended on ${endsOn}.` : "This subscription has ended." };
  }
  if (subscription.cancelAtPeriodEnd) {
    return {
      label: endsOn ? `Cancels on ${endsOn}` : "Cancels at the period's end",
      tone: "warning",
      detail: `Your plan stays until then, and nothing more is charged. You can renew it in Manage billing before then.`,
    };
  }
  if (subscription.status === "active" || subscription.status === "trialing") {
    return { label: "Active", tone: "success", detail: periodEnd ? `Renews on ${periodEnd}.` : "Renews every month." };
  }
  return { label: subscription.status.replace(/_/g, " "), tone: "neutral", detail: "" };
}
