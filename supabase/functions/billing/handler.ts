// billing: the person's plan (decision 148). POST JSON whose `action` picks:
//   summary  → { configured, testMode, tier, subscription, invoices } (the tier and row from the database,
//              the invoices from Stripe);
//   checkout → { url, kind }: a Stripe Checkout session in subscription mode for `plan`, or, for a
//              person who already has a live subscription, the billing portal (never a second one);
//   portal   → { url }: a billing portal session;
//   sync     → the summary after reading the customer's current subscription from Stripe (the
//              payment-success page calls it with the session id, so it shows the new plan whatever
//              the webhook does).
// Stripe ids never leave the server: the answers carry URLs, plans, dates and invoice numbers only.
import { bearerToken, handleOptions, jsonResponse, readJsonBody } from "../_shared/http.ts";
import { type BillingConfig, originOf, type Plan } from "../_shared/billing/config.ts";
import {
  type BillingError,
  billingError,
  billingResponse,
  type BillingResult,
  failed,
  invalid,
} from "../_shared/billing/errors.ts";
import type { BillingCaller, BillingStore, SubscriptionRow } from "../_shared/billing/store.ts";
import {
  type BillingCore,
  ensureCustomer,
  fromStore,
  type InvoiceLine,
  invoicesOf,
  stripeCall,
  syncCustomer,
} from "../_shared/billing/sync.ts";

export interface Deps {
  store: BillingStore;
  /** Null when Stripe is not configured (no key, secret or prices). */
  billing: Omit<BillingCore, "store"> | null;
  log: BillingCore["log"];
}

export interface Summary {
  configured: boolean;
  testMode: boolean;
  tier: string;
  subscription: {
    status: string;
    plan: string;
    tier: string;
    currentPeriodEnd: string | null;
    cancelAtPeriodEnd: boolean;
    endsAt: string | null;
    graceUntil: string | null;
  } | null;
  invoices: InvoiceLine[];
  /** Set when Stripe could not be read for the invoices (the rest comes from the database). */
  invoicesError?: string;
}

const BODY_LIMIT_BYTES = 2_048;
const ACTIONS = ["summary", "checkout", "portal", "sync"] as const;
type Action = (typeof ACTIONS)[number];
const PLANS: readonly Plan[] = ["creator", "pro"];
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

interface Request_ {
  action: Action;
  plan?: Plan;
  sessionId?: string;
}

export async function handler(req: Request, d: Deps): Promise<Response> {
  const pre = handleOptions(req);
  if (pre) return pre;
  if (req.method !== "POST") return billingResponse(invalid("Use POST", 405));
  const jwt = bearerToken(req);
  if (!jwt) return billingResponse(billingError("auth_required"));
  const body = await readJsonBody(req, BODY_LIMIT_BYTES);
  if (!body.ok) return billingResponse(invalid(body.error.message, body.error.status ?? 400));
  const parsed = parseRequest(body.value);
  if (!parsed.ok) return billingResponse(parsed.error);

  const caller = fromStore(await d.store.identify(jwt));
  if (!caller.ok) return answer(d, parsed.value.action, caller);
  const core = d.billing ? { ...d.billing, store: d.store } : null;
  if (!core) {
    return parsed.value.action === "summary" ?
      answer(d, "summary", await summary(d.store, null, caller.value.id)) :
      billingResponse(billingError("billing_not_configured"));
  }
  return answer(d, parsed.value.action, await run(core, req, caller.value, parsed.value));
}

function run(core: BillingCore, req: Request, caller: BillingCaller, r: Request_): Promise<BillingResult<unknown>> {
  switch (r.action) {
    case "summary":
      return summary(core.store, core, caller.id);
    case "checkout":
      return checkout(core, req, caller, r.plan!);
    case "portal":
      return portal(core, req, caller);
    case "sync":
      return sync(core, caller, r.sessionId);
  }
}

