// Checkout through the stand-in's page: the page says test payments and is prefilled with a test card; Pay
// makes the customer's subscription and a paid invoice, sends Stripe's events signed (verified by the
// library's constructEventAsync) and redirects to success_url with the session id; declined cards change
// nothing; the portal page lists the plan, the card and the invoices.
import assert from "node:assert/strict";
import type Stripe from "stripe";
import { withHarness } from "./harness.ts";

Deno.test("Pay on the checkout page subscribes the customer and sends the events, signed", () =>
  withHarness(async (h) => {
    const { stripe, standIn } = h;
    const customer = await stripe.customers.create({ email: "pay@example.com", metadata: { user_id: "u-7" } });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      client_reference_id: "u-7",
      metadata: { user_id: "u-7" },
      subscription_data: { metadata: { user_id: "u-7" } },
      line_items: [{ price: standIn.prices.creator, quantity: 1 }],
      success_url: "http://app.test/payment-success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://app.test/payment-canceled",
    });
    const page = await fetch(session.url!);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(html, /Test payments/);
    assert.match(html, /\$9\.99/);
    assert.match(html, /value="4242 4242 4242 4242"/);
    assert.match(html, /href="http:\/\/app\.test\/payment-canceled"/);

    const paid = await h.pay(session.url!);
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get("location"), `http://app.test/payment-success?session_id=${session.id}`);
    await h.flush();

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription", "line_items"] });
    assert.equal(done.status, "complete");
    assert.equal(done.payment_status, "paid");
    assert.equal(done.client_reference_id, "u-7");
    assert.equal(done.line_items?.data[0].price?.id, standIn.prices.creator);
    const sub = done.subscription as Stripe.Subscription;
    assert.equal(sub.status, "active");
    assert.equal(sub.customer, customer.id);
    assert.deepEqual(sub.metadata, { user_id: "u-7" });
    const item = sub.items.data[0];
    assert.equal(item.price.id, standIn.prices.creator);
    assert.ok(item.current_period_end > item.current_period_start + 27 * 86_400);

    const [invoice] = (await stripe.invoices.list({ customer: customer.id })).data;
    assert.equal(invoice.status, "paid");
    assert.equal(invoice.amount_paid, 999);
    assert.equal(invoice.billing_reason, "subscription_create");
    assert.equal(invoice.parent?.subscription_details?.subscription, sub.id);
    assert.match(invoice.hosted_invoice_url!, /\/stripe\/invoice\/in_/);
    const invoicePage = await (await fetch(invoice.hosted_invoice_url!)).text();
    assert.match(invoicePage, /Test payments/);
    assert.match(invoicePage, /\$9\.99/);

    for (const type of ["customer.subscription.created", "invoice.paid", "checkout.session.completed"]) {
      assert.ok(h.types().includes(type), `${type} in ${h.types()}`);
    }
    assert.equal(h.rejected.length, 0);
    const completed = h.received.find((r) => r.event.type === "checkout.session.completed")!.event;
    assert.match(completed.id, /^evt_/);
    assert.equal(completed.livemode, false);
    assert.equal((completed.data.object as Stripe.Checkout.Session).id, session.id);
    const fetched = await stripe.events.retrieve(completed.id);
    assert.equal(fetched.type, "checkout.session.completed");
    const listed = await stripe.events.list({ type: "invoice.paid" });
    assert.equal(listed.data.length, 1);

    const again = await fetch(session.url!);
    assert.match(await again.text(), /Payment complete/);
  }));

Deno.test("a declined card or a card that is no test card is refused on the page, and nothing is made", () =>
  withHarness(async (h) => {
    const customer = await h.stripe.customers.create({ email: "no@example.com" });
    const session = await h.stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: h.standIn.prices.pro, quantity: 1 }],
      success_url: "http://app.test/ok",
    });
    for (
      const [number, words] of [["4000 0000 0000 0002", /declined/], ["4111 1111 1111 1112", /invalid/], [
        "4111 1111 1111 1111",
        /test card/,
      ]] as const
    ) {
      const res = await h.pay(session.url!, number);
      assert.equal(res.status, 402);
      assert.match(await res.text(), words);
    }
    await h.flush();
    assert.equal((await h.stripe.subscriptions.list({ customer: customer.id })).data.length, 0);
    assert.equal((await h.stripe.checkout.sessions.retrieve(session.id)).status, "open");
    assert.deepEqual(h.types(), ["customer.created"], "only the customer made before the page");
  }));

Deno.test("checkout without a customer makes one from customer_email", () =>
  withHarness(async (h) => {
    const session = await h.stripe.checkout.sessions.create({
      mode: "subscription",
      customer_email: "new@example.com",
      line_items: [{ price: h.standIn.prices.pro, quantity: 1 }],
      success_url: "http://app.test/ok",
    });
    await (await h.pay(session.url!)).body?.cancel();
    const done = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ["customer"] });
    assert.equal((done.customer as Stripe.Customer).email, "new@example.com");
  }));

Deno.test("the portal page shows the plan, the card and the invoices, and a way back", () =>
  withHarness(async (h) => {
    const { customer } = await h.subscribed();
    const portal = await h.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: "http://app.test/billing",
    });
    assert.match(portal.url, /\/stripe\/portal\/bps_/);
    const html = await (await fetch(portal.url)).text();
    assert.match(html, /Test payments/);
    assert.match(html, /PromptCanvas Creator/);
    assert.match(html, /Visa ending in 4242/);
    assert.match(html, /Switch to Pro/);
    assert.match(html, /Cancel at the period.s end/);
    assert.match(html, /\$9\.99/);
    assert.match(html, /href="http:\/\/app\.test\/billing"/);
  }));

Deno.test("an unpaid Checkout session expires after 24 hours: its page says so and Pay makes nothing", () =>
  withHarness(async (h) => {
    const customer = await h.stripe.customers.create({ email: "late@example.com" });
    const session = await h.stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: h.standIn.prices.creator, quantity: 1 }],
      success_url: "http://app.test/ok",
      cancel_url: "http://app.test/no",
    });
    await h.advance(25 * 3600);
    const expired = await h.stripe.checkout.sessions.retrieve(session.id);
    assert.equal(expired.status, "expired");
    assert.equal(expired.url, null);
    assert.ok(h.types().includes("checkout.session.expired"));
    const res = await h.pay(session.url!);
    assert.equal(res.status, 410);
    assert.match(await res.text(), /expired/);
    assert.equal((await h.stripe.subscriptions.list({ customer: customer.id })).data.length, 0);
  }));
