// Webhook delivery: events signed as Stripe signs them (the library verifies them; a wrong secret fails),
// retried after a non-2xx answer, and each fault a test can set: drop, duplicate, reorder, delay (and count).
import assert from "node:assert/strict";
import Stripe from "stripe";
import { signature } from "../../../supabase/local/stripe/webhooks.ts";
import { type Harness, withHarness } from "./harness.ts";

async function setFaults(h: Harness, faults: Record<string, unknown>) {
  const res = await h.control("/__stripe/faults", faults);
  assert.equal(res.status, 200);
  return (await res.json()).faults;
}

async function deliveries(h: Harness) {
  return (await (await h.control("/__stripe/deliveries")).json()).data as {
    event: string;
    type: string;
    status: string;
    attempts: number;
    duplicate: boolean;
  }[];
}

Deno.test("a signature is Stripe's: the library verifies it, and refuses it under another secret or body", async () => {
  const stripe = new Stripe("sk_test_x");
  const payload = JSON.stringify({ id: "evt_1", object: "event", type: "invoice.paid", data: { object: {} } });
  const header = await signature("whsec_abc", payload, Math.floor(Date.now() / 1000));
  assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
  const event = await stripe.webhooks.constructEventAsync(payload, header, "whsec_abc");
  assert.equal(event.id, "evt_1");
  await assert.rejects(stripe.webhooks.constructEventAsync(payload, header, "whsec_other"));
  await assert.rejects(stripe.webhooks.constructEventAsync(payload + " ", header, "whsec_abc"));
  const helper = await stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: "whsec_abc",
    timestamp: Number(header.slice(2, 12)),
  });
  assert.equal(helper, header, "the library's own test helper signs the same");
});

Deno.test("an event the endpoint does not take is retried until it is", () =>
  withHarness(async (h) => {
    h.answers.push(500, 503);
    await h.stripe.customers.create({ email: "retry@example.com" });
    await h.flush();
    const [d] = await deliveries(h);
    assert.equal(d.status, "delivered");
    assert.equal(d.attempts, 3);
    assert.deepEqual(h.types(), ["customer.created"]);
  }));

Deno.test("an endpoint that never takes it: the event ends failed after the schedule", () =>
  withHarness(async (h) => {
    h.answers.push(500, 500, 500, 500);
    await h.stripe.customers.create({ email: "never@example.com" });
    await h.flush();
    const [d] = await deliveries(h);
    assert.equal(d.status, "failed");
    assert.equal(d.attempts, 4);
    assert.deepEqual(h.types(), []);
  }));

Deno.test("drop: the event is kept (listable) but never sent; count limits a fault", () =>
  withHarness(async (h) => {
    assert.deepEqual(await setFaults(h, { drop: true, count: 1 }), { drop: true, count: 1 });
    const dropped = await h.stripe.customers.create({ email: "drop@example.com" });
    await h.stripe.customers.create({ email: "kept@example.com" });
    await h.flush();
    assert.deepEqual(h.types(), ["customer.created"]);
    assert.equal((h.received[0].event.data.object as Stripe.Customer).email, "kept@example.com");
    const listed = await h.stripe.events.list({ type: "customer.created" });
    assert.equal(listed.data.length, 2);
    assert.ok(listed.data.some((e) => (e.data.object as Stripe.Customer).id === dropped.id));
    assert.deepEqual(await setFaults(h, {}), {});
  }));

Deno.test("duplicate: each event arrives twice with the same id", () =>
  withHarness(async (h) => {
    await setFaults(h, { duplicate: true });
    await h.stripe.customers.create({ email: "twice@example.com" });
    await h.flush();
    assert.equal(h.received.length, 2);
    assert.equal(h.received[0].event.id, h.received[1].event.id);
  }));

Deno.test("reorder: one request's events arrive in reverse order", () =>
  withHarness(async (h) => {
    await setFaults(h, { reorder: true });
    await h.subscribed();
    const types = h.types();
    assert.ok(
      types.indexOf("checkout.session.completed") < types.indexOf("customer.subscription.created"),
      types.join(),
    );
  }));

Deno.test("delay: events arrive after the delay, and the API answers at once", () =>
  withHarness(async (h) => {
    await setFaults(h, { delay_ms: 300 });
    const sent = Date.now();
    await h.stripe.customers.create({ email: "late@example.com" });
    assert.ok(Date.now() - sent < 250);
    assert.equal(h.received.length, 0);
    await h.flush();
    assert.equal(h.received.length, 1);
    assert.ok(h.received[0].at - sent >= 300);
  }));

Deno.test("the controls need the stand-in's secret key and refuse bad input", () =>
  withHarness(async (h) => {
    const anonymous = await fetch(`${h.standIn.url}/__stripe/clock/advance`, { method: "POST", body: '{"seconds":1}' });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    for (const body of [{ seconds: -1 }, { seconds: 1.5 }, { seconds: "1" }]) {
      const res = await h.control("/__stripe/clock/advance", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      await res.body?.cancel();
    }
    for (const body of [{ drop: "yes" }, { delay_ms: -5 }, { shuffle: true }]) {
      const res = await h.control("/__stripe/faults", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      await res.body?.cancel();
    }
    const unknown = await h.control("/__stripe/nothing");
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  }));
