// The stand-in's API through the official `stripe` library: what it takes (form-encoded nested params,
// Bearer key, Stripe-Version, Idempotency-Key) and what it refuses, with Stripe's error shapes and statuses.
import assert from "node:assert/strict";
import Stripe from "stripe";
import { clientFor, withHarness } from "./harness.ts";

/** The library's error for a call expected to fail. */
async function failure(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call;
  } catch (e) {
    if (e instanceof Stripe.errors.StripeError) return e;
    throw e;
  }
  throw new Error("the call succeeded");
}

Deno.test("the two prices made at boot name their plans and tiers, by lookup key and metadata", () =>
  withHarness(async ({ stripe, standIn }) => {
    const { data } = await stripe.prices.list({
      lookup_keys: ["creator_monthly", "pro_monthly"],
      expand: ["data.product"],
    });
    const byKey = Object.fromEntries(data.map((p) => [p.lookup_key, p]));
    assert.equal(byKey.creator_monthly.id, standIn.prices.creator);
    assert.equal(byKey.creator_monthly.unit_amount, 999);
    assert.deepEqual(byKey.creator_monthly.metadata, { plan: "creator", tier: "pro" });
    assert.equal(byKey.pro_monthly.unit_amount, 1999);
    assert.equal(byKey.pro_monthly.metadata.tier, "premium");
    assert.equal(byKey.pro_monthly.recurring?.interval, "month");
    assert.equal((byKey.pro_monthly.product as Stripe.Product).name, "PromptCanvas Pro");
    assert.equal(standIn.env.STRIPE_PRICE_PRO, standIn.prices.pro);
    assert.match(standIn.env.STRIPE_SECRET_KEY, /^sk_test_standin_/);
    assert.match(standIn.env.STRIPE_WEBHOOK_SECRET, /^whsec_/);
  }));

Deno.test("customers: create with metadata, retrieve, update, list by email, search, delete", () =>
  withHarness(async ({ stripe }) => {
    const made = await stripe.customers.create({ email: "ada@example.com", metadata: { user_id: "u-1" } });
    assert.match(made.id, /^cus_/);
    assert.equal(made.livemode, false);
    assert.deepEqual(made.metadata, { user_id: "u-1" });
    await stripe.customers.create({ email: "other@example.com" });
    const updated = await stripe.customers.update(made.id, { name: "Ada", metadata: { user_id: "", plan: "x" } });
    assert.equal(updated.name, "Ada");
    assert.deepEqual(updated.metadata, { plan: "x" }, "an empty value removes a metadata key");
    const listed = await stripe.customers.list({ email: "ada@example.com" });
    assert.deepEqual(listed.data.map((c) => c.id), [made.id]);
    const found = await stripe.customers.search({ query: "metadata['plan']:'x'" });
    assert.deepEqual(found.data.map((c) => c.id), [made.id]);
    const deleted = await stripe.customers.del(made.id);
    assert.deepEqual(deleted, { id: made.id, object: "customer", deleted: true });
    const again = await stripe.customers.retrieve(made.id);
    assert.equal((again as Stripe.DeletedCustomer).deleted, true);
    assert.equal((await stripe.customers.list({ email: "ada@example.com" })).data.length, 0);
  }));

Deno.test("lists page newest first with starting_after and has_more", () =>
  withHarness(async ({ stripe }) => {
    for (let i = 0; i < 3; i++) await stripe.customers.create({ email: `n${i}@example.com` });
    const first = await stripe.customers.list({ limit: 2 });
    assert.deepEqual(first.data.map((c) => c.email), ["n2@example.com", "n1@example.com"]);
    assert.equal(first.has_more, true);
    const next = await stripe.customers.list({ limit: 2, starting_after: first.data[1].id });
    assert.deepEqual(next.data.map((c) => c.email), ["n0@example.com"]);
    assert.equal(next.has_more, false);
    const created = first.data[0].created;
    const sameSecond = (await stripe.customers.list()).data.filter((c) => c.created === created).length;
    assert.equal((await stripe.customers.list({ created: { gte: created } })).data.length, sameSecond);
    assert.equal((await stripe.customers.list({ created: { gt: created } })).data.length, 0);
    assert.equal((await stripe.customers.list({ created })).data.length, sameSecond);
    const e = await failure(stripe.customers.list({ limit: 101 }));
    assert.equal(e.statusCode, 400);
    assert.equal(e.param, "limit");
  }));

