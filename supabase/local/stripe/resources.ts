// The Stripe API endpoints the stand-in serves: products and prices (made at boot), customers, checkout
// sessions, subscriptions, billing portal sessions, invoices, events. Each checks its params as Stripe does
// (params.ts), answers Stripe's shapes, and records the events its changes make.
import {
  type BillingCtx,
  cancelNow,
  processDue,
  type ProrationBehavior,
  publicSession,
  setCancelAtPeriodEnd,
  switchPrice,
} from "./billing.ts";
import { invalid, missingParam, noSuch } from "./errors.ts";
import type { Params } from "./form.ts";
import { expand, fetchObj, listOf } from "./lists.ts";
import { CURRENCY, customerObject, mergeMetadata, type Metadata } from "./objects.ts";
import { bool, checkParams, LIST, type Spec, str } from "./params.ts";
import { newId, type Obj, randomText } from "./store.ts";

export type Answer = Record<string, unknown>;
export type Endpoint = (c: BillingCtx, p: Params, id: string) => Answer;

const EXPAND: Spec = { expand: "strings" };
const CREATED: Kind = "range";
type Kind = Spec[string];

function validUrl(value: string | undefined, param: string): void {
  if (value === undefined) return;
  try {
    const u = new URL(value);
    if (u.protocol === "http:" || u.protocol === "https:") return;
  } catch { /* refused below */ }
  throw invalid(`Not a valid URL`, param, "url_invalid");
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
function validEmail(value: string | undefined, param = "email"): void {
  if (value !== undefined && (value.length > 512 || !EMAIL.test(value))) {
    throw invalid(`Invalid email address: ${value}`, param, "email_invalid");
  }
}

const clone = (o: Obj) => structuredClone(o) as Answer;

// ---- products and prices

export const listProducts: Endpoint = (c, p) => {
  checkParams(p, { ...LIST, active: "boolean", created: CREATED });
  const active = bool(p, "active");
  const items = c.store.all("product").filter((o) => active === undefined || o.active === active);
  return expand(listOf(items, p, "/v1/products", "product"), p, c.store);
};

export const getProduct: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  return expand(clone(fetchObj(c.store, id, "product")), p, c.store);
};

export const listPrices: Endpoint = (c, p) => {
  checkParams(p, {
    ...LIST,
    active: "boolean",
    product: "string",
    lookup_keys: "strings",
    type: { enum: ["one_time", "recurring"] },
    currency: "string",
    created: CREATED,
  });
  const keys = p.lookup_keys as string[] | undefined;
  const items = c.store.all("price").filter((o) =>
    (bool(p, "active") === undefined || o.active === bool(p, "active")) &&
    (!str(p, "product") || o.product === str(p, "product")) &&
    (!keys || keys.includes(o.lookup_key as string)) &&
    (!str(p, "type") || o.type === str(p, "type")) &&
    (!str(p, "currency") || o.currency === str(p, "currency"))
  );
  return expand(listOf(items, p, "/v1/prices", "price"), p, c.store);
};

export const getPrice: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  return expand(clone(fetchObj(c.store, id, "price")), p, c.store);
};

// ---- customers

const CUSTOMER_FIELDS: Spec = {
  ...EXPAND,
  email: "string",
  name: "string",
  phone: "string",
  description: "string",
  metadata: "metadata",
};

export const createCustomer: Endpoint = (c, p) => {
  checkParams(p, CUSTOMER_FIELDS);
  validEmail(str(p, "email"));
  const customer = c.store.put(customerObject(c.store, {
    email: str(p, "email"),
    name: str(p, "name"),
    phone: str(p, "phone"),
    description: str(p, "description"),
    metadata: mergeMetadata({}, p.metadata),
  }));
  c.hooks.record("customer.created", customer);
  return expand(clone(customer), p, c.store);
};

export const getCustomer: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  const customer = c.store.get(id);
  if (!customer || customer.object !== "customer") throw noSuch("customer", id);
  return expand(clone(customer), p, c.store);
};

