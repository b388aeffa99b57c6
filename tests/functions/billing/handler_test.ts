// The billing function through handler(req, deps) against the Stripe stand-in: checkout, the portal
// instead of a second checkout, one customer per person, the success page's sync, the summary, and
// Stripe unreachable (a clear 502, nothing half-made).
import assert from "node:assert/strict";
import { createStripe } from "../../../supabase/functions/_shared/billing/config.ts";
import { MESSAGES } from "../../../supabase/functions/_shared/billing/errors.ts";
import { handler as billing } from "../../../supabase/functions/billing/handler.ts";
import { SITE, subscribed, withWorld } from "./world.ts";

Deno.test("checkout opens a Stripe Checkout session in subscription mode for the plan's price", () =>
  withWorld(async (w) => {
    const person = w.store.addPerson();
    const res = await w.call(person, { action: "checkout", plan: "creator" });
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, "checkout");
    assert.ok(res.body.url.startsWith(`${w.standIn.url}/stripe/checkout/cs_`), res.body.url);
    const sessionId = res.body.url.split("/").pop();
    const session = await w.core.stripe.checkout.sessions.retrieve(sessionId);
    assert.equal(session.mode, "subscription");
    assert.equal(session.customer, w.store.customers.get(person.id));
    assert.equal(session.success_url, `${SITE}/payment-success?session_id={CHECKOUT_SESSION_ID}`);
    assert.equal(session.cancel_url, `${SITE}/payment-canceled`);
    const items = await w.core.stripe.checkout.sessions.listLineItems(sessionId);
    assert.equal(items.data[0].price?.id, w.standIn.prices.creator);
    // Nothing is paid yet: the person is still on free, and no Stripe id is in any answer.
    assert.equal(w.store.tierOf(person.id), "free");
    assert.doesNotMatch(JSON.stringify(res.body), /cus_|sub_/);
  }));

Deno.test("paying gives the plan's tier: the success page's sync shows it whatever the webhook does", () =>
  withWorld(async (w) => {
    await w.control("faults", { drop: true });
    const person = w.store.addPerson();
    const started = await w.call(person, { action: "checkout", plan: "pro" });
    const success = await w.pay(started.body.url);
    const sessionId = new URL(success).searchParams.get("session_id");
    assert.ok(success.startsWith(`${SITE}/payment-success?session_id=cs_`), success);
    await w.flush();
    assert.equal(w.store.tierOf(person.id), "free"); // every event was dropped
    const synced = await w.call(person, { action: "sync", sessionId });
    assert.equal(synced.status, 200);
    assert.equal(synced.body.tier, "premium");
    assert.equal(synced.body.configured, true);
    assert.equal(synced.body.testMode, true);
    assert.equal(synced.body.subscription.plan, "pro");
    assert.equal(synced.body.subscription.status, "active");
    assert.equal(synced.body.subscription.cancelAtPeriodEnd, false);
    assert.equal(synced.body.invoices.length, 1);
    assert.equal(synced.body.invoices[0].amountPaid, 1999);
    assert.equal(synced.body.invoices[0].status, "paid");
  }));

Deno.test("a person with a live subscription who asks for a checkout gets the billing portal", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w, "creator");
    assert.equal(w.store.tierOf(person.id), "pro");
    for (const plan of ["creator", "pro"]) {
      const res = await w.call(person, { action: "checkout", plan });
      assert.equal(res.status, 200);
      assert.equal(res.body.kind, "portal");
      assert.ok(res.body.url.startsWith(`${w.standIn.url}/stripe/portal/`), res.body.url);
    }
    const subs = await w.core.stripe.subscriptions.list({ customer: w.store.customers.get(person.id)!, status: "all" });
    assert.equal(subs.data.length, 1);
  }));

Deno.test("the portal opens for a customer and returns to /billing; before any checkout there is none", () =>
  withWorld(async (w) => {
    const stranger = w.store.addPerson();
    const none = await w.call(stranger, { action: "portal" });
    assert.equal(none.status, 409);
    assert.equal(none.body.error.code, "no_billing_account");
    const { person } = await subscribed(w);
    const res = await w.call(person, { action: "portal" });
    assert.equal(res.status, 200);
    const page = await (await fetch(res.body.url)).text();
    assert.match(page, new RegExp(`${SITE}/billing`));
  }));

