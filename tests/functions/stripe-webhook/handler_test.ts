// stripe-webhook through handler(req, deps) against the Stripe stand-in: signatures made with the
// library's own helper, every event path the stand-in sends (checkout, subscription created, updated and
// deleted, invoice paid and failed), bad and missing signatures, replays, unknown customers, Stripe
// unreachable, and the stand-in's faults (drop, duplicate, reorder, delay), each checked by the tier.
import assert from "node:assert/strict";
import { createStripe, cryptoProvider } from "../../../supabase/functions/_shared/billing/config.ts";
import { handler } from "../../../supabase/functions/stripe-webhook/handler.ts";
import { RENEWAL_FAILS_CARD, subscribed, withWorld, type World } from "../billing/world.ts";

/** An event as Stripe sends it, signed with `secret` by the library's test helper. */
async function signedEvent(
  w: World,
  event: Record<string, unknown>,
  opts: { secret?: string; timestamp?: number } = {},
) {
  const payload = JSON.stringify({ object: "event", api_version: "2026-10-28.endive", livemode: false, ...event });
  const header = await w.core.stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? w.core.config.webhookSecret,
    cryptoProvider,
    ...(opts.timestamp === undefined ? {} : { timestamp: opts.timestamp }),
  });
  return { payload, header };
}

async function deliver(w: World, payload: string, header: string | null, deps = w.webhookDeps) {
  const res = await handler(
    new Request("http://fn/stripe-webhook", {
      method: "POST",
      headers: { "content-type": "application/json", ...(header === null ? {} : { "Stripe-Signature": header }) },
      body: payload,
    }),
    deps,
  );
  return { status: res.status, body: await res.json() };
}

const subscriptionEvent = (id: string, customer: string, status = "active") => ({
  id,
  type: "customer.subscription.updated",
  created: Math.floor(Date.now() / 1000),
  data: { object: { id: "sub_claimed", object: "subscription", customer, status } },
});

Deno.test("a paid checkout's events set the tier: checkout, subscription created, invoice paid", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w, "creator");
    assert.equal(w.store.tierOf(person.id), "pro");
    const types = new Set([...w.store.events.values()].map((e) => e.type));
    for (const t of ["checkout.session.completed", "customer.subscription.created", "invoice.paid"]) {
      assert.ok(types.has(t), `${t} in ${[...types]}`);
    }
    assert.ok([...w.store.events.values()].every((e) => ["synced", "ignored", "unknown_customer"].includes(e.outcome)));
    assert.ok(w.delivered.every((r) => r.status === 200));
  }));

Deno.test("a missing, wrong, stale or tampered signature is 400 and changes nothing", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w, "creator");
    const customer = w.store.customers.get(person.id)!;
    const before = { events: w.store.events.size, writes: w.store.writes.length };
    const event = subscriptionEvent("evt_forged_1", customer, "canceled");
    const good = await signedEvent(w, event);
    const wrong = await signedEvent(w, event, { secret: "whsec_someone_else" });
    const stale = await signedEvent(w, event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    const cases: [string, string | null][] = [
      [good.payload, null],
      [good.payload, ""],
      [good.payload, "t=1,v1=deadbeef"],
      [wrong.payload, wrong.header],
      [stale.payload, stale.header],
      [good.payload.replace('"canceled"', '"active"'), good.header],
    ];
    for (const [payload, header] of cases) {
      const res = await deliver(w, payload, header);
      assert.equal(res.status, 400, String(header));
      assert.equal(res.body.error.code, "invalid_signature");
    }
    assert.equal(w.store.events.size, before.events);
    assert.equal(w.store.writes.length, before.writes);
    assert.equal(w.store.tierOf(person.id), "pro");
  }));

Deno.test("an event only triggers a sync: its payload's claims change nothing, Stripe's state decides", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w, "pro");
    const customer = w.store.customers.get(person.id)!;
    const { payload, header } = await signedEvent(w, subscriptionEvent("evt_claims_canceled", customer, "canceled"));
    const res = await deliver(w, payload, header);
    assert.deepEqual(res.body, { received: true, outcome: "synced" });
    assert.equal(w.store.tierOf(person.id), "premium");
    assert.equal(w.store.rows.get(person.id)?.status, "active");
  }));

