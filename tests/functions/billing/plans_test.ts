// What a Stripe subscription means for the tier (supabase/functions/_shared/billing/plans.ts): the plan
// by its price, and until when the tier holds with no further word from Stripe.
import assert from "node:assert/strict";
import type { Stripe } from "../../../supabase/functions/_shared/billing/config.ts";
import { currentOf, GRACE_DAYS, viewOf } from "../../../supabase/functions/_shared/billing/plans.ts";

const PRICES = { creator: "price_creator", pro: "price_pro" };
const DAY = 86_400;
const START = Date.parse("2026-11-01T00:00:00Z") / 1000;
const END = START + 30 * DAY;
const iso = (s: number) => new Date(s * 1000).toISOString();

/** A subscription in the shape of API version 2026-10-28: the period lives on its item. */
function sub(fields: Partial<Record<string, unknown>> & { price?: string } = {}): Stripe.Subscription {
  const { price = PRICES.creator, ...rest } = fields;
  return {
    id: `sub_${crypto.randomUUID().slice(0, 8)}`,
    object: "subscription",
    status: "active",
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    created: START,
    items: { data: [{ price: { id: price }, current_period_start: START, current_period_end: END }] },
    ...rest,
  } as unknown as Stripe.Subscription;
}

Deno.test("an active subscription gives its plan's tier until a week after its period's end", () => {
  const v = viewOf(sub(), PRICES)!;
  assert.deepEqual(v, {
    status: "active",
    plan: "creator",
    tier: "pro",
    current_period_end: iso(END),
    cancel_at_period_end: false,
    ends_at: null,
    grace_until: null,
    paid_until: iso(END + GRACE_DAYS * DAY),
  });
  assert.equal(viewOf(sub({ price: PRICES.pro }), PRICES)!.tier, "premium");
});

Deno.test("a cancelled subscription keeps its tier to the period's end, or to its cancel_at", () => {
  const atEnd = viewOf(sub({ cancel_at_period_end: true }), PRICES)!;
  assert.equal(atEnd.ends_at, iso(END));
  assert.equal(atEnd.paid_until, iso(END));
  const at = viewOf(sub({ cancel_at: END - DAY }), PRICES)!;
  assert.deepEqual([at.cancel_at_period_end, at.ends_at, at.paid_until], [true, iso(END - DAY), iso(END - DAY)]);
});

Deno.test("a failed renewal keeps the tier for the grace period from the renewal, then nothing", () => {
  const v = viewOf(sub({ status: "past_due" }), PRICES)!;
  assert.equal(v.grace_until, iso(START + GRACE_DAYS * DAY));
  assert.equal(v.paid_until, v.grace_until);
  for (const status of ["unpaid", "canceled", "incomplete", "incomplete_expired", "paused"]) {
    assert.equal(viewOf(sub({ status, ended_at: END }), PRICES)!.paid_until, null, status);
  }
});

Deno.test("a subscription to a price that is not one of the plans means nothing", () => {
  assert.equal(viewOf(sub({ price: "price_other" }), PRICES), null);
  assert.equal(currentOf([sub({ price: "price_other" })], PRICES), null);
});

Deno.test("the live subscription speaks for the person, then the higher tier, then the newest", () => {
  const old = sub({ status: "canceled", price: PRICES.pro, created: START + 5, ended_at: END });
  const live = sub({ created: START });
  assert.equal(currentOf([old, live], PRICES)!.subscription, live);
  const premium = sub({ price: PRICES.pro, created: START - 10 });
  assert.equal(currentOf([live, premium], PRICES)!.subscription, premium);
  const newer = sub({ status: "canceled", created: START + 9, ended_at: END });
  assert.equal(currentOf([old, newer], PRICES)!.subscription, newer);
});