Deno.test("two checkouts at once make one Stripe customer", () =>
  withWorld(async (w) => {
    const person = w.store.addPerson();
    const answers = await Promise.all([
      w.call(person, { action: "checkout", plan: "creator" }),
      w.call(person, { action: "checkout", plan: "creator" }),
      w.call(person, { action: "checkout", plan: "pro" }),
    ]);
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
    const customers = await w.core.stripe.customers.list({ limit: 100 });
    const theirs = customers.data.filter((c) => c.metadata?.user_id === person.id);
    assert.equal(theirs.length, 1);
    assert.equal(w.store.customers.get(person.id), theirs[0].id);
    // A double press answers the same Checkout session.
    assert.equal(answers[0].body.url, answers[1].body.url);
  }));

Deno.test("sync with another person's session id is refused and changes nothing", () =>
  withWorld(async (w) => {
    const { success } = await subscribed(w);
    const other = w.store.addPerson();
    await w.call(other, { action: "checkout", plan: "creator" });
    const sessionId = new URL(success).searchParams.get("session_id");
    const res = await w.call(other, { action: "sync", sessionId });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, "checkout_not_found");
    assert.equal(w.store.tierOf(other.id), "free");
  }));

Deno.test("Stripe unreachable during checkout: a clear 502 and no half-made state", () =>
  withWorld(async (w) => {
    const person = w.store.addPerson();
    const config = { ...w.core.config, apiUrl: "http://127.0.0.1:9" };
    const down = { ...w.billingDeps, billing: { ...w.core, config, stripe: createStripe(config) } };
    const res = await w.call(person, { action: "checkout", plan: "creator" }, down);
    assert.equal(res.status, 502);
    assert.deepEqual(res.body.error, { code: "billing_unavailable", message: MESSAGES.unavailable, retryable: true });
    assert.equal(w.store.customers.has(person.id), false);
    assert.deepEqual(w.store.writes, []);
    // Once Stripe answers again, the checkout goes through.
    const again = await w.call(person, { action: "checkout", plan: "creator" });
    assert.equal(again.body.kind, "checkout");
  }));

Deno.test("summary answers from the database when Stripe is not configured, and checkout says so", () =>
  withWorld(async (w) => {
    const person = w.store.addPerson();
    const deps = { ...w.billingDeps, billing: null };
    const summary = await w.call(person, { action: "summary" }, deps);
    assert.deepEqual(summary.body, {
      configured: false,
      testMode: false,
      tier: "free",
      subscription: null,
      invoices: [],
    });
    const checkout = await w.call(person, { action: "checkout", plan: "creator" }, deps);
    assert.equal(checkout.status, 503);
    assert.equal(checkout.body.error.code, "billing_not_configured");
    assert.equal(checkout.body.error.message, "Connect Supabase + Stripe to enable subscriptions.");
  }));

Deno.test("bad requests are 400 with a code, a missing token 401, nothing made", () =>
  withWorld(async (w) => {
    const person = w.store.addPerson();
    for (
      const body of [
        {},
        { action: "refund" },
        { action: "checkout" },
        { action: "checkout", plan: "enterprise" },
        { action: "sync", sessionId: "sub_123" },
        [],
        "checkout",
      ]
    ) {
      const res = await w.call(person, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, "invalid_input");
    }
    const anonymous = await billing(new Request("http://fn/billing", { method: "POST", body: "{}" }), w.billingDeps);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    assert.equal(w.store.customers.size, 0);
  }));

Deno.test("a checkout returns to the request's origin only when it is the site's (or the site under another loopback name)", () =>
  withWorld(async (w) => {
    const person = w.store.addPerson();
    const local = { ...w.core.config, siteOrigins: ["http://127.0.0.1:4391"] };
    const deps = { ...w.billingDeps, billing: { ...w.core, config: local } };
    const successOf = async (origin: string) => {
      const res = await billing(
        new Request("http://fn/billing", {
          method: "POST",
          headers: { Authorization: `Bearer ${person.jwt}`, "content-type": "application/json", Origin: origin },
          body: JSON.stringify({ action: "portal" }),
        }),
        deps,
      );
      const { url } = await res.json();
      const page = await (await fetch(url)).text();
      return /href="([^"]*\/billing)"/.exec(page)?.[1];
    };
    await w.call(person, { action: "checkout", plan: "creator" }); // makes the customer
    assert.equal(await successOf("http://localhost:4391"), "http://localhost:4391/billing");
    assert.equal(await successOf("http://127.0.0.1:4391"), "http://127.0.0.1:4391/billing");
    assert.equal(await successOf("http://localhost:9999"), "http://127.0.0.1:4391/billing");
    assert.equal(await successOf("https://evil.example"), "http://127.0.0.1:4391/billing");
  }));