Deno.test("errors come in Stripe's shapes and statuses", () =>
  withHarness(async ({ stripe, standIn }) => {
    const missing = await failure(stripe.customers.retrieve("cus_nothere"));
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.type, "StripeInvalidRequestError");
    assert.equal(missing.code, "resource_missing");
    assert.equal(missing.param, "id");
    const unknown = await failure(
      stripe.customers.create({ email: "a@example.com", colour: "red" } as Stripe.CustomerCreateParams),
    );
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.code, "parameter_unknown");
    assert.equal(unknown.param, "colour");
    const badEmail = await failure(stripe.customers.create({ email: "not an email" }));
    assert.equal(badEmail.param, "email");
    const required = await failure(
      stripe.billingPortal.sessions.create({} as Stripe.BillingPortal.SessionCreateParams),
    );
    assert.equal(required.code, "parameter_missing");
    assert.equal(required.param, "customer");
    const wrongKey = await failure(clientFor(standIn, "sk_test_standin_wrongwrongwrong").customers.list());
    assert.equal(wrongKey.statusCode, 401);
    assert.equal(wrongKey.type, "StripeAuthenticationError");
    const raw = await fetch(`${standIn.url}/v1/customers`);
    assert.equal(raw.status, 401);
    const body = await raw.json();
    assert.equal(body.error.type, "invalid_request_error");
    assert.match(body.error.message, /API key/);
    const route = await fetch(`${standIn.url}/v1/charges`, {
      headers: { authorization: `Bearer ${standIn.secretKey}` },
    });
    assert.equal(route.status, 404);
    assert.match((await route.json()).error.message, /Unrecognized request URL/);
  }));

Deno.test("a raw request: bracketed nested keys are read, JSON bodies and bad versions are refused", () =>
  withHarness(async ({ standIn }) => {
    const headers = {
      authorization: `Bearer ${standIn.secretKey}`,
      "content-type": "application/x-www-form-urlencoded",
    };
    const made = await fetch(`${standIn.url}/v1/customers`, {
      method: "POST",
      headers,
      body: "email=b%40example.com&metadata[user_id]=u-9&expand[]=invoice_settings.default_payment_method",
    });
    assert.equal(made.status, 200);
    assert.equal(made.headers.get("stripe-version"), "2026-10-28.endive");
    assert.match(made.headers.get("request-id") ?? "", /^req_/);
    assert.deepEqual((await made.json()).metadata, { user_id: "u-9" });
    const json = await fetch(`${standIn.url}/v1/customers`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ email: "c@example.com" }),
    });
    assert.equal(json.status, 400);
    await json.body?.cancel();
    const version = await fetch(`${standIn.url}/v1/customers`, {
      headers: { ...headers, "stripe-version": "latest please" },
    });
    assert.equal(version.status, 400);
    assert.match((await version.json()).error.message, /API version/);
  }));

Deno.test("Idempotency-Key: the first answer is replayed; the key with other params is refused", () =>
  withHarness(async ({ stripe, standIn }) => {
    const a = await stripe.customers.create({ email: "i@example.com" }, { idempotencyKey: "key-1" });
    const b = await stripe.customers.create({ email: "i@example.com" }, { idempotencyKey: "key-1" });
    assert.equal(b.id, a.id);
    assert.equal((await stripe.customers.list({ email: "i@example.com" })).data.length, 1);
    const conflict = await failure(stripe.customers.create({ email: "j@example.com" }, { idempotencyKey: "key-1" }));
    assert.equal(conflict.statusCode, 400);
    assert.equal(conflict.type, "StripeIdempotencyError");
    const replay = await fetch(`${standIn.url}/v1/customers`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${standIn.secretKey}`,
        "content-type": "application/x-www-form-urlencoded",
        "idempotency-key": "key-1",
      },
      body: "email=i%40example.com",
    });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal((await replay.json()).id, a.id);
  }));

Deno.test("checkout sessions refuse what Stripe refuses", () =>
  withHarness(async ({ stripe, standIn }) => {
    const customer = await stripe.customers.create({ email: "r@example.com" });
    const base: Stripe.Checkout.SessionCreateParams = {
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: standIn.prices.pro, quantity: 1 }],
      success_url: "http://app.test/ok?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://app.test/no",
    };
    const cases: [Partial<Stripe.Checkout.SessionCreateParams>, string][] = [
      [{ line_items: undefined }, "line_items"],
      [{ line_items: [{ price: "price_nothere", quantity: 1 }] }, "line_items[0][price]"],
      [{ line_items: [{ price: standIn.prices.pro }] }, "line_items[0][quantity]"],
      [{ customer: "cus_nothere" }, "id"],
      [{ customer_email: "r@example.com" }, "customer_email"],
      [{ success_url: "not a url" }, "success_url"],
      [{ client_reference_id: "x".repeat(201) }, "client_reference_id"],
    ];
    for (const [change, param] of cases) {
      const e = await failure(stripe.checkout.sessions.create({ ...base, ...change }));
      assert.ok(e.statusCode === 400 || e.statusCode === 404, `${param}: ${e.statusCode}`);
      assert.equal(e.param, param, JSON.stringify(change).slice(0, 80));
    }
    const ok = await stripe.checkout.sessions.create({ ...base, metadata: { user_id: "u" }, client_reference_id: "u" });
    assert.match(ok.id, /^cs_test_/);
    assert.equal(ok.status, "open");
    assert.equal(ok.amount_total, 1999);
    assert.equal(ok.url, `${standIn.url}/stripe/checkout/${ok.id}`);
    const listed = await stripe.checkout.sessions.list({ customer: customer.id });
    assert.deepEqual(listed.data.map((s) => s.id), [ok.id]);
    const expired = await stripe.checkout.sessions.expire(ok.id);
    assert.equal(expired.status, "expired");
  }));
