// Tier names, stated once (#shared/vocabulary/tiers.ts): the pricing cards, billing and the dashboard
// all show these.
import { describe, expect, it } from "vitest";
import { DEFAULT_TIER, TIERS, TIER_PLAN_NAMES, isTier, planNameFor } from "#shared/vocabulary/tiers.ts";
import { PLANS } from "#src/features/marketing/plans.ts";

describe("tier names", () => {
  it("names each tier's plan as people see it", () => {
    expect(TIERS.map(planNameFor)).toEqual(["Free", "Creator", "Pro"]);
    expect(planNameFor("enterprise")).toBe("enterprise");
    expect(isTier(DEFAULT_TIER)).toBe(true);
    expect(isTier("gold")).toBe(false);
  });

  it("gives the pricing cards the same names, one plan per tier", () => {
    expect(PLANS.map((p) => [p.tier, p.name])).toEqual(TIERS.map((t) => [t, TIER_PLAN_NAMES[t]]));
  });
});
