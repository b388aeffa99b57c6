// A subscription's life on the stand-in clock: renewals with paid invoices, a switch of plan and a cancel at
// the period's end from the portal page (and resume), the end at the period's end, a renewal that fails
// with Stripe's 0341 test card (past_due, retries, then canceled), and the API's update and cancel.
import assert from "node:assert/strict";
import { DAY, type Harness, withHarness } from "./harness.ts";

async function portalPost(h: Harness, customer: string, action: string, form: Record<string, string> = {}) {
  const portal = await h.stripe.billingPortal.sessions.create({ customer, return_url: "http://app.test/billing" });
  const res = await fetch(`${portal.url}/${action}`, {
    method: "POST",
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  await res.body?.cancel();
  assert.equal(res.status, 303, `${action}: ${res.status}`);
  await h.flush();
}

Deno.test("each period's end renews with a new paid invoice", () =>
  withHarness(async (h) => {
    const { customer, subscription } = await h.subscribed();
    const end = subscription.items.data[0].current_period_end;
    await h.advance(end - (await (await h.control("/__stripe/clock")).json()).now + 60);
    const renewed = await h.stripe.subscriptions.retrieve(subscription.id);
    assert.equal(renewed.status, "active");
    assert.equal(renewed.items.data[0].current_period_start, end);
    const invoices = (await h.stripe.invoices.list({ customer: customer.id })).data;
    assert.deepEqual(invoices.map((i) => [i.billing_reason, i.status, i.amount_paid]), [
      ["subscription_cycle", "paid", 999],
      ["subscription_create", "paid", 999],
    ]);
    assert.equal(renewed.latest_invoice, invoices[0].id);
    assert.ok(h.types().includes("invoice.paid"));
    assert.equal(h.types().at(-1), "customer.subscription.updated");
  }));

Deno.test("the portal switches the plan, cancels at the period's end and resumes; the end comes at the period's end", () =>
  withHarness(async (h) => {
    const { customer, subscription } = await h.subscribed();
    await portalPost(h, customer.id, "switch", { price: h.standIn.prices.pro });
    let sub = await h.stripe.subscriptions.retrieve(subscription.id);
    assert.equal(sub.items.data[0].price.id, h.standIn.prices.pro);
    await portalPost(h, customer.id, "cancel");
    sub = await h.stripe.subscriptions.retrieve(subscription.id);
    assert.equal(sub.cancel_at_period_end, true);
    assert.equal(sub.cancel_at, sub.items.data[0].current_period_end);
    await portalPost(h, customer.id, "resume");
    assert.equal((await h.stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end, false);
    await portalPost(h, customer.id, "cancel");
    await h.advance(20 * DAY);
    assert.equal((await h.stripe.subscriptions.retrieve(subscription.id)).status, "active", "kept until the end");
    await h.advance(15 * DAY);
    sub = await h.stripe.subscriptions.retrieve(subscription.id);
    assert.equal(sub.status, "canceled");
    assert.equal(sub.ended_at, sub.items.data[0].current_period_end);
    assert.equal(h.types().at(-1), "customer.subscription.deleted");
    assert.equal(
      (await h.stripe.subscriptions.list({ customer: customer.id })).data.length,
      0,
      "canceled ones are not listed",
    );
    assert.equal((await h.stripe.subscriptions.list({ customer: customer.id, status: "all" })).data.length, 1);
    assert.equal((await h.stripe.invoices.list({ customer: customer.id })).data.length, 1, "no renewal invoice");
  }));

Deno.test("with the 0341 card a renewal fails: past_due, retried, then canceled", () =>
  withHarness(async (h) => {
    const { customer, subscription } = await h.subscribed("4000 0000 0000 0341");
    await h.advance(32 * DAY);
    let sub = await h.stripe.subscriptions.retrieve(subscription.id);
    assert.equal(sub.status, "past_due");
    const [open] = (await h.stripe.invoices.list({ customer: customer.id, status: "open" })).data;
    assert.equal(open.attempt_count, 1);
    assert.ok(open.next_payment_attempt);
    assert.ok(h.types().includes("invoice.payment_failed"));
    await h.advance(8 * DAY);
    sub = await h.stripe.subscriptions.retrieve(subscription.id);
    assert.equal(sub.status, "canceled");
    assert.equal(h.types().filter((t) => t === "invoice.payment_failed").length, 4);
    assert.equal(h.types().at(-1), "customer.subscription.deleted");
  }));

Deno.test("a past-due subscription is paid when a working card is saved in the portal", () =>
  withHarness(async (h) => {
    const { customer, subscription } = await h.subscribed("4000 0000 0000 0341");
    await h.advance(32 * DAY);
    await portalPost(h, customer.id, "card", { number: "4242 4242 4242 4242", exp: "12 / 34", cvc: "123" });
    assert.equal((await h.stripe.subscriptions.retrieve(subscription.id)).status, "active");
    const [latest] = (await h.stripe.invoices.list({ customer: customer.id })).data;
    assert.equal(latest.status, "paid");
  }));

Deno.test("the API updates (cancel_at_period_end, switch price) and cancels a subscription", () =>
  withHarness(async (h) => {
    const { subscription } = await h.subscribed();
    const item = subscription.items.data[0];
    const switched = await h.stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: h.standIn.prices.pro }],
      proration_behavior: "none",
    });
    assert.equal(switched.items.data[0].price.id, h.standIn.prices.pro);
    const canceling = await h.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    assert.equal(canceling.cancel_at_period_end, true);
    const canceled = await h.stripe.subscriptions.cancel(subscription.id);
    assert.equal(canceled.status, "canceled");
    await assert.rejects(
      h.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false }),
      (e: { statusCode?: number }) => e.statusCode === 400,
    );
    await h.flush();
    assert.equal(h.types().at(-1), "customer.subscription.deleted");
  }));

Deno.test("a switch mid-period is prorated: on the next renewal's invoice, or at once with always_invoice", () =>
  withHarness(async (h) => {
    const first = await h.subscribed();
    await h.advance(15 * DAY);
    await portalPost(h, first.customer.id, "switch", { price: h.standIn.prices.pro });
    await h.advance(20 * DAY);
    const [renewal] = (await h.stripe.invoices.list({ customer: first.customer.id })).data;
    assert.equal(renewal.billing_reason, "subscription_cycle");
    const lines = renewal.lines.data;
    assert.equal(lines.length, 3, "the new plan and the two prorations");
    assert.equal(lines[0].amount, 1999);
    assert.ok(lines[1].amount < 0 && lines[2].amount > 0);
    assert.ok(renewal.amount_paid > 1999 && renewal.amount_paid < 1999 + 1000, String(renewal.amount_paid));

    const second = await h.subscribed();
    const item = second.subscription.items.data[0];
    await h.stripe.subscriptions.update(second.subscription.id, {
      items: [{ id: item.id, price: h.standIn.prices.pro }],
      proration_behavior: "always_invoice",
    });
    const [now] = (await h.stripe.invoices.list({ customer: second.customer.id })).data;
    assert.equal(now.billing_reason, "subscription_update");
    assert.equal(now.status, "paid");
    assert.ok(now.amount_paid > 900 && now.amount_paid <= 1000, String(now.amount_paid));
  }));
