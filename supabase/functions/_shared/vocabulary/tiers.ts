// Subscription tiers and their daily quotas (docs/spec.md §9). The database's `tier_quotas` table repeats these
// numbers (the server enforces them); a db test proves the table equals this list.

export const TIERS = ["free", "pro", "premium"] as const;
export type Tier = (typeof TIERS)[number];

export const TIER_DAILY_QUOTA: Readonly<Record<Tier, number>> = { free: 5, pro: 999, premium: 9999 };

/** The rate-limit alert shows at this many remaining generations or fewer (docs/spec.md §4). */
export const LIMIT_ALERT_AT = 2;

/** The tier of an account with no subscription, and of one whose tier is not known yet. */
export const DEFAULT_TIER: Tier = "free";

export const isTier = (value: unknown): value is Tier => TIERS.includes(value as Tier);

/**
 * The plan name people see for each tier (docs/spec.md §9): the database says free / pro / premium, the
 * pricing cards, billing and the dashboard say Free / Creator / Pro.
 */
export const TIER_PLAN_NAMES: Readonly<Record<Tier, string>> = { free: "Free", pro: "Creator", premium: "Pro" };

/** The plan name of a tier as stored; a tier the product does not know is shown as it is. */
export function planNameFor(tier: string): string {
  return isTier(tier) ? TIER_PLAN_NAMES[tier] : tier;
}
