// The plan name people see for each quota tier (spec §9): the database says free / pro / premium,
// the pricing cards say Free / Creator / Pro.
import type { Tier } from "#shared/vocabulary/tiers.ts";

export const TIER_PLAN_NAMES: Readonly<Record<Tier, string>> = { free: "Free", pro: "Creator", premium: "Pro" };

export function planNameFor(tier: string): string {
  return TIER_PLAN_NAMES[tier as Tier] ?? tier;
}