Deno.test("a replayed event changes nothing: recorded once, answered 200 duplicate", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w);
    const customer = w.store.customers.get(person.id)!;
    const { payload, header } = await signedEvent(w, subscriptionEvent("evt_replayed", customer));
    assert.equal((await deliver(w, payload, header)).body.outcome, "synced");
    const writes = w.store.writes.length;
    for (let i = 0; i < 3; i++) {
      const again = await deliver(w, payload, header);
      assert.deepEqual([again.status, again.body.outcome], [200, "duplicate"]);
    }
    assert.equal(w.store.writes.length, writes);
    assert.equal(w.store.events.get("evt_replayed")?.outcome, "synced");
  }));

Deno.test("an event for a customer not made here is recorded and answered 200", () =>
  withWorld(async (w) => {
    const stranger = await w.core.stripe.customers.create({ email: "elsewhere@example.test" });
    const { payload, header } = await signedEvent(w, subscriptionEvent("evt_unknown", stranger.id));
    const res = await deliver(w, payload, header);
    assert.deepEqual([res.status, res.body.outcome], [200, "unknown_customer"]);
    assert.deepEqual(w.store.events.get("evt_unknown"), {
      type: "customer.subscription.updated",
      customer: stranger.id,
      outcome: "unknown_customer",
    });
    assert.deepEqual(w.store.writes, []);
    const none = await signedEvent(w, {
      id: "evt_no_customer",
      type: "product.updated",
      data: { object: { id: "prod_1" } },
    });
    assert.equal((await deliver(w, none.payload, none.header)).body.outcome, "ignored");
  }));

Deno.test("Stripe unreachable during the sync is 502, so the event comes again and is handled then", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w);
    const customer = w.store.customers.get(person.id)!;
    const portal = await w.call(person, { action: "portal" });
    await w.control("faults", { drop: true });
    await w.portalAction(portal.body.url, "cancel");
    await w.flush();
    await w.control("faults", {});
    const config = { ...w.core.config, apiUrl: "http://127.0.0.1:9" };
    const down = { ...w.webhookDeps, billing: { ...w.core, config, stripe: createStripe(config) } };
    const { payload, header } = await signedEvent(w, subscriptionEvent("evt_while_down", customer));
    const failed = await deliver(w, payload, header, down);
    assert.equal(failed.status, 502);
    assert.equal(failed.body.error.code, "billing_unavailable");
    assert.equal(w.store.rows.get(person.id)?.cancel_at_period_end, false);
    const retried = await deliver(w, payload, header);
    assert.deepEqual([retried.status, retried.body.outcome], [200, "synced"]);
    assert.equal(w.store.rows.get(person.id)?.cancel_at_period_end, true);
    assert.equal(w.store.tierOf(person.id), "pro"); // kept to the period's end
  }));

Deno.test("cancelling keeps the tier to the period's end, then the deletion event returns it to free", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w, "pro");
    const portal = await w.call(person, { action: "portal" });
    await w.portalAction(portal.body.url, "cancel");
    await w.flush();
    const row = w.store.rows.get(person.id)!;
    assert.equal(row.cancel_at_period_end, true);
    assert.equal(row.ends_at, row.current_period_end);
    assert.equal(w.store.tierOf(person.id), "premium");
    await w.advanceDays(31);
    assert.equal(w.store.rows.get(person.id)?.status, "canceled");
    assert.equal(w.store.tierOf(person.id), "free");
    const types = [...w.store.events.values()].map((e) => e.type);
    assert.ok(types.includes("customer.subscription.updated") && types.includes("customer.subscription.deleted"));
  }));

