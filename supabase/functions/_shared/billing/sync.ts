// The one sync (decision 148): read the customer's CURRENT subscriptions from Stripe and write what they
// mean. Every webhook event, the success page, a checkout and the billing page's "sync" run this and
// nothing else, so the order of events, their duplicates and their loss change nothing: the last read
// wins, and a read older than the one written is dropped by the database (synced_at).
// Also the customer, made once per person, and the calls delete-account makes.
import { appError, type Result } from "../errors.ts";
import { type BillingConfig, type Stripe } from "./config.ts";
import { billingError, type BillingResult, failed, fromAppError } from "./errors.ts";
import { currentOf, isLive, type SubscriptionView } from "./plans.ts";
import type { BillingCaller, BillingStore } from "./store.ts";

export interface BillingCore {
  config: BillingConfig;
  stripe: Stripe;
  store: BillingStore;
  now: () => number;
  /** Receives codes and ids only: never keys, e-mail addresses or card details. */
  log: (event: string, fields: Record<string, unknown>) => void;
}

/** Statuses of the library's errors that mean Stripe could not be reached or could not answer now. */
const UNREACHABLE_TYPES = new Set(["StripeConnectionError", "StripeAPIError", "StripeRateLimitError"]);

/** A Stripe call as a result: unreachable (502 billing_unavailable) or refused (500, logged). */
export async function stripeCall<T>(what: string, call: () => Promise<T>): Promise<BillingResult<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (e) {
    const { type, statusCode, message } = e as { type?: string; statusCode?: number; message?: string };
    const unreachable = (type !== undefined && UNREACHABLE_TYPES.has(type)) || (statusCode ?? 0) >= 500;
    const detail = `${what}: ${type ?? "error"} ${statusCode ?? ""} ${message ?? String(e)}`.slice(0, 300);
    return failed(billingError(unreachable ? "billing_unavailable" : "server_error", detail));
  }
}

export const fromStore = <T>(r: { ok: true; value: T } | { ok: false; error: Parameters<typeof fromAppError>[0] }) =>
  r.ok ? r : failed<T>(fromAppError(r.error));

export interface Synced {
  /** Every subscription of the customer, as read. */
  subscriptions: Stripe.Subscription[];
  /** The one that speaks for the person, or null. */
  current: SubscriptionView | null;
  /** True when the person has a live subscription (checkout leads to the portal). */
  live: boolean;
}

export async function syncCustomer(
  core: BillingCore,
  userId: string,
  customerId: string,
): Promise<BillingResult<Synced>> {
  const syncedAt = new Date(core.now()).toISOString();
  const listed = await stripeCall(
    "subscriptions.list",
    () => core.stripe.subscriptions.list({ customer: customerId, status: "all", limit: 10 }),
  );
  if (!listed.ok) return listed;
  const subscriptions = listed.value.data;
  const current = currentOf(subscriptions, core.config.prices);
  const applied = fromStore(await core.store.apply(userId, current?.view ?? null, syncedAt));
  if (!applied.ok) return applied;
  core.log("billing.synced", {
    user_id: userId,
    status: current?.view.status ?? null,
    tier: current?.view.tier ?? null,
  });
  return {
    ok: true,
    value: { subscriptions, current: current?.view ?? null, live: subscriptions.some((s) => isLive(s)) },
  };
}

const customerKey = (userId: string) => `promptcanvas-customer-${userId}`;

/**
 * The person's Stripe customer, made the first time it is needed and never again: Stripe answers a
 * repeated creation with the same idempotency key with the same customer, and the database keeps the
 * first id written, so two checkouts at once end with one customer.
 */
export async function ensureCustomer(core: BillingCore, caller: BillingCaller): Promise<BillingResult<string>> {
  const known = fromStore(await core.store.customerOf(caller.id));
  if (!known.ok || known.value) return known as BillingResult<string>;
  const created = await stripeCall("customers.create", () =>
    core.stripe.customers.create(
      { ...(caller.email ? { email: caller.email } : {}), metadata: { user_id: caller.id } },
      { idempotencyKey: customerKey(caller.id) },
    ));
  if (!created.ok) return created;
  const kept = fromStore(await core.store.keepCustomer(caller.id, created.value.id));
  if (kept.ok && kept.value !== created.value.id) {
    core.log("billing.customer_not_kept", { user_id: caller.id });
  } else if (kept.ok) {
    core.log("billing.customer_created", { user_id: caller.id });
  }
  return kept;
}

/** The customer's latest invoices, newest first, as the billing page lists them. */
export interface InvoiceLine {
  id: string;
  number: string | null;
  amountPaid: number;
  currency: string;
  status: string | null;
  created: string;
  hostedUrl: string | null;
  pdfUrl: string | null;
}

export async function invoicesOf(core: BillingCore, customerId: string): Promise<BillingResult<InvoiceLine[]>> {
  const listed = await stripeCall(
    "invoices.list",
    () => core.stripe.invoices.list({ customer: customerId, limit: 24 }),
  );
  if (!listed.ok) return listed;
  return {
    ok: true,
    value: listed.value.data.filter((i) => i.status !== "draft").map((i) => ({
      id: i.id ?? "",
      number: i.number ?? null,
      amountPaid: i.amount_paid,
      currency: i.currency,
      status: i.status ?? null,
      created: new Date(i.created * 1000).toISOString(),
      hostedUrl: i.hosted_invoice_url ?? null,
      pdfUrl: i.invoice_pdf ?? null,
    })),
  };
}

/**
 * Ends the person's subscriptions in Stripe at once (delete-account, before anything is deleted): no
 * renewal may charge an account that is gone. A person with no customer has nothing to end.
 */
export async function cancelAllSubscriptions(core: BillingCore, userId: string): Promise<BillingResult<number>> {
  const customer = fromStore(await core.store.customerOf(userId));
  if (!customer.ok) return customer;
  if (!customer.value) return { ok: true, value: 0 };
  const customerId = customer.value;
  const listed = await stripeCall(
    "subscriptions.list",
    () => core.stripe.subscriptions.list({ customer: customerId, status: "all", limit: 10 }),
  );
  if (!listed.ok) return listed;
  let ended = 0;
  for (const sub of listed.value.data) {
    if (sub.status === "canceled" || sub.status === "incomplete_expired") continue;
    const cancelled = await stripeCall("subscriptions.cancel", () => core.stripe.subscriptions.cancel(sub.id));
    if (!cancelled.ok) return cancelled;
    ended += 1;
  }
  return { ok: true, value: ended };
}

/** cancelAllSubscriptions as delete-account's step: Stripe unreachable is a network_error (502). */
export async function cancelSubscriptionsOf(core: BillingCore, userId: string): Promise<Result<number>> {
  const r = await cancelAllSubscriptions(core, userId);
  if (r.ok) return r;
  const code = r.error.code === "billing_unavailable" ? "network_error" : "server_error";
  return { ok: false, error: appError(code, { message: r.error.message, detail: r.error.detail }) };
}
