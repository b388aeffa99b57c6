// Subscription tiers and their daily quotas (spec §9). The database's `tier_quotas` table repeats these
// numbers (the server enforces them); a db test proves the table equals this list.

export const TIERS = ["free", "pro", "premium"] as const;
export type Tier = (typeof TIERS)[number];

export const TIER_DAILY_QUOTA: Readonly<Record<Tier, number>> = { free: 5, pro: 999, premium: 9999 };

/** The rate-limit alert shows at this many remaining generations or fewer (spec §4). */
export const LIMIT_ALERT_AT = 2;
