// Builders of the Stripe objects the stand-in answers, with the fields of Stripe's API version 2026-10-28
// (the one stripe@23 pins): period dates on subscription items, an invoice's subscription under
// `parent.subscription_details`. Fields the stand-in has no use for carry Stripe's empty values.
import { newId, type Obj, type Store } from "./store.ts";

export const API_VERSION = "2026-10-28.endive";
export const CURRENCY = "usd";

/** The plans the stand-in creates at boot: the product's plan name and the tier it gives. */
export const PLANS = [
  { key: "creator", name: "Creator", amount: 999, tier: "pro", lookupKey: "creator_monthly" },
  { key: "pro", name: "Pro", amount: 1999, tier: "premium", lookupKey: "pro_monthly" },
] as const;

export type Metadata = Record<string, string>;

/** Stripe's metadata update: keys set to "" are removed; "" for the whole hash clears it. */
export function mergeMetadata(current: Metadata, update: unknown): Metadata {
  if (update === undefined) return current;
  if (update === "") return {};
  const next = { ...current };
  for (const [k, v] of Object.entries(update as Metadata)) {
    if (v === "") delete next[k];
    else next[k] = v;
  }
  return next;
}

/** One calendar month (or `n`) after `ts`, keeping the day of the anchor, clamped to the month's end. */
export function addMonths(anchor: number, n: number): number {
  const d = new Date(anchor * 1000);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

export function createProductAndPrice(store: Store, plan: (typeof PLANS)[number]): { product: Obj; price: Obj } {
  const now = store.now();
  const metadata = { plan: plan.key, tier: plan.tier };
  const product = store.put({
    id: newId("prod", 14),
    object: "product",
    active: true,
    created: now,
    updated: now,
    default_price: null,
    description: `PromptCanvas ${plan.name} plan (stand-in)`,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata,
    name: `PromptCanvas ${plan.name}`,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: "service",
    unit_label: null,
    url: null,
  });
  const price = store.put({
    id: newId("price"),
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: now,
    currency: CURRENCY,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: plan.lookupKey,
    metadata,
    nickname: plan.name,
    product: product.id,
    recurring: { interval: "month", interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed" },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: plan.amount,
    unit_amount_decimal: String(plan.amount),
  });
  product.default_price = price.id;
  return { product, price };
}

export function customerObject(
  store: Store,
  p: { email?: string; name?: string; phone?: string; description?: string; metadata: Metadata },
): Obj {
  return {
    id: newId("cus", 14),
    object: "customer",
    address: null,
    balance: 0,
    created: store.now(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: p.description ?? null,
    discount: null,
    email: p.email ?? null,
    invoice_prefix: newId("x", 8).slice(2).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: p.metadata,
    name: p.name ?? null,
    next_invoice_sequence: 1,
    phone: p.phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export function subscriptionItem(sub: string, price: Obj, start: number, end: number, created: number): Obj {
  return {
    id: newId("si", 14),
    object: "subscription_item",
    billing_thresholds: null,
    created,
    current_period_end: end,
    current_period_start: start,
    discounts: [],
    metadata: {},
    price,
    quantity: 1,
    subscription: sub,
    tax_rates: [],
  };
}

export function subscriptionObject(
  store: Store,
  p: { customer: string; price: Obj; pm: string; metadata: Metadata },
): Obj {
  const now = store.now();
  const id = newId("sub");
  return {
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: now,
    billing_cycle_anchor_config: null,
    billing_mode: { type: "flexible" },
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: "charge_automatically",
    created: now,
    currency: CURRENCY,
    customer: p.customer,
    days_until_due: null,
    default_payment_method: p.pm,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
    items: {
      object: "list",
      data: [subscriptionItem(id, p.price, now, addMonths(now, 1), now)],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: p.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: "active",
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
}

/** The subscription's one item (the stand-in's subscriptions hold one price). */
export const itemOf = (sub: Obj) => (sub.items as { data: Obj[] }).data[0];

/** One line of an invoice before it is made: the plan's period, or a proration of a switch. */
export interface LineSpec {
  amount: number;
  description: string;
  period: { start: number; end: number };
  proration: boolean;
}

/** The plan's line for the subscription's current period. */
export function planLine(sub: Obj): LineSpec {
  const item = itemOf(sub);
  const price = item.price as Obj;
  const amount = price.unit_amount as number;
  return {
    amount,
    description: `1 × ${(price.nickname as string) ?? "plan"} (at $${(amount / 100).toFixed(2)} / month)`,
    period: { start: item.current_period_start as number, end: item.current_period_end as number },
    proration: false,
  };
}

function lineItem(invoice: string, sub: Obj, line: LineSpec): Obj {
  const item = itemOf(sub);
  const price = item.price as Obj;
  return {
    id: newId("il"),
    object: "line_item",
    amount: line.amount,
    currency: CURRENCY,
    description: line.description,
    discount_amounts: [],
    discountable: !line.proration,
    discounts: [],
    invoice,
    livemode: false,
    metadata: {},
    parent: {
      type: "subscription_item_details",
      subscription_item_details: {
        invoice_item: null,
        proration: line.proration,
        proration_details: { credited_items: null },
        subscription: sub.id,
        subscription_item: item.id,
      },
      invoice_item_details: null,
    },
    period: line.period,
    pricing: {
      type: "price_details",
      price_details: { price: price.id, product: price.product },
      unit_amount_decimal: String(line.amount),
    },
    quantity: 1,
    taxes: [],
  } as unknown as Obj;
}

export type InvoiceReason = "subscription_create" | "subscription_cycle" | "subscription_update";

// Over 80 lines: it is one object literal, Stripe's invoice with every field the API version has.
export function invoiceObject(
  store: Store,
  p: {
    sub: Obj;
    customer: Obj;
    reason: InvoiceReason;
    lines: LineSpec[];
    publicUrl: string;
    prevStart?: number;
    at?: number;
  },
): Obj {
  const total = p.lines.reduce((sum, l) => sum + l.amount, 0);
  // What a downgrade credits beyond this invoice goes to the customer's balance, as Stripe does.
  const amount = Math.max(0, total);
  if (total < 0) p.customer.balance = (p.customer.balance as number) + total;
  const seq = (store.state.invoiceSeq[p.customer.id] ?? 0) + 1;
  store.state.invoiceSeq[p.customer.id] = seq;
  p.customer.next_invoice_sequence = seq + 1;
  const id = newId("in");
  const now = p.at ?? store.now();
  const start = p.reason === "subscription_update" ? now : p.lines[0].period.start;
  const page = `${p.publicUrl}/stripe/invoice/${id}`;
  return {
    id,
    object: "invoice",
    account_country: "US",
    account_name: "PromptCanvas (test payments)",
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amount,
    amount_shipping: 0,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_reason: p.reason,
    collection_method: "charge_automatically",
    created: now,
    currency: CURRENCY,
    customer: p.customer.id,
    customer_email: p.customer.email,
    customer_name: p.customer.name,
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: now,
    ending_balance: 0,
    hosted_invoice_url: page,
    invoice_pdf: `${page}?format=pdf`,
    issuer: { type: "self" },
    last_finalization_error: null,
    lines: {
      object: "list",
      data: p.lines.map((l) => lineItem(id, p.sub, l)),
      has_more: false,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: `${p.customer.invoice_prefix}-${String(seq).padStart(4, "0")}`,
    on_behalf_of: null,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: p.sub.metadata, subscription: p.sub.id },
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: start,
    period_start: p.prevStart ?? start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: "open",
    status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
}

export function paymentMethodObject(
  store: Store,
  card: { pm: string; brand: string; last4: string; expMonth: number; expYear: number },
  customer: string,
): Obj {
  return {
    id: card.pm,
    object: "payment_method",
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: card.brand,
      country: "US",
      exp_month: card.expMonth,
      exp_year: card.expYear,
      funding: "credit",
      last4: card.last4,
    },
    created: store.now(),
    customer,
    livemode: false,
    metadata: {},
    type: "card",
  };
}
