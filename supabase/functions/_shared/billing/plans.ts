// What a Stripe subscription means here (decision 148): its plan (found by its price), the tier that plan
// gives, and until when the tier holds without further word from Stripe. Pure functions of what the sync
// read from Stripe, so every path that syncs (webhook, success page, checkout) writes the same thing.
import type { Plan, Stripe } from "./config.ts";

export const TIER_OF_PLAN: Record<Plan, "pro" | "premium"> = { creator: "pro", pro: "premium" };

/** How long a failed renewal keeps the paid tier (Stripe retries the payment meanwhile). */
export const GRACE_DAYS = 7;
/**
 * How long an active subscription's tier outlasts its period's end when no renewal has been heard of
 * (a lost event, Stripe unreachable): the next sync settles it. The same week as the grace.
 */
const RENEWAL_MARGIN_DAYS = 7;
const DAY_MS = 86_400_000;

/** Statuses of a subscription the person still has: a plan button leads to the portal, not a checkout. */
export const LIVE_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due", "unpaid", "paused"]);
const PAYING = new Set(["active", "trialing"]);

/** The subscription as the database keeps it (billing_apply_subscription's argument). */
export interface SubscriptionView {
  status: string;
  plan: Plan;
  tier: "pro" | "premium";
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  ends_at: string | null;
  grace_until: string | null;
  /** When the tier ends on its own; null when it gives nothing now. */
  paid_until: string | null;
}

const at = (ms: number | null | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/** The plan of a price id, or null for a price that is not one of ours. */
export function planOfPrice(prices: Record<Plan, string>, priceId: string | undefined): Plan | null {
  if (priceId === prices.creator) return "creator";
  if (priceId === prices.pro) return "pro";
  return null;
}

export function viewOf(sub: Stripe.Subscription, prices: Record<Plan, string>): SubscriptionView | null {
  const item = sub.items?.data?.[0];
  const plan = planOfPrice(prices, item?.price?.id);
  if (!plan) return null;
  const periodStart = (item?.current_period_start ?? 0) * 1000;
  const periodEnd = (item?.current_period_end ?? 0) * 1000;
  let endsMs: number | null = null;
  if (sub.status === "canceled") endsMs = (sub.ended_at ?? sub.canceled_at ?? 0) * 1000 || null;
  else if (sub.cancel_at) endsMs = sub.cancel_at * 1000;
  else if (sub.cancel_at_period_end) endsMs = periodEnd || null;
  const graceMs = sub.status === "past_due" && periodStart ? periodStart + GRACE_DAYS * DAY_MS : null;

  let paidMs: number | null = null;
  if (PAYING.has(sub.status)) paidMs = endsMs ?? (periodEnd ? periodEnd + RENEWAL_MARGIN_DAYS * DAY_MS : null);
  else if (graceMs) paidMs = endsMs ? Math.min(endsMs, graceMs) : graceMs;

  return {
    status: sub.status,
    plan,
    tier: TIER_OF_PLAN[plan],
    current_period_end: at(periodEnd),
    cancel_at_period_end: sub.cancel_at_period_end === true || (sub.cancel_at !== null && sub.cancel_at !== undefined),
    ends_at: at(endsMs),
    grace_until: at(graceMs),
    paid_until: at(paidMs),
  };
}

const STATUS_RANK: Record<string, number> = { active: 4, trialing: 4, past_due: 3, unpaid: 2, paused: 1 };

/**
 * The one subscription that speaks for the person: a live one before any other, then the higher tier,
 * then the newest. A person with no live subscription is shown their newest ended one.
 */
export function currentOf(
  subs: readonly Stripe.Subscription[],
  prices: Record<Plan, string>,
): { subscription: Stripe.Subscription; view: SubscriptionView } | null {
  const ours = subs
    .map((subscription) => ({ subscription, view: viewOf(subscription, prices) }))
    .filter((s): s is { subscription: Stripe.Subscription; view: SubscriptionView } => s.view !== null);
  const score = (s: { subscription: Stripe.Subscription; view: SubscriptionView }) => {
    const rank = STATUS_RANK[s.subscription.status] ?? 0;
    return [rank, rank > 0 && s.view.tier === "premium" ? 1 : 0, s.subscription.created ?? 0];
  };
  ours.sort((a, b) => {
    const [x, y] = [score(a), score(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return y[i] - x[i];
    return 0;
  });
  return ours[0] ?? null;
}

export const isLive = (sub: Stripe.Subscription) => LIVE_STATUSES.has(sub.status);