function parseRequest(value: unknown): BillingResult<Request_> {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return failed(invalid("The request body must be a JSON object"));
  }
  const v = value as Record<string, unknown>;
  if (typeof v.action !== "string" || !(ACTIONS as readonly string[]).includes(v.action)) {
    return failed(invalid(`action must be one of ${ACTIONS.join(", ")}`));
  }
  const action = v.action as Action;
  if (action === "checkout" && (typeof v.plan !== "string" || !(PLANS as readonly string[]).includes(v.plan))) {
    return failed(invalid(`plan must be one of ${PLANS.join(", ")}`));
  }
  if (v.sessionId !== undefined && (typeof v.sessionId !== "string" || !SESSION_ID.test(v.sessionId))) {
    return failed(invalid("sessionId must be a Stripe Checkout session id"));
  }
  return {
    ok: true,
    value: {
      action,
      ...(action === "checkout" ? { plan: v.plan as Plan } : {}),
      ...(action === "sync" && v.sessionId ? { sessionId: v.sessionId as string } : {}),
    },
  };
}

function answer(d: Deps, action: string, r: BillingResult<unknown>): Response {
  if (r.ok) return jsonResponse(r.value);
  const e: BillingError = r.error;
  if (e.status >= 500) d.log("billing.failed", { action, code: e.code, detail: e.detail });
  return billingResponse(e);
}

const viewOfRow = (row: SubscriptionRow | null): Summary["subscription"] =>
  row && {
    status: row.status,
    plan: row.plan,
    tier: row.tier,
    currentPeriodEnd: row.current_period_end,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    endsAt: row.ends_at,
    graceUntil: row.grace_until,
  };

async function summary(store: BillingStore, core: BillingCore | null, userId: string): Promise<BillingResult<Summary>> {
  const state = fromStore(await store.state(userId));
  if (!state.ok) return state;
  const base: Summary = {
    configured: core !== null,
    testMode: core?.config.testMode ?? false,
    tier: state.value.tier,
    subscription: viewOfRow(state.value.subscription),
    invoices: [],
  };
  if (!core) return { ok: true, value: base };
  const customer = fromStore(await store.customerOf(userId));
  if (!customer.ok) return customer;
  if (!customer.value) return { ok: true, value: base };
  const invoices = await invoicesOf(core, customer.value);
  if (!invoices.ok) {
    core.log("billing.invoices_unread", { user_id: userId, code: invoices.error.code, detail: invoices.error.detail });
    return { ok: true, value: { ...base, invoicesError: invoices.error.code } };
  }
  return { ok: true, value: { ...base, invoices: invoices.value } };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The same site on this machine under another loopback name (localhost for 127.0.0.1, and so on). */
function sameLoopbackSite(asked: string, site: string): boolean {
  const [a, b] = [new URL(asked), new URL(site)];
  return a.protocol === b.protocol && a.port === b.port && LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname);
}

/** Where Stripe sends the person back: the request's Origin when it is one of the site's, else the site. */
function returnOrigin(config: BillingConfig, req: Request): BillingResult<string> {
  const asked = originOf(req.headers.get("origin"));
  if (asked && config.siteOrigins.some((o) => o === asked || sameLoopbackSite(asked, o))) {
    return { ok: true, value: asked };
  }
  if (config.siteOrigins[0]) return { ok: true, value: config.siteOrigins[0] };
  return failed(billingError("billing_not_configured", "SITE_URL is not set"));
}

/** Checkout answers within ten minutes with the same session for the same plan (a double press). */
const CHECKOUT_WINDOW_MS = 10 * 60_000;

