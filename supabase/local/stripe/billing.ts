// What happens to subscriptions: a checkout paid on the stand-in's page, a renewal at each period end (paid,
// or failed and retried on Stripe's schedule until the subscription is canceled), an end at the period's end
// when cancel_at_period_end is set, a switch of price, an immediate cancel. Every change records the events
// Stripe sends for it, in Stripe's order.
import { invalid, StripeError } from "./errors.ts";
import {
  addMonths,
  customerObject,
  invoiceObject,
  type InvoiceReason,
  itemOf,
  type LineSpec,
  paymentMethodObject,
  planLine,
  subscriptionObject,
} from "./objects.ts";
import type { Card, Obj, Store } from "./store.ts";
import type { Webhooks } from "./webhooks.ts";

/** Days after a failed renewal's first attempt at which it is tried again; after the last, the end. */
export const RETRY_DAYS = [3, 5, 7];
const DAY = 86_400;

export interface BillingCtx {
  store: Store;
  hooks: Webhooks;
  publicUrl: () => string;
}

/** Keeps a card given on a page as the customer's default payment method. */
export function attachCard(c: BillingCtx, customer: Obj, card: Card): void {
  c.store.state.cards[card.pm] = card;
  const pm = c.store.put(paymentMethodObject(c.store, card, customer.id));
  c.hooks.record("payment_method.attached", pm);
  const previous = structuredClone(customer.invoice_settings);
  (customer.invoice_settings as Record<string, unknown>).default_payment_method = card.pm;
  c.store.put(customer);
  c.hooks.record("customer.updated", customer, { invoice_settings: previous });
}

/** Charges an invoice with the customer's default card: paid, or a failed attempt. */
function charge(c: BillingCtx, invoice: Obj, offSession: boolean, at = c.store.now()): boolean {
  const customer = c.store.get(invoice.customer as string)!;
  const pm = (customer.invoice_settings as { default_payment_method: string | null }).default_payment_method;
  const card = pm ? c.store.state.cards[pm] : undefined;
  invoice.attempted = true;
  invoice.attempt_count = (invoice.attempt_count as number) + 1;
  const ok = invoice.amount_due === 0 || (card !== undefined && !(offSession && card.failsRenewal));
  if (ok) {
    Object.assign(invoice, {
      status: "paid",
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      next_payment_attempt: null,
      default_payment_method: pm,
    });
    (invoice.status_transitions as Record<string, unknown>).paid_at = at;
  }
  c.store.put(invoice);
  return ok;
}

function recordPaid(c: BillingCtx, invoice: Obj): void {
  c.hooks.record("invoice.paid", invoice);
  c.hooks.record("invoice.payment_succeeded", invoice);
}

/** An invoice of the subscription: its plan's period with the prorations waiting for it, or (on an update) `lines`. */
function newInvoice(
  c: BillingCtx,
  sub: Obj,
  reason: InvoiceReason,
  options: { prevStart?: number; at?: number; lines?: LineSpec[] } = {},
) {
  const customer = c.store.get(sub.customer as string)!;
  const lines = options.lines ?? [planLine(sub), ...(c.store.state.prorations[sub.id] ?? [])];
  if (!options.lines) delete c.store.state.prorations[sub.id];
  const invoice = c.store.put(
    invoiceObject(c.store, { sub, customer, reason, lines, publicUrl: c.publicUrl(), ...options }),
  );
  c.store.put(customer);
  c.hooks.record("invoice.created", invoice);
  c.hooks.record("invoice.finalized", invoice);
  return invoice;
}

/** The Pay button: the session's customer (made now when it has none) gets the card, a subscription, a paid invoice. */
export function completeCheckout(c: BillingCtx, session: Obj, card: Card): void {
  if (session.status !== "open") {
    throw invalid("This Checkout Session is no longer open.", undefined, "checkout_session_not_open");
  }
  let customer = session.customer ? c.store.get(session.customer as string) : undefined;
  if (!customer || customer.deleted) {
    customer = c.store.put(
      customerObject(c.store, { email: (session.customer_email as string) ?? undefined, metadata: {} }),
    );
    c.hooks.record("customer.created", customer);
  }
  attachCard(c, customer, card);
  const lines = c.store.state.lineItems[session.id];
  const price = lines[0].price as Obj;
  const subData = (session._subscription_metadata as Record<string, string>) ?? {};
  const sub = c.store.put(
    subscriptionObject(c.store, { customer: customer.id, price, pm: card.pm, metadata: subData }),
  );
  c.hooks.record("customer.subscription.created", sub);
  const invoice = newInvoice(c, sub, "subscription_create");
  charge(c, invoice, false);
  sub.latest_invoice = invoice.id;
  c.store.put(sub);
  recordPaid(c, invoice);
  Object.assign(session, {
    status: "complete",
    payment_status: "paid",
    customer: customer.id,
    customer_details: { ...(session.customer_details as object ?? {}), email: customer.email },
    subscription: sub.id,
    invoice: invoice.id,
    url: null,
  });
  c.store.put(session);
  c.hooks.record("checkout.session.completed", publicSession(session));
}

