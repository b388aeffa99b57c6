// The stand-in's hosted pages, in place of Stripe's: Checkout (a card form prefilled with a test card and a
// Pay button), the billing portal (plan, card, switch, cancel at period end, resume, invoices, a way back) and
// the hosted invoice. Every page says "Test payments" where it can be seen at once.
import {
  type BillingCtx,
  completeCheckout,
  processDue,
  replaceCard,
  setCancelAtPeriodEnd,
  switchPrice,
} from "./billing.ts";
import { BodyTooLarge, readBody } from "../http.ts";
import { readCard } from "./cards.ts";
import { StripeError } from "./errors.ts";
import { itemOf, PLANS } from "./objects.ts";
import type { Obj } from "./store.ts";

const esc = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const shortDay = (ts: number) =>
  new Date(ts * 1000).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const day = (ts: number) =>
  new Date(ts * 1000).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a2e;background:#f4f5f9}
.test{background:#7a3e00;color:#fff;text-align:center;padding:.5rem;font-weight:600}
main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.5rem;margin:0 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.price{font-size:2rem;font-weight:700}.muted{color:#4a4a5e}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;padding:.6rem;border:1px solid #6b6b80;border-radius:.4rem;font:inherit}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{margin-top:1rem;padding:.7rem 1.2rem;border:0;border-radius:.4rem;background:#2f2fa2;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:#2f2fa2;border:1px solid #2f2fa2}
.error{background:#fde8e8;color:#8a1010;padding:.75rem;border-radius:.4rem}
.notice{background:#e8f4ea;color:#14532d;padding:.75rem;border-radius:.4rem}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #d8d8e0}
a{color:#2f2fa2}td a{overflow-wrap:anywhere}form.inline{display:inline}
@media (max-width:36rem){main{margin:1rem .5rem;padding:1rem}}
`;

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${esc(title)} · Test payments</title><style>${STYLE}</style></head><body>
<header class="test" role="banner">Test payments: no real card is charged (Stripe stand-in)</header>
<main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
      "referrer-policy": "no-referrer",
    },
  });
}

const redirect = (to: string) =>
  new Response(null, { status: 303, headers: { location: to, "cache-control": "no-store" } });

const planOf = (price: Obj) => PLANS.find((p) => p.key === (price.metadata as Record<string, string>).plan);

function cardFields(values: Record<string, string>): string {
  return `<label for="number">Card number</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required value="${
    esc(values.number ?? "4242 4242 4242 4242")
  }" aria-describedby="cards">
<div class="row"><div><label for="exp">Expiry (MM / YY)</label>
<input id="exp" name="exp" autocomplete="cc-exp" required value="${esc(values.exp ?? "12 / 34")}"></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required value="${
    esc(values.cvc ?? "123")
  }"></div></div>
<p id="cards" class="muted">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 pays now, but its renewals fail;
4000 0000 0000 0002 is declined.</p>`;
}

function checkoutForm(c: BillingCtx, session: Obj, values: Record<string, string>, error?: string): Response {
  const price = c.store.state.lineItems[session.id][0].price as Obj;
  const name = planOf(price)?.name ?? price.nickname;
  const email = (session.customer_details as { email?: string } | null)?.email;
  const body = `<h1>Subscribe to PromptCanvas ${esc(name)}</h1>
<p><span class="price">${money(price.unit_amount as number)}</span> <span class="muted">per month</span></p>
${email ? `<p class="muted">Billed to ${esc(email)}</p>` : ""}
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post" action="/stripe/checkout/${esc(session.id)}/pay">
<h2>Card (test payments)</h2>${cardFields(values)}
<button type="submit">Pay ${money(price.unit_amount as number)}</button></form>
${session.cancel_url ? `<p><a href="${esc(session.cancel_url)}">Cancel and go back</a></p>` : ""}`;
  return page(`Subscribe to ${name}`, body, error ? 402 : 200);
}

/** A page's form fields; a body past 64 KB is no form of these pages and reads as empty. */
async function formOf(req: Request): Promise<Record<string, string>> {
  try {
    return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await readBody(req, 65_536))));
  } catch (e) {
    if (e instanceof BodyTooLarge) return {};
    throw e;
  }
}

const successUrl = (session: Obj) => (session.success_url as string).replaceAll("{CHECKOUT_SESSION_ID}", session.id);

async function checkout(c: BillingCtx, req: Request, id: string, action: string): Promise<Response> {
  processDue(c);
  const session = c.store.get(id);
  if (!session || session.object !== "checkout.session") {
    return page("Not found", "<h1>This checkout page does not exist</h1>", 404);
  }
  if (session.status === "complete") {
    return page(
      "Payment complete",
      `<h1>Payment complete</h1><p class="notice">Thank you: this subscription is paid.</p>
<p><a href="${esc(successUrl(session))}">Continue</a></p>`,
    );
  }
  if (session.status === "expired") {
    const back = session.cancel_url ? `<p><a href="${esc(session.cancel_url)}">Go back</a></p>` : "";
    return page("Checkout expired", `<h1>This checkout has expired</h1><p>Start again from the app.</p>${back}`, 410);
  }
  if (action === "" && req.method === "GET") return checkoutForm(c, session, {});
  if (action !== "pay" || req.method !== "POST") return page("Not found", "<h1>Not found</h1>", 404);
  const form = await formOf(req);
  try {
    const card = readCard({ number: form.number ?? "", exp: form.exp ?? "", cvc: form.cvc ?? "" }, c.store.now());
    completeCheckout(c, session, card);
  } catch (e) {
    if (e instanceof StripeError) return checkoutForm(c, session, form, e.message);
    throw e;
  }
  return redirect(successUrl(session));
}

function currentSubscription(c: BillingCtx, customer: string): Obj | undefined {
  const subs = c.store.all("subscription").filter((s) => s.customer === customer);
  return subs.find((s) => s.status !== "canceled") ?? subs[0];
}

function planSection(c: BillingCtx, portal: Obj, sub: Obj | undefined): string {
  if (!sub) return `<h2>Plan</h2><p>No subscription.</p>`;
  const item = itemOf(sub);
  const price = item.price as Obj;
  const plan = planOf(price);
  const end = item.current_period_end as number;
  const action = (name: string, label: string, extra = "", cls = "") =>
    `<form class="inline" method="post" action="/stripe/portal/${
      esc(portal.id)
    }/${name}">${extra}<button type="submit"${cls}>${label}</button></form> `;
  let state: string;
  let actions = "";
  if (sub.status === "canceled") {
    state = `Canceled${sub.ended_at ? ` on ${day(sub.ended_at as number)}` : ""}.`;
  } else {
    state = sub.status === "past_due" ?
      `Past due: the last payment failed. Update the card to pay it.` :
      sub.cancel_at_period_end ?
      `Cancels on ${day(end)}. The plan stays until then.` :
      `Renews on ${day(end)}.`;
    actions = sub.cancel_at_period_end ?
      action("resume", "Resume plan") :
      action("cancel", "Cancel at the period's end", "", ' class="secondary"');
    for (const other of PLANS.filter((p) => p.key !== plan?.key)) {
      const priceId = c.store.state.prices[other.key];
      actions += action(
        "switch",
        `Switch to ${other.name} (${money(other.amount)} / month)`,
        `<input type="hidden" name="price" value="${esc(priceId)}">`,
      );
    }
  }
  return `<h2>Plan</h2><p><strong>PromptCanvas ${esc(plan?.name ?? price.nickname)}</strong>, ${
    money(price.unit_amount as number)
  } per month</p>
<p>${esc(state)}</p><div>${actions}</div>`;
}

function cardSection(c: BillingCtx, portal: Obj, customer: Obj, values: Record<string, string>): string {
  const pm = (customer.invoice_settings as { default_payment_method: string | null }).default_payment_method;
  const card = pm ? c.store.state.cards[pm] : undefined;
  const shown = card ?
    `${card.brand[0].toUpperCase()}${card.brand.slice(1)} ending in ${card.last4}, expires ${
      String(card.expMonth).padStart(2, "0")
    }/${card.expYear}` :
    "No card on file.";
  return `<h2>Payment method</h2><p>${esc(shown)}</p>
<details${values.number ? " open" : ""}><summary>Update card</summary>
<form method="post" action="/stripe/portal/${esc(portal.id)}/card">${
    cardFields(values)
  }<button type="submit">Save card</button></form></details>`;
}

function invoicesSection(c: BillingCtx, customer: string): string {
  const invoices = c.store.all("invoice").filter((i) => i.customer === customer);
  if (!invoices.length) return `<h2>Invoices</h2><p>No invoices yet.</p>`;
  const rows = invoices.map((i) =>
    `<tr><td>${shortDay(i.created)}</td><td>${money(i.amount_due as number)}</td><td>${esc(i.status)}</td>` +
    `<td><a href="${esc(i.hosted_invoice_url)}">${esc(i.number)}</a></td></tr>`
  ).join("");
  return `<h2>Invoices</h2><table><thead><tr><th scope="col">Date</th><th scope="col">Amount</th>
<th scope="col">Status</th><th scope="col">Invoice</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function portalPage(
  c: BillingCtx,
  portal: Obj,
  values: Record<string, string> = {},
  message?: { error?: string; done?: string },
): Response {
  const customer = c.store.get(portal.customer as string)!;
  const sub = currentSubscription(c, customer.id);
  const body = `<h1>Billing</h1><p class="muted">${esc(customer.email ?? "")}</p>
${message?.error ? `<p class="error" role="alert">${esc(message.error)}</p>` : ""}
${message?.done ? `<p class="notice" role="status">${esc(message.done)}</p>` : ""}
${planSection(c, portal, sub)}${cardSection(c, portal, customer, values)}${invoicesSection(c, customer.id)}
${portal.return_url ? `<p><a href="${esc(portal.return_url)}">Return to PromptCanvas</a></p>` : ""}`;
  return page("Billing", body, message?.error ? 402 : 200);
}

const DONE: Record<string, string> = {
  cancel: "Your plan will be canceled at the end of the period.",
  resume: "Your plan will renew.",
  switch: "Your plan was switched.",
  card: "Your card was saved.",
};

function portalAction(c: BillingCtx, sub: Obj | undefined, action: string, form: Record<string, string>): void {
  if (!sub || sub.status === "canceled") {
    throw new StripeError(400, "invalid_request_error", "There is no plan to change.");
  }
  let previous: Record<string, unknown>;
  if (action === "cancel" || action === "resume") previous = setCancelAtPeriodEnd(c, sub, action === "cancel");
  else {
    const price = c.store.get(form.price ?? "");
    if (!price || price.object !== "price" || !Object.values(c.store.state.prices).includes(price.id)) {
      throw new StripeError(400, "invalid_request_error", "That plan cannot be chosen here.");
    }
    previous = switchPrice(c, sub, undefined, structuredClone(price));
  }
  c.store.put(sub);
  c.hooks.record("customer.subscription.updated", sub, previous);
}

async function portal(c: BillingCtx, req: Request, id: string, action: string): Promise<Response> {
  processDue(c);
  const session = c.store.get(id);
  const customer = session?.object === "billing_portal.session" ? c.store.get(session.customer as string) : undefined;
  if (!session || !customer || customer.deleted) {
    return page("Not found", "<h1>This billing page does not exist</h1>", 404);
  }
  if (action === "" && req.method === "GET") {
    const done = new URL(req.url).searchParams.get("done") ?? "";
    return portalPage(c, session, {}, { done: DONE[done] });
  }
  if (req.method !== "POST" || !(action in DONE)) return page("Not found", "<h1>Not found</h1>", 404);
  const form = await formOf(req);
  try {
    if (action === "card") {
      replaceCard(
        c,
        customer,
        readCard({ number: form.number ?? "", exp: form.exp ?? "", cvc: form.cvc ?? "" }, c.store.now()),
      );
    } else portalAction(c, currentSubscription(c, customer.id), action, form);
  } catch (e) {
    if (e instanceof StripeError) return portalPage(c, session, action === "card" ? form : {}, { error: e.message });
    throw e;
  }
  return redirect(`/stripe/portal/${session.id}?done=${action}`);
}

function invoicePage(c: BillingCtx, id: string): Response {
  const invoice = c.store.get(id);
  if (!invoice || invoice.object !== "invoice") return page("Not found", "<h1>This invoice does not exist</h1>", 404);
  const paidAt = (invoice.status_transitions as { paid_at: number | null }).paid_at;
  const lines = (invoice.lines as { data: Obj[] }).data.map((line) => {
    const period = line.period as { start: number; end: number };
    return `<tr><td>${esc(line.description)}</td><td>${day(period.start)} to ${day(period.end)}</td>` +
      `<td>${line.amount as number < 0 ? "−" : ""}${money(Math.abs(line.amount as number))}</td></tr>`;
  }).join("");
  const body = `<h1>Invoice ${esc(invoice.number)}</h1>
<p><span class="price">${money(invoice.amount_due as number)}</span> <span class="muted">${
    esc(invoice.status)
  }</span></p>
<table><tbody>
<tr><th scope="row">Issued</th><td>${day(invoice.created)}</td></tr>
${paidAt ? `<tr><th scope="row">Paid</th><td>${day(paidAt)}</td></tr>` : ""}
<tr><th scope="row">Billed to</th><td>${esc(invoice.customer_email ?? "")}</td></tr>
<tr><th scope="row">Amount due</th><td>${money(invoice.amount_due as number)}</td></tr>
<tr><th scope="row">Amount paid</th><td>${money(invoice.amount_paid as number)}</td></tr>
</tbody></table>
<h2>Items</h2><table><thead><tr><th scope="col">Description</th><th scope="col">Period</th><th scope="col">Amount</th></tr></thead>
<tbody>${lines}</tbody></table>
<p class="muted">Issued by ${esc(invoice.account_name)}. Test payments: nothing was charged.</p>`;
  return page(`Invoice ${invoice.number}`, body);
}

/** `/stripe/checkout/<id>[/pay]`, `/stripe/portal/<id>[/<action>]`, `/stripe/invoice/<id>`. */
export async function servePage(c: BillingCtx, req: Request, path: string): Promise<Response> {
  const m = /^\/stripe\/(checkout|portal|invoice)\/([A-Za-z0-9_]+)(?:\/([a-z]+))?$/.exec(path);
  if (!m) return page("Not found", "<h1>Not found</h1>", 404);
  const [, kind, id, action = ""] = m;
  if (kind === "checkout") return await checkout(c, req, id, action);
  if (kind === "portal") return await portal(c, req, id, action);
  if (action || req.method !== "GET") return page("Not found", "<h1>Not found</h1>", 404);
  return invoicePage(c, id);
}