export const updateCustomer: Endpoint = (c, p, id) => {
  checkParams(p, { ...CUSTOMER_FIELDS, invoice_settings: { object: { default_payment_method: "string" } } });
  validEmail(str(p, "email"));
  const customer = fetchObj(c.store, id, "customer");
  const previous: Answer = {};
  for (const key of ["email", "name", "phone", "description"]) {
    const value = str(p, key);
    if (value === undefined) continue;
    previous[key] = customer[key];
    customer[key] = value === "" ? null : value;
  }
  if (p.metadata !== undefined) {
    previous.metadata = customer.metadata;
    customer.metadata = mergeMetadata(customer.metadata as Metadata, p.metadata);
  }
  const settings = p.invoice_settings as Params | undefined;
  const pm = settings ? str(settings, "default_payment_method") : undefined;
  if (pm !== undefined) {
    if (!c.store.state.cards[pm] || c.store.get(pm)?.customer !== id) {
      throw noSuch("PaymentMethod", pm, "invoice_settings[default_payment_method]");
    }
    previous.invoice_settings = structuredClone(customer.invoice_settings);
    (customer.invoice_settings as Answer).default_payment_method = pm;
  }
  c.store.put(customer);
  if (Object.keys(previous).length) c.hooks.record("customer.updated", customer, previous);
  return expand(clone(customer), p, c.store);
};

export const listCustomers: Endpoint = (c, p) => {
  checkParams(p, { ...LIST, email: "string", created: CREATED, test_clock: "string" });
  const email = str(p, "email");
  const items = c.store.all("customer").filter((o) => !o.deleted && (email === undefined || o.email === email));
  return expand(listOf(items, p, "/v1/customers", "customer"), p, c.store);
};

/** Stripe's search query language, the part a customer lookup uses: `email:'…'`, `metadata['k']:'v'`, AND. */
function searchFilter(query: string): (o: Obj) => boolean {
  const clauses = query.split(/\s+AND\s+/);
  const tests = clauses.map((clause) => {
    const m = /^\s*(email|name|metadata\[['"]([^'"]+)['"]\])\s*:\s*['"]([^'"]*)['"]\s*$/.exec(clause);
    if (!m) throw invalid(`Invalid search query: ${query}`, "query");
    return (o: Obj) =>
      m[2] !== undefined ? (o.metadata as Metadata)[m[2]] === m[3] : (o[m[1]] as string | null) === m[3];
  });
  return (o) => tests.every((t) => t(o));
}

export const searchCustomers: Endpoint = (c, p) => {
  checkParams(p, { ...EXPAND, "query!": "string", limit: "integer", page: "string" });
  const matches = c.store.all("customer").filter((o) => !o.deleted).filter(searchFilter(str(p, "query")!));
  const page = listOf(matches, { limit: p.limit ?? "10" }, "/v1/customers/search", "customer");
  return expand({ ...page, object: "search_result", next_page: null }, p, c.store);
};

export const deleteCustomer: Endpoint = (c, p, id) => {
  checkParams(p, {});
  const customer = fetchObj(c.store, id, "customer");
  for (const sub of c.store.all("subscription")) {
    if (sub.customer === id && sub.status !== "canceled") cancelNow(c, sub);
  }
  c.hooks.record("customer.deleted", customer);
  const gone = { id, object: "customer", deleted: true, created: customer.created };
  c.store.put(gone);
  return { id, object: "customer", deleted: true };
};

// ---- checkout sessions

const SESSION_SPEC: Spec = {
  ...EXPAND,
  "mode!": { enum: ["payment", "setup", "subscription"] },
  line_items: { array: { price: "string", quantity: "integer" } },
  success_url: "string",
  cancel_url: "string",
  customer: "string",
  customer_email: "string",
  client_reference_id: "string",
  metadata: "metadata",
  subscription_data: { object: { metadata: "metadata", description: "string" } },
  allow_promotion_codes: "boolean",
  billing_address_collection: { enum: ["auto", "required"] },
  locale: "string",
  payment_method_types: "strings",
  expires_at: "integer",
  ui_mode: { enum: ["hosted", "embedded", "custom"] },
};