Deno.test("a failed renewal keeps the tier through the grace period, then the account returns to free", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w, "creator", RENEWAL_FAILS_CARD);
    await w.advanceDays(31);
    const row = w.store.rows.get(person.id)!;
    assert.equal(row.status, "past_due");
    assert.ok(row.grace_until, "grace_until is set");
    assert.equal(w.store.tierOf(person.id), "pro");
    assert.ok([...w.store.events.values()].some((e) => e.type === "invoice.payment_failed"));
    // The grace ends on its own at grace_until even if no event ever came ...
    assert.equal(w.store.tierOf(person.id, Date.parse(row.grace_until!) + 1000), "free");
    // ... and Stripe's last retry ends the subscription.
    await w.advanceDays(8);
    assert.equal(w.store.rows.get(person.id)?.status, "canceled");
    assert.equal(w.store.tierOf(person.id), "free");
  }));

Deno.test("dropped events: the success page's sync gives the tier, and so does the next event that arrives", () =>
  withWorld(async (w) => {
    await w.control("faults", { drop: true });
    const { person, success } = await subscribed(w);
    assert.equal(w.store.tierOf(person.id), "free");
    await w.control("faults", {});
    const sessionId = new URL(success).searchParams.get("session_id");
    assert.equal((await w.call(person, { action: "sync", sessionId })).body.tier, "pro");
    // A later event (the cancel in the portal) is enough on its own too.
    await w.store.apply(person.id, null, new Date().toISOString());
    assert.equal(w.store.tierOf(person.id), "free");
    const portal = await w.call(person, { action: "portal" });
    await w.portalAction(portal.body.url, "cancel");
    await w.flush();
    assert.equal(w.store.tierOf(person.id), "pro");
    assert.equal(w.store.rows.get(person.id)?.cancel_at_period_end, true);
  }));

Deno.test("duplicated events: each handled once, the tier as Stripe has it", () =>
  withWorld(async (w) => {
    await w.control("faults", { duplicate: true });
    const { person } = await subscribed(w, "pro");
    assert.equal(w.store.tierOf(person.id), "premium");
    const answers = await Promise.all(w.delivered.map((r) => r.clone().json()));
    assert.ok(answers.length >= 2 * w.store.events.size, `${answers.length} deliveries, ${w.store.events.size} events`);
    assert.equal(answers.filter((a) => a.outcome === "duplicate").length, answers.length - w.store.events.size);
  }));

Deno.test("reordered events: the subscription's last state wins whatever order they come in", () =>
  withWorld(async (w) => {
    await w.control("faults", { reorder: true });
    const { person } = await subscribed(w, "creator");
    assert.equal(w.store.tierOf(person.id), "pro");
    const first = (await w.control("deliveries")).data.map((d: { type: string }) => d.type);
    // The payment's events came newest first: the subscription's creation after the checkout's completion.
    assert.ok(first.indexOf("customer.subscription.created") > first.indexOf("checkout.session.completed"), `${first}`);
    const portal = await w.call(person, { action: "portal" });
    await w.portalAction(portal.body.url, "cancel");
    await w.flush();
    await w.advanceDays(31);
    assert.equal(w.store.tierOf(person.id), "free");
    assert.equal(w.store.rows.get(person.id)?.status, "canceled");
  }));

Deno.test("late events: a checkout's events arriving after the subscription ended leave free", () =>
  withWorld(async (w) => {
    const person = w.store.addPerson();
    const started = await w.call(person, { action: "checkout", plan: "creator" });
    await w.control("faults", { delay_ms: 400 });
    const success = await w.pay(started.body.url);
    const sessionId = new URL(success).searchParams.get("session_id");
    assert.equal((await w.call(person, { action: "sync", sessionId })).body.tier, "pro");
    // The subscription ends (at once, as delete-account ends it) before the checkout's events arrive.
    const subs = await w.core.stripe.subscriptions.list({ customer: w.store.customers.get(person.id)!, status: "all" });
    await w.core.stripe.subscriptions.cancel(subs.data[0].id);
    await w.flush();
    assert.ok(w.store.events.size >= 3);
    assert.equal(w.store.rows.get(person.id)?.status, "canceled");
    assert.equal(w.store.tierOf(person.id), "free");
  }));