/** A session as the API shows it (without the stand-in's own bookkeeping fields). */
export function publicSession(session: Obj): Obj {
  const { _subscription_metadata: _, ...rest } = session;
  return rest as Obj;
}

function endSubscription(c: BillingCtx, sub: Obj, at: number, reason: string): void {
  const previous = { status: sub.status };
  Object.assign(sub, { status: "canceled", ended_at: at, canceled_at: sub.canceled_at ?? at });
  (sub.cancellation_details as Record<string, unknown>).reason = reason;
  c.store.put(sub);
  void previous;
  c.hooks.record("customer.subscription.deleted", sub);
}

/** Cancels now (DELETE /v1/subscriptions/:id). */
export function cancelNow(c: BillingCtx, sub: Obj): void {
  if (sub.status === "canceled") {
    throw invalid(`This subscription has already been canceled: '${sub.id}'`, undefined, "resource_missing");
  }
  endSubscription(c, sub, c.store.now(), "cancellation_requested");
}

/** One renewal at the period's end: the next period starts and its invoice is charged off-session. */
function renew(c: BillingCtx, sub: Obj): void {
  const item = itemOf(sub);
  const previousItems = structuredClone(sub.items);
  const start = item.current_period_end as number;
  const prevStart = item.current_period_start as number;
  item.current_period_start = start;
  item.current_period_end = addMonths(sub.billing_cycle_anchor as number, monthsSince(sub, start) + 1);
  const previous: Record<string, unknown> = { items: previousItems, latest_invoice: sub.latest_invoice };
  // The renewal invoice is made and charged at the period's end, whenever the clock got past it.
  const invoice = newInvoice(c, sub, "subscription_cycle", { prevStart, at: start });
  sub.latest_invoice = invoice.id;
  if (charge(c, invoice, true, start)) {
    recordPaid(c, invoice);
  } else {
    invoice.next_payment_attempt = start + RETRY_DAYS[0] * DAY;
    c.store.put(invoice);
    c.hooks.record("invoice.payment_failed", invoice);
    previous.status = sub.status;
    sub.status = "past_due";
  }
  c.store.put(sub);
  c.hooks.record("customer.subscription.updated", sub, previous);
}

/** Whole months from the subscription's anchor to `ts`. */
function monthsSince(sub: Obj, ts: number): number {
  const anchor = sub.billing_cycle_anchor as number;
  let n = 0;
  while (addMonths(anchor, n + 1) <= ts) n++;
  return n;
}

/** Another attempt at a failed renewal: paid brings the subscription back; the last failure ends it. */
function retryInvoice(c: BillingCtx, sub: Obj, invoice: Obj, at: number): void {
  const periodStart = itemOf(sub).current_period_start as number;
  if (charge(c, invoice, true, at)) {
    recordPaid(c, invoice);
    sub.status = "active";
    c.store.put(sub);
    c.hooks.record("customer.subscription.updated", sub, { status: "past_due" });
    return;
  }
  const next = RETRY_DAYS[(invoice.attempt_count as number) - 1];
  invoice.next_payment_attempt = next === undefined ? null : periodStart + next * DAY;
  c.store.put(invoice);
  c.hooks.record("invoice.payment_failed", invoice);
  if (next === undefined) endSubscription(c, sub, at, "payment_failed");
}

/** The next thing due for one subscription at or before `now`, done; false when nothing is due. */
function stepDue(c: BillingCtx, sub: Obj, now: number): boolean {
  if (sub.status === "canceled") return false;
  const end = itemOf(sub).current_period_end as number;
  const open = sub.status === "past_due" ? c.store.get(sub.latest_invoice as string) : undefined;
  const retryAt = open?.status === "open" ? (open.next_payment_attempt as number | null) : null;
  if (retryAt !== null && retryAt <= now && retryAt < end) {
    retryInvoice(c, sub, open!, retryAt);
    return true;
  }
  if (end > now) return false;
  if (sub.cancel_at_period_end || (sub.cancel_at !== null && (sub.cancel_at as number) <= end)) {
    endSubscription(c, sub, end, "cancellation_requested");
  } else if (sub.status === "past_due") {
    // Still unpaid at the next period's end: Stripe's last retry has long passed; the end already came.
    endSubscription(c, sub, end, "payment_failed");
  } else {
    renew(c, sub);
  }
  return true;
}