/** The recurring prices of `line_items` (one, as the stand-in's plans are), checked as Stripe checks them. */
function sessionLines(c: BillingCtx, p: Params): Obj[] {
  const lines = p.line_items as Params[] | undefined;
  if (!lines?.length) throw missingParam("line_items");
  if (lines.length > 1) {
    throw invalid("The stand-in's subscriptions hold one price: send one line item.", "line_items");
  }
  const price = str(lines[0], "price");
  if (!price) throw missingParam("line_items[0][price]");
  if (lines[0].quantity === undefined) throw missingParam("line_items[0][quantity]");
  const quantity = Number(lines[0].quantity);
  if (quantity !== 1) {
    throw invalid("The stand-in's plans are sold one at a time: quantity must be 1.", "line_items[0][quantity]");
  }
  const found = c.store.get(price);
  if (!found || found.object !== "price") throw noSuch("price", price, "line_items[0][price]");
  if (!found.active) throw invalid(`The price specified is inactive.`, "line_items[0][price]");
  if (found.type !== "recurring") {
    throw invalid("You must provide at least one recurring price in `subscription` mode.", "line_items");
  }
  return [{
    id: newId("li"),
    object: "item",
    amount_discount: 0,
    amount_subtotal: found.unit_amount,
    amount_tax: 0,
    amount_total: found.unit_amount,
    created: c.store.now(),
    currency: CURRENCY,
    description: found.nickname,
    price: structuredClone(found),
    quantity: 1,
  }];
}

function checkSessionParams(c: BillingCtx, p: Params): void {
  checkParams(p, SESSION_SPEC);
  if (str(p, "mode") !== "subscription") {
    throw invalid("The stand-in serves Checkout in subscription mode only.", "mode");
  }
  if ((str(p, "ui_mode") ?? "hosted") !== "hosted") {
    throw invalid("The stand-in serves the hosted Checkout page only.", "ui_mode");
  }
  if (!str(p, "success_url")) throw missingParam("success_url");
  validUrl(str(p, "success_url"), "success_url");
  validUrl(str(p, "cancel_url"), "cancel_url");
  if (str(p, "customer") && str(p, "customer_email")) {
    throw invalid("You may only specify one of these parameters: customer, customer_email.", "customer_email");
  }
  validEmail(str(p, "customer_email"), "customer_email");
  const ref = str(p, "client_reference_id");
  if (ref !== undefined && ref.length > 200) {
    throw invalid("client_reference_id can be at most 200 characters long.", "client_reference_id");
  }
  if (str(p, "customer")) fetchObj(c.store, str(p, "customer")!, "customer");
}

export const createSession: Endpoint = (c, p) => {
  checkSessionParams(c, p);
  const lines = sessionLines(c, p);
  const now = c.store.now();
  const expiresAt = str(p, "expires_at") ? Number(str(p, "expires_at")) : now + 24 * 3600;
  if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
    throw invalid("expires_at must be between 30 minutes and 24 hours from now.", "expires_at");
  }
  const id = `cs_test_${randomText(58)}`;
  const customer = str(p, "customer");
  const email = str(p, "customer_email") ?? (customer ? c.store.get(customer)!.email as string | null : null);
  const amount = lines[0].amount_total as number;
  const session = c.store.put({
    id,
    object: "checkout.session",
    after_expiration: null,
    allow_promotion_codes: bool(p, "allow_promotion_codes") ?? null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: str(p, "billing_address_collection") ?? null,
    cancel_url: str(p, "cancel_url") ?? null,
    client_reference_id: str(p, "client_reference_id") ?? null,
    client_secret: null,
    created: now,
    currency: CURRENCY,
    custom_fields: [],
    customer: customer ?? null,
    customer_creation: customer ? null : "always",
    customer_details: email ? { address: null, email, name: null, phone: null, tax_exempt: "none", tax_ids: [] } : null,
    customer_email: str(p, "customer_email") ?? null,
    expires_at: expiresAt,
    invoice: null,
    livemode: false,
    locale: str(p, "locale") ?? null,
    metadata: mergeMetadata({}, p.metadata),
    mode: "subscription",
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "always",
    payment_method_types: (p.payment_method_types as string[] | undefined) ?? ["card"],
    payment_status: "unpaid",
    setup_intent: null,
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: str(p, "success_url"),
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: `${c.publicUrl()}/stripe/checkout/${id}`,
    _subscription_metadata: mergeMetadata({}, (p.subscription_data as Params | undefined)?.metadata),
  });
  c.store.state.lineItems[id] = lines;
  return sessionAnswer(c, session, p);
};

