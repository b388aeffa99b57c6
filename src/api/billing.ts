// The `billing` function (issue 45; /work/notes/billing-contract.md): the person's plan summary, a Stripe
// Checkout (or, for a person who already has a subscription, the billing portal), the portal, and the sync
// the payment-success page runs. The function's failures are `{ error: { code, message } }`: its own codes
// `billing_not_configured` (no payment provider: the plan buttons show the spec's notice) and
// `billing_unavailable` (Stripe could not be reached: its sentence is shown as is); anything else is mapped
// through the error catalogue (errors.ts). The live `subscriptions` row of the person is heard here too.
import type { RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import { isTier, type Tier } from "#shared/vocabulary/tiers.ts";
import { err, ok, type Result } from "../lib/result";
import { refreshSession, renewingOnce } from "./auth";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";
import type { InvokeFn } from "./generate";
import type { ChangeFeedStatus } from "./library";

/** The paid plans a checkout may ask for: Creator sets the tier `pro`, Pro sets `premium`. */
export type PaidPlan = "creator" | "pro";

export type BillingSubscription = {
  status: string;
  plan: PaidPlan;
  tier: Tier;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  endsAt: string | null;
  graceUntil: string | null;
};

export type BillingInvoice = {
  id: string;
  number: string | null;
  /** Cents. */
  amountPaid: number;
  currency: string;
  status: string;
  created: string;
  hostedUrl: string | null;
  pdfUrl: string | null;
};

export type BillingSummary = {
  configured: boolean;
  testMode: boolean;
  tier: Tier;
  subscription: BillingSubscription | null;
  invoices: BillingInvoice[];
};

/** A failure of the billing function: `notConfigured` when no payment provider is connected. */
export type BillingError = AppError & { notConfigured?: boolean };

const defaultInvoke: InvokeFn = (name, options) => supabase().functions.invoke(name, options);

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

function subscriptionOf(raw: unknown): BillingSubscription | null {
  if (!raw || typeof raw !== "object") return null;
  const s = raw as Record<string, unknown>;
  const plan = s.plan === "creator" || s.plan === "pro" ? s.plan : null;
  if (!plan || !isTier(s.tier)) return null;
  return {
    status: String(s.status ?? ""),
    plan,
    tier: s.tier,
    currentPeriodEnd: str(s.currentPeriodEnd),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd === true,
    endsAt: str(s.endsAt),
    graceUntil: str(s.graceUntil),
  };
}

function invoiceOf(raw: unknown): BillingInvoice | null {
  if (!raw || typeof raw !== "object") return null;
  const i = raw as Record<string, unknown>;
  const id = str(i.id);
  const created = str(i.created);
  if (!id || !created) return null;
  return {
    id,
    number: str(i.number),
    amountPaid: Number(i.amountPaid) || 0,
    currency: String(i.currency ?? "usd"),
    status: String(i.status ?? ""),
    created,
    hostedUrl: str(i.hostedUrl),
    pdfUrl: str(i.pdfUrl),
  };
}

/** The summary as the function answers it, read defensively: a field it lacks never breaks the page. */
export function summaryOf(raw: unknown): BillingSummary | null {
  if (!raw || typeof raw !== "object") return null;
  const s = raw as Record<string, unknown>;
  if (typeof s.configured !== "boolean") return null;
  return {
    configured: s.configured,
    testMode: s.testMode === true,
    tier: isTier(s.tier) ? s.tier : "free",
    subscription: subscriptionOf(s.subscription),
    invoices: (Array.isArray(s.invoices) ? s.invoices : []).flatMap((i) => invoiceOf(i) ?? []),
  };
}

/** The function's `{ error: { code, message } }` (or `{ code, message }`) as a BillingError. */
async function failureOf(error: unknown): Promise<BillingError> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!(context instanceof Response)) return toAppError(error);
  let body: Record<string, unknown>;
  try {
    body = (await context.clone().json()) as Record<string, unknown>;
  } catch {
    return toAppError({ message: (error as Error).message, status: context.status });
  }
  const inner = (body.error && typeof body.error === "object" ? body.error : body) as Record<string, unknown>;
  const code = inner.code;
  const message = typeof inner.message === "string" ? inner.message : undefined;
  if (code === "billing_not_configured") {
    return { ...toAppError({ message: "server error", status: context.status }), notConfigured: true };
  }
  const mapped = toAppError({ error: inner, status: context.status });
  // The function's sentence says what happened and what to do (Stripe unreachable: nothing was charged).
  if (code === "billing_unavailable")
    return { ...mapped, title: "Payments Unavailable", message: message ?? mapped.message };
  if (message && code === "invalid_input") mapped.message = message;
  return mapped;
}

