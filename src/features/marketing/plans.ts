// The three plans of docs/spec.md §9 and the notice every paid plan's button shows (docs/spec.md §8): subscriptions
// are not functional until a card payment provider is connected, so pressing a paid plan makes no
// call. Each plan lists only what it really gives: the tiers differ by their daily quota and nothing
// else (every style, batch generation and the gallery are the same for all), so the spec's extras
// that no tier has (high-res downloads, priority queue, custom styles, fastest speeds) are not listed.
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
};

export const PLANS: readonly Plan[] = [
  {
    name: TIER_PLAN_NAMES.free,
    price: 0,
    period: "month",
    features: [`${TIER_DAILY_QUOTA.free} generations/day`, `All ${STYLE_IDS.length} styles`, "Community gallery"],
    cta: "Start for free",
    popular: false,
    tier: "free",
  },
  {
    name: TIER_PLAN_NAMES.pro,
    price: 9.99,
    period: "month",
    features: [
      `${TIER_DAILY_QUOTA.pro.toLocaleString("en-US")} generations/day`,
      `Everything in ${TIER_PLAN_NAMES.free}`,
    ],
    cta: `Choose ${TIER_PLAN_NAMES.pro}`,
    popular: true,
    tier: "pro",
  },
  {
    name: TIER_PLAN_NAMES.premium,
    price: 19.99,
    period: "month",
    features: [
      `${TIER_DAILY_QUOTA.premium.toLocaleString("en-US")} generations/day`,
      `Everything in ${TIER_PLAN_NAMES.free}`,
    ],
    cta: `Choose ${TIER_PLAN_NAMES.premium}`,
    popular: false,
    tier: "premium",
  },
];

export { formatPrice } from "../../ui/plan-card";
