// stripe-webhook: Stripe's events (decision 148). No user token (verify_jwt = false): the signature is
// the authentication. The raw body is verified with the official library against the
// Stripe-Signature header and STRIPE_WEBHOOK_SECRET; a missing or wrong signature is 400 and changes
// nothing. Each event id is recorded once: a replay of one handled before answers 200 and does nothing.
// An event never carries the truth: it only names a customer, whose current subscriptions the sync then
// reads from Stripe (so order, duplicates and lost events change nothing). A customer not made here is
// recorded and answered 200; Stripe unreachable during the sync is 502, so Stripe delivers it again.
import { cryptoProvider } from "../_shared/billing/config.ts";
import { billingError, billingResponse, invalid } from "../_shared/billing/errors.ts";
import type { EventOutcome } from "../_shared/billing/store.ts";
import { type BillingCore, fromStore, syncCustomer } from "../_shared/billing/sync.ts";
import { handleOptions, jsonResponse } from "../_shared/http.ts";

export interface Deps {
  /** Null when Stripe is not configured. */
  billing: BillingCore | null;
  log: BillingCore["log"];
}

/** Stripe's events are far smaller; a larger body is refused before it is read whole. */
const BODY_LIMIT_BYTES = 512 * 1024;

interface StripeEvent {
  id: string;
  type: string;
  data: { object: { id?: string; object?: string; customer?: unknown } };
}

export async function handler(req: Request, d: Deps): Promise<Response> {
  const pre = handleOptions(req);
  if (pre) return pre;
  if (req.method !== "POST") return billingResponse(invalid("Use POST", 405));
  if (!d.billing) return billingResponse(billingError("billing_not_configured"));
  const core = d.billing;
  const signature = req.headers.get("stripe-signature");
  const body = await rawBody(req);
  if (body === null) return billingResponse(invalid("The event is larger than any Stripe sends", 413));
  if (!signature) return billingResponse(billingError("invalid_signature", "no header"));

  let event: StripeEvent;
  try {
    event = await core.stripe.webhooks.constructEventAsync(
      body,
      signature,
      core.config.webhookSecret,
      undefined,
      cryptoProvider,
    ) as unknown as StripeEvent;
  } catch (e) {
    d.log("webhook.refused", { reason: (e as Error).message?.slice(0, 120) });
    return billingResponse(billingError("invalid_signature"));
  }

  // Signed, so Stripe's; still checked before anything is stored (ids as Stripe makes them).
  if (!isEvent(event)) return billingResponse(invalid("The body is not a Stripe event"));
  const customer = customerOf(event);
  const recorded = fromStore(await core.store.recordEvent({ id: event.id, type: event.type, customer }));
  if (!recorded.ok) return failedEvent(d, event, recorded.error.detail);
  if (recorded.value === "seen") return received(d, event, "duplicate");
  if (!customer) return await finish(d, event, "ignored");

  const user = fromStore(await core.store.userOfCustomer(customer));
  if (!user.ok) return failedEvent(d, event, user.error.detail);
  if (!user.value) return await finish(d, event, "unknown_customer");
  const synced = await syncCustomer(core, user.value, customer);
  if (!synced.ok) {
    await core.store.finishEvent(event.id, "failed");
    d.log("webhook.failed", {
      event: event.id,
      type: event.type,
      code: synced.error.code,
      detail: synced.error.detail,
    });
    return billingResponse(synced.error);
  }
  return await finish(d, event, "synced");
}

/** The body exactly as sent (the signature covers its bytes), or null when it is too large. */
async function rawBody(req: Request): Promise<string | null> {
  if (Number(req.headers.get("content-length") ?? "0") > BODY_LIMIT_BYTES) return null;
  const bytes = new Uint8Array(await req.arrayBuffer().catch(() => new ArrayBuffer(0)));
  return bytes.byteLength > BODY_LIMIT_BYTES ? null : new TextDecoder().decode(bytes);
}

const STRIPE_ID = /^[A-Za-z0-9_]{1,255}$/;
const EVENT_TYPE = /^[a-z0-9_.]{1,120}$/;
const CUSTOMER_ID = /^cus_[A-Za-z0-9_]{1,250}$/;

function isEvent(e: unknown): e is StripeEvent {
  const v = e as Partial<StripeEvent> | null;
  return typeof v === "object" && v !== null && typeof v.id === "string" && STRIPE_ID.test(v.id) &&
    typeof v.type === "string" && EVENT_TYPE.test(v.type);
}

/**
 * The customer an event is about: its object's `customer`, or the object itself for customer.* events;
 * null when it names none (or nothing shaped as a customer id).
 */
function customerOf(event: StripeEvent): string | null {
  const object = (typeof event.data?.object === "object" && event.data.object) || {};
  const c = object.customer;
  let id: unknown = null;
  if (typeof c === "string") id = c;
  else if (c && typeof c === "object") id = (c as { id?: unknown }).id;
  else if (object.object === "customer") id = object.id;
  return typeof id === "string" && CUSTOMER_ID.test(id) ? id : null;
}

async function finish(d: Deps, event: StripeEvent, outcome: EventOutcome): Promise<Response> {
  const done = fromStore(await d.billing!.store.finishEvent(event.id, outcome));
  if (!done.ok) return failedEvent(d, event, done.error.detail);
  return received(d, event, outcome);
}

function received(d: Deps, event: StripeEvent, outcome: EventOutcome | "duplicate"): Response {
  d.log("webhook.received", { event: event.id, type: event.type, outcome });
  return jsonResponse({ received: true, outcome });
}

function failedEvent(d: Deps, event: StripeEvent, detail: string | undefined): Response {
  d.log("webhook.failed", { event: event.id, type: event.type, code: "server_error", detail });
  return billingResponse(billingError("server_error"));
}