async function callOnce<T>(
  body: Record<string, unknown>,
  read: (data: unknown) => T | null,
  invoke: InvokeFn,
): Promise<Result<T, BillingError>> {
  try {
    const { data, error } = await invoke("billing", { body });
    if (error) return err(await failureOf(error));
    const value = read(data);
    return value === null ? err(toAppError("server error: unexpected answer")) : ok(value);
  } catch (e) {
    return err(toAppError(e));
  }
}

/** One call of the function; a call refused for its session renews it once and is made again. */
function call<T>(
  body: Record<string, unknown>,
  read: (data: unknown) => T | null,
  invoke: InvokeFn = defaultInvoke,
  renew: () => Promise<boolean> = refreshSession,
): Promise<Result<T, BillingError>> {
  return renewingOnce(
    () => callOnce(body, read, invoke),
    (r) => !r.ok && r.error.code === "auth_required",
    renew,
  );
}

export function fetchBillingSummary(invoke?: InvokeFn, renew?: () => Promise<boolean>) {
  return call({ action: "summary" }, summaryOf, invoke, renew);
}

export type CheckoutAnswer = { url: string; kind: "checkout" | "portal" };

function urlOf(data: unknown): string | null {
  const url = str((data as { url?: unknown } | null)?.url);
  return url && /^https?:\/\//.test(url) ? url : null;
}

/** A Checkout for `plan`, or the portal (`kind: "portal"`) when the person already has a live subscription. */
export function startCheckout(plan: PaidPlan, invoke?: InvokeFn, renew?: () => Promise<boolean>) {
  return call<CheckoutAnswer>(
    { action: "checkout", plan },
    (data) => {
      const url = urlOf(data);
      const kind = (data as { kind?: unknown }).kind === "portal" ? "portal" : "checkout";
      return url ? { url, kind } : null;
    },
    invoke,
    renew,
  );
}

/** A billing portal session (card, cancel, switch plan); it returns to /billing. */
export function openPortal(invoke?: InvokeFn, renew?: () => Promise<boolean>) {
  return call({ action: "portal" }, urlOf, invoke, renew);
}

/** Reads the person's subscription from Stripe now and answers the summary (the payment-success page). */
export function syncBilling(sessionId: string | null, invoke?: InvokeFn, renew?: () => Promise<boolean>) {
  return call({ action: "sync", ...(sessionId ? { sessionId } : {}) }, summaryOf, invoke, renew);
}

/**
 * Hears every change of the person's `subscriptions` row (a payment, a cancel, a renewal or the end of a
 * plan, on any device or from Stripe's events). The rows come through row-level security; the channel only
 * carries postgres_changes, so it needs no broadcast policy of its own.
 */
export function subscribeSubscriptionChanges(
  userId: string,
  onChange: () => void,
  onStatus: (status: ChangeFeedStatus) => void,
): () => void {
  const client = supabase();
  const channel = client
    .channel(`plan:${userId}`)
    .on(
      "postgres_changes",
      { schema: "public", table: "subscriptions", event: "*", filter: `user_id=eq.${userId}` },
      (_payload: RealtimePostgresChangesPayload<Record<string, unknown>>) => onChange(),
    )
    .subscribe((status) => onStatus(status as ChangeFeedStatus));
  return () => void client.removeChannel(channel);
}

/** What a plan button does next (src/ui/plan-card.tsx's PlanChoice): a payment page, the notice, or a failure. */
export type PlanButtonAnswer =
  { kind: "redirect"; url: string } | { kind: "notice" } | { kind: "failed"; title: string; message: string };

function answerOf(result: Result<string, BillingError>): PlanButtonAnswer {
  if (result.ok) return { kind: "redirect", url: result.value };
  if (result.error.notConfigured) return { kind: "notice" };
  return { kind: "failed", title: result.error.title, message: result.error.message };
}

/** A paid plan's button: Stripe Checkout, or the portal for a person who has a plan already. */
export async function choosePlan(plan: PaidPlan, invoke?: InvokeFn): Promise<PlanButtonAnswer> {
  const answer = await startCheckout(plan, invoke);
  return answerOf(answer.ok ? ok(answer.value.url) : answer);
}

/** "Manage billing": the billing portal (card, invoices, cancel, switch plan). */
export async function manageBilling(invoke?: InvokeFn): Promise<PlanButtonAnswer> {
  return answerOf(await openPortal(invoke));
}
