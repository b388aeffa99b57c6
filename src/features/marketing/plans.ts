// The three plans of spec §9 and the notice every plan button shows (spec §8): subscriptions are not
// functional until a card payment provider is connected, so pressing a plan makes no call.
import { TIER_DAILY_QUOTA, type Tier } from "#shared/vocabulary/tiers.ts";

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
    name: "Free",
    price: 0,
    period: "month",
    features: [`${TIER_DAILY_QUOTA.free} generations/day`, "Basic styles", "Community gallery"],
    cta: "Start for free",
    popular: false,
    tier: "free",
  },
  {
    name: "Creator",
    price: 9.99,
    period: "month",
    features: ["Unlimited prompts", "High-res downloads", "Priority queue"],
    cta: "Choose Creator",
    popular: true,
    tier: "pro",
  },
  {
    name: "Pro",
    price: 19.99,
    period: "month",
    features: ["Batch generation", "Custom styles", "Fastest speeds"],
    cta: "Choose Pro",
    popular: false,
    tier: "premium",
  },
];

export function formatPrice(price: number): string {
  return price === 0 ? "$0" : `$${price.toFixed(2)}`;
}