async function checkout(
  core: BillingCore,
  req: Request,
  caller: BillingCaller,
  plan: Plan,
): Promise<BillingResult<{ url: string; kind: "checkout" | "portal" }>> {
  const origin = returnOrigin(core.config, req);
  if (!origin.ok) return origin;
  const customer = await ensureCustomer(core, caller);
  if (!customer.ok) return customer;
  const synced = await syncCustomer(core, caller.id, customer.value);
  if (!synced.ok) return synced;
  if (synced.value.live) {
    const url = await portalUrl(core, customer.value, origin.value);
    return url.ok ? { ok: true, value: { url: url.value, kind: "portal" } } : url;
  }
  const window = Math.floor(core.now() / CHECKOUT_WINDOW_MS);
  const session = await stripeCall("checkout.sessions.create", () =>
    core.stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.value,
      client_reference_id: caller.id,
      line_items: [{ price: core.config.prices[plan], quantity: 1 }],
      success_url: `${origin.value}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin.value}/payment-canceled`,
      metadata: { user_id: caller.id, plan },
      subscription_data: { metadata: { user_id: caller.id, plan } },
    }, { idempotencyKey: `promptcanvas-checkout-${caller.id}-${plan}-${origin.value}-${window}` }));
  if (!session.ok) return session;
  if (!session.value.url) return failed(billingError("server_error", "checkout session without url"));
  const others = await expireOtherCheckouts(core, customer.value, session.value.id);
  if (!others.ok) return others;
  core.log("billing.checkout", { user_id: caller.id, plan });
  return { ok: true, value: { url: session.value.url, kind: "checkout" } };
}

/**
 * Expires the customer's other open Checkout sessions, so that a second plan opened in another tab before
 * the first was paid cannot become a second subscription: only the newest checkout can be paid. (A payment
 * completed between this session's creation and the expiry still makes two; the portal then shows both.)
 */
async function expireOtherCheckouts(core: BillingCore, customer: string, keep: string): Promise<BillingResult<void>> {
  const open = await stripeCall(
    "checkout.sessions.list",
    () => core.stripe.checkout.sessions.list({ customer, status: "open", limit: 100 }),
  );
  if (!open.ok) return open;
  for (const other of open.value.data.filter((s) => s.id !== keep)) {
    const expired = await stripeCall("checkout.sessions.expire", () => core.stripe.checkout.sessions.expire(other.id));
    // Paid or expired in the meantime: Stripe refuses to expire it, and there is nothing left to do.
    if (!expired.ok && expired.error.code === "billing_unavailable") return expired;
  }
  return { ok: true, value: undefined };
}

async function portalUrl(core: BillingCore, customerId: string, origin: string): Promise<BillingResult<string>> {
  const session = await stripeCall(
    "billingPortal.sessions.create",
    () => core.stripe.billingPortal.sessions.create({ customer: customerId, return_url: `${origin}/billing` }),
  );
  return session.ok ? { ok: true, value: session.value.url } : session;
}

async function portal(core: BillingCore, req: Request, caller: BillingCaller): Promise<BillingResult<{ url: string }>> {
  const origin = returnOrigin(core.config, req);
  if (!origin.ok) return origin;
  const customer = fromStore(await core.store.customerOf(caller.id));
  if (!customer.ok) return customer;
  if (!customer.value) return failed(billingError("no_billing_account"));
  const url = await portalUrl(core, customer.value, origin.value);
  return url.ok ? { ok: true, value: { url: url.value } } : url;
}

async function sync(core: BillingCore, caller: BillingCaller, sessionId?: string): Promise<BillingResult<Summary>> {
  const customer = fromStore(await core.store.customerOf(caller.id));
  if (!customer.ok) return customer;
  if (sessionId) {
    const session = await stripeCall(
      "checkout.sessions.retrieve",
      () => core.stripe.checkout.sessions.retrieve(sessionId),
    );
    if (!session.ok) {
      return session.error.code === "server_error" ? failed(billingError("checkout_not_found")) : session;
    }
    const owner = typeof session.value.customer === "string" ? session.value.customer : session.value.customer?.id;
    if (!customer.value || owner !== customer.value) return failed(billingError("checkout_not_found"));
  }
  if (customer.value) {
    const synced = await syncCustomer(core, caller.id, customer.value);
    if (!synced.ok) return synced;
  }
  return summary(core.store, core, caller.id);
}