/** Everything due by the stand-in clock's `now`: sessions' expiry, renewals, retries, ends (in time order per subscription). */
export function processDue(c: BillingCtx): void {
  const now = c.store.now();
  for (const session of c.store.all("checkout.session")) {
    if (session.status !== "open" || (session.expires_at as number) > now) continue;
    Object.assign(session, { status: "expired", url: null });
    c.store.put(session);
    c.hooks.record("checkout.session.expired", publicSession(session));
  }
  for (const sub of c.store.all("subscription").reverse()) {
    for (let guard = 0; guard < 1000 && stepDue(c, sub, now); guard++);
  }
}

/** Sets or clears cancel_at_period_end. */
export function setCancelAtPeriodEnd(c: BillingCtx, sub: Obj, cancel: boolean): Record<string, unknown> {
  const previous = {
    cancel_at_period_end: sub.cancel_at_period_end,
    cancel_at: sub.cancel_at,
    canceled_at: sub.canceled_at,
  };
  const end = itemOf(sub).current_period_end as number;
  Object.assign(
    sub,
    cancel ?
      { cancel_at_period_end: true, cancel_at: end, canceled_at: c.store.now() } :
      { cancel_at_period_end: false, cancel_at: null, canceled_at: null },
  );
  return previous;
}

export type ProrationBehavior = "create_prorations" | "none" | "always_invoice";

/**
 * Switches the subscription's one item to another recurring price now. As Stripe's default, the rest of the
 * period is prorated: a credit for the old price's unused time and a charge for the new one's, on the next
 * invoice (`create_prorations`), on an invoice charged now (`always_invoice`), or not at all (`none`).
 */
export function switchPrice(
  c: BillingCtx,
  sub: Obj,
  itemId: string | undefined,
  price: Obj,
  behavior: ProrationBehavior = "create_prorations",
): Record<string, unknown> {
  const item = itemOf(sub);
  if (itemId !== undefined && itemId !== item.id) {
    throw new StripeError(
      400,
      "invalid_request_error",
      `No such subscription item: '${itemId}'`,
      "resource_missing",
      "items[0][id]",
    );
  }
  const previous = { items: structuredClone(sub.items) };
  const old = item.price as Obj;
  item.price = price;
  if (behavior !== "none") prorate(c, sub, old, price, behavior === "always_invoice");
  return previous;
}

function prorate(c: BillingCtx, sub: Obj, old: Obj, price: Obj, now: boolean): void {
  const item = itemOf(sub);
  const at = c.store.now();
  const [start, end] = [item.current_period_start as number, item.current_period_end as number];
  const share = Math.max(0, end - at) / Math.max(1, end - start);
  if (share === 0) return;
  const since = new Date(at * 1000).toISOString().slice(0, 10);
  const period = { start: at, end };
  const lines: LineSpec[] = [
    {
      amount: -Math.round((old.unit_amount as number) * share),
      description: `Unused time on ${old.nickname} after ${since}`,
      period,
      proration: true,
    },
    {
      amount: Math.round((price.unit_amount as number) * share),
      description: `Remaining time on ${price.nickname} after ${since}`,
      period,
      proration: true,
    },
  ];
  if (!now) {
    (c.store.state.prorations[sub.id] ??= []).push(...lines);
    return;
  }
  const invoice = newInvoice(c, sub, "subscription_update", { lines });
  sub.latest_invoice = invoice.id;
  if (charge(c, invoice, true)) {
    recordPaid(c, invoice);
  } else {
    c.hooks.record("invoice.payment_failed", invoice);
  }
}

/** A card given in the portal: the new default; a past-due invoice is tried with it at once. */
export function replaceCard(c: BillingCtx, customer: Obj, card: Card): void {
  attachCard(c, customer, card);
  for (const sub of c.store.all("subscription")) {
    if (sub.customer !== customer.id || sub.status !== "past_due") continue;
    sub.default_payment_method = card.pm;
    const invoice = c.store.get(sub.latest_invoice as string);
    if (invoice?.status === "open") retryInvoice(c, sub, invoice, c.store.now());
  }
}