function sessionAnswer(c: BillingCtx, session: Obj, p: Params): Answer {
  const answer = clone(publicSession(session));
  if (((p.expand as string[] | undefined) ?? []).some((e) => e === "line_items" || e.startsWith("line_items."))) {
    answer.line_items = listOf(
      c.store.state.lineItems[session.id] ?? [],
      {},
      `/v1/checkout/sessions/${session.id}/line_items`,
      "item",
    );
  }
  return expand(answer, p, c.store);
}

export const getSession: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  processDue(c);
  return sessionAnswer(c, fetchObj(c.store, id, "checkout.session"), p);
};

export const sessionLineItems: Endpoint = (c, p, id) => {
  checkParams(p, LIST);
  fetchObj(c.store, id, "checkout.session");
  return expand(
    listOf(c.store.state.lineItems[id] ?? [], p, `/v1/checkout/sessions/${id}/line_items`, "item"),
    p,
    c.store,
  );
};

export const listSessions: Endpoint = (c, p) => {
  checkParams(p, {
    ...LIST,
    customer: "string",
    subscription: "string",
    status: { enum: ["open", "complete", "expired"] },
    created: CREATED,
    payment_intent: "string",
  });
  processDue(c);
  const items = c.store.all("checkout.session").filter((o) =>
    (!str(p, "customer") || o.customer === str(p, "customer")) &&
    (!str(p, "subscription") || o.subscription === str(p, "subscription")) &&
    (!str(p, "status") || o.status === str(p, "status"))
  ).map(publicSession);
  return expand(listOf(items, p, "/v1/checkout/sessions", "checkout.session"), p, c.store);
};

export const expireSession: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  const session = fetchObj(c.store, id, "checkout.session");
  if (session.status !== "open") {
    throw invalid(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
    );
  }
  Object.assign(session, { status: "expired", url: null });
  c.store.put(session);
  c.hooks.record("checkout.session.expired", publicSession(session));
  return sessionAnswer(c, session, p);
};

// ---- subscriptions

export const getSubscription: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  processDue(c);
  return expand(clone(fetchObj(c.store, id, "subscription")), p, c.store);
};

const STATUSES = [
  "active",
  "past_due",
  "unpaid",
  "canceled",
  "incomplete",
  "incomplete_expired",
  "trialing",
  "paused",
  "all",
  "ended",
];

export const listSubscriptions: Endpoint = (c, p) => {
  checkParams(p, {
    ...LIST,
    customer: "string",
    status: { enum: STATUSES },
    price: "string",
    created: CREATED,
    collection_method: "string",
  });
  processDue(c);
  const status = str(p, "status");
  const items = c.store.all("subscription").filter((o) =>
    (!str(p, "customer") || o.customer === str(p, "customer")) &&
    (!str(p, "price") || ((o.items as { data: Obj[] }).data[0].price as Obj).id === str(p, "price")) &&
    (status === "all" ||
      (status === "ended" ? o.status === "canceled" : status ? o.status === status : o.status !== "canceled"))
  );
  return expand(listOf(items, p, "/v1/subscriptions", "subscription"), p, c.store);
};

