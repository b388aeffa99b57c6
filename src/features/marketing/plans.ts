// The three plans of docs/spec.md §9 and the notice every paid plan's button shows when no payment
// provider is connected (docs/spec.md §8). With one connected (Stripe, or its stand-in on one machine), a
// paid plan's button opens Stripe Checkout, or the billing portal for a person who already has a plan
// (issue 45, docs/decisions/150-client-billing.md). Each plan lists only what it really gives: the daily
// quota, priority in the built-in engine's render queue (paid plans' renders start first when it is busy,
// Pro's before Creator's) and custom styles (Pro). Every style, batch generation and the gallery are the
// same on every plan, so Free says so; the spec's "unlimited prompts", "high-res downloads" and "fastest
// speeds" are not listed, since no plan has them.
import { BATCH_MAX } from "#shared/vocabulary/generation.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { TIER_DAILY_QUOTA, TIER_PLAN_NAMES, type Tier } from "#shared/vocabulary/tiers.ts";

export const SUBSCRIPTION_NOTICE = "Connect Supabase + Stripe to enable subscriptions.";

export type Plan = {
  name: string;
  /** Dollars per period; 0 is the free plan. */
  price: number;
  period: "month";
  features: string[];
  cta: string;
  popular: boolean;
  /** The daily quota tier behind the plan (TIER_DAILY_QUOTA; public.tier_quotas repeats it). */
  tier: Tier;
  /** The plan a checkout asks the billing function for (the free plan is never bought). */
  checkout: "creator" | "pro" | null;
};

const perDay = (tier: Tier) => `${TIER_DAILY_QUOTA[tier].toLocaleString("en-US")} generations/day`;

export const PLANS: readonly Plan[] = [
  {
    name: TIER_PLAN_NAMES.free,
    price: 0,
    period: "month",
    features: [
      perDay("free"),
      `All ${STYLE_IDS.length} styles`,
      `Batch generation, up to ${BATCH_MAX} at once`,
      "Community gallery",
    ],
    cta: "Start for free",
    popular: false,
    tier: "free",
    checkout: null,
  },
  {
    name: TIER_PLAN_NAMES.pro,
    price: 9.99,
    period: "month",
    features: [
      perDay("pro"),
      `Priority queue: when the built-in engine is busy, your renders start before ${TIER_PLAN_NAMES.free}'s`,
      `Everything in ${TIER_PLAN_NAMES.free}`,
    ],
    cta: `Choose ${TIER_PLAN_NAMES.pro}`,
    popular: true,
    tier: "pro",
    checkout: "creator",
  },
  {
    name: TIER_PLAN_NAMES.premium,
    price: 19.99,
    period: "month",
    features: [
      perDay("premium"),
      `First in the queue: your renders start before ${TIER_PLAN_NAMES.pro}'s and ${TIER_PLAN_NAMES.free}'s`,
      "Custom styles: save your own, on every device",
      `Everything in ${TIER_PLAN_NAMES.pro}`,
    ],
    cta: `Choose ${TIER_PLAN_NAMES.premium}`,
    popular: false,
    tier: "premium",
    checkout: "pro",
  },
];

export { formatPrice } from "../../ui/plan-card";