export const updateSubscription: Endpoint = (c, p, id) => {
  checkParams(p, {
    ...EXPAND,
    cancel_at_period_end: "boolean",
    items: { array: { id: "string", price: "string", quantity: "integer", deleted: "boolean" } },
    proration_behavior: { enum: ["create_prorations", "none", "always_invoice"] },
    payment_behavior: {
      enum: ["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"],
    },
    metadata: "metadata",
    cancellation_details: { object: { comment: "string", feedback: "string" } },
  });
  processDue(c);
  const sub = fetchObj(c.store, id, "subscription");
  const changing = Object.keys(p).filter((k) => !["expand", "metadata", "cancellation_details"].includes(k));
  if (sub.status === "canceled" && changing.length) {
    throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
  }
  let previous: Answer = {};
  const cancel = bool(p, "cancel_at_period_end");
  if (cancel !== undefined && cancel !== sub.cancel_at_period_end) previous = setCancelAtPeriodEnd(c, sub, cancel);
  const items = p.items as Params[] | undefined;
  if (items) {
    if (items.length !== 1 || bool(items[0], "deleted")) {
      throw invalid(
        "The stand-in's subscriptions hold one price: send one item with its id and the new price.",
        "items",
      );
    }
    const priceId = str(items[0], "price");
    if (priceId) {
      const price = c.store.get(priceId);
      if (!price || price.object !== "price") throw noSuch("price", priceId, "items[0][price]");
      if (price.type !== "recurring" || !price.active) {
        throw invalid("The price must be an active recurring price.", "items[0][price]");
      }
      if (((sub.items as { data: Obj[] }).data[0].price as Obj).id !== priceId) {
        const behavior = (str(p, "proration_behavior") ?? "create_prorations") as ProrationBehavior;
        Object.assign(previous, switchPrice(c, sub, str(items[0], "id"), structuredClone(price), behavior));
      }
    }
  }
  if (p.metadata !== undefined) {
    previous.metadata = sub.metadata;
    sub.metadata = mergeMetadata(sub.metadata as Metadata, p.metadata);
  }
  const details = p.cancellation_details as Params | undefined;
  if (details) Object.assign(sub.cancellation_details as Answer, details);
  c.store.put(sub);
  if (Object.keys(previous).length) c.hooks.record("customer.subscription.updated", sub, previous);
  return expand(clone(sub), p, c.store);
};

export const deleteSubscription: Endpoint = (c, p, id) => {
  checkParams(p, {
    ...EXPAND,
    invoice_now: "boolean",
    prorate: "boolean",
    cancellation_details: { object: { comment: "string", feedback: "string" } },
  });
  processDue(c);
  const sub = fetchObj(c.store, id, "subscription");
  cancelNow(c, sub);
  return expand(clone(sub), p, c.store);
};

// ---- billing portal, invoices, events

export const createPortalSession: Endpoint = (c, p) => {
  checkParams(p, { ...EXPAND, "customer!": "string", return_url: "string", configuration: "string", locale: "string" });
  validUrl(str(p, "return_url"), "return_url");
  const customer = fetchObj(c.store, str(p, "customer")!, "customer");
  const id = newId("bps");
  const session = c.store.put({
    id,
    object: "billing_portal.session",
    configuration: "bpc_standin",
    created: c.store.now(),
    customer: customer.id,
    flow: null,
    livemode: false,
    locale: str(p, "locale") ?? null,
    on_behalf_of: null,
    return_url: str(p, "return_url") ?? null,
    url: `${c.publicUrl()}/stripe/portal/${id}`,
  });
  return expand(clone(session), p, c.store);
};

export const getInvoice: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  processDue(c);
  return expand(clone(fetchObj(c.store, id, "invoice")), p, c.store);
};

export const listInvoices: Endpoint = (c, p) => {
  checkParams(p, {
    ...LIST,
    customer: "string",
    subscription: "string",
    status: { enum: ["draft", "open", "paid", "uncollectible", "void"] },
    created: CREATED,
    collection_method: "string",
  });
  processDue(c);
  const sub = str(p, "subscription");
  const items = c.store.all("invoice").filter((o) =>
    (!str(p, "customer") || o.customer === str(p, "customer")) &&
    (!sub ||
      (o.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === sub) &&
    (!str(p, "status") || o.status === str(p, "status"))
  );
  return expand(listOf(items, p, "/v1/invoices", "invoice"), p, c.store);
};

export const getEvent: Endpoint = (c, p, id) => {
  checkParams(p, EXPAND);
  return expand(clone(fetchObj(c.store, id, "event")), p, c.store);
};

export const listEvents: Endpoint = (c, p) => {
  checkParams(p, { ...LIST, type: "string", types: "strings", created: CREATED, delivery_success: "boolean" });
  const types = p.types as string[] | undefined;
  if (types && str(p, "type")) throw invalid("You may only specify one of these parameters: type, types.", "types");
  const type = str(p, "type");
  const matches = (t: string) => !type || (type.endsWith("*") ? t.startsWith(type.slice(0, -1)) : t === type);
  const items = c.store.all("event").filter((o) =>
    matches(o.type as string) && (!types || types.includes(o.type as string))
  );
  return expand(listOf(items, p, "/v1/events", "event"), p, c.store);
};
