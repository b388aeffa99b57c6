// What the billing functions need from the database, and its implementation on Supabase: who the
// caller is (Auth), and, with the service role (the only role that may touch these tables), the person's
// Stripe customer, their subscription row and tier, and the Stripe events received.
// deno-lint-ignore no-import-prefix -- the edge runtime deploys this file without an import map
import { createClient } from "npm:@supabase/supabase-js@2";
import { type AppError, appError, fail, ok, type Result } from "../errors.ts";
import type { SubscriptionView } from "./plans.ts";

export interface BillingCaller {
  id: string;
  email: string | null;
}

/** The subscription row a person may read (no Stripe id in it). */
export interface SubscriptionRow {
  status: string;
  plan: string;
  tier: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  ends_at: string | null;
  grace_until: string | null;
}

export type EventOutcome = "synced" | "unknown_customer" | "ignored" | "failed";

export interface BillingStore {
  identify(jwt: string): Promise<Result<BillingCaller>>;
  /** The person's Stripe customer id, or null when none was made yet. */
  customerOf(userId: string): Promise<Result<string | null>>;
  /** Keeps `customerId` as the person's unless one is kept already; answers the one kept. */
  keepCustomer(userId: string, customerId: string): Promise<Result<string>>;
  /** The person a Stripe customer belongs to, or null for a customer not made here. */
  userOfCustomer(customerId: string): Promise<Result<string | null>>;
  /** Writes the subscription (null: none) and the tier it gives, unless a later sync wrote already. */
  apply(userId: string, view: SubscriptionView | null, syncedAt: string): Promise<Result<void>>;
  /** The tier the quota reads now (free once its paid time has passed) and the subscription row. */
  state(userId: string): Promise<Result<{ tier: string; subscription: SubscriptionRow | null }>>;
  /**
   * Records an event by id. "seen" when it was recorded before and handled to an end (a replay);
   * "new" otherwise (a first delivery, or a retry of one that failed).
   */
  recordEvent(event: { id: string; type: string; customer: string | null }): Promise<Result<"new" | "seen">>;
  finishEvent(id: string, outcome: EventOutcome): Promise<Result<void>>;
}

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };
const SUBSCRIPTION_COLUMNS = "status,plan,tier,current_period_end,cancel_at_period_end,ends_at,grace_until";

function dbError(what: string, e: { status?: number; code?: string; message?: string } | null): AppError {
  return appError("server_error", { detail: `${what}: ${e?.status ?? ""} ${e?.code ?? ""} ${e?.message ?? ""}` });
}

export function createSupabaseBillingStore(config: {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  fetch?: typeof fetch;
}): BillingStore {
  const global = config.fetch ? { fetch: config.fetch } : {};
  const anon = createClient(config.url, config.anonKey, { auth: noSession, global });
  const service = createClient(config.url, config.serviceRoleKey, { auth: noSession, global });

  const customerOf = async (userId: string): Promise<Result<string | null>> => {
    const { data, error } = await service.from("billing_customers").select("stripe_customer_id").eq(
      "user_id",
      userId,
    ).maybeSingle();
    if (error) return fail(dbError("select billing_customers", error));
    return ok((data as { stripe_customer_id: string } | null)?.stripe_customer_id ?? null);
  };

  return {
    async identify(jwt) {
      const { data, error } = await anon.auth.getUser(jwt);
      if (data.user && !error) return ok({ id: data.user.id, email: data.user.email ?? null });
      const unreachable = !error?.status || error.status >= 500;
      if (error && unreachable && error.name !== "AuthSessionMissingError") {
        return fail(dbError("auth.getUser", error));
      }
      return fail(appError("auth_required"));
    },

    customerOf,

    async keepCustomer(userId, customerId) {
      // The first id written wins: a concurrent checkout that made (or was answered) another keeps none.
      const { error } = await service.from("billing_customers").upsert(
        { user_id: userId, stripe_customer_id: customerId },
        { onConflict: "user_id", ignoreDuplicates: true },
      );
      if (error) return fail(dbError("insert billing_customers", error));
      const kept = await customerOf(userId);
      if (!kept.ok) return kept;
      return kept.value ? ok(kept.value) : fail(dbError("billing_customers", { message: "row missing after insert" }));
    },

    async userOfCustomer(customerId) {
      const { data, error } = await service.from("billing_customers").select("user_id").eq(
        "stripe_customer_id",
        customerId,
      ).maybeSingle();
      if (error) return fail(dbError("select billing_customers", error));
      return ok((data as { user_id: string } | null)?.user_id ?? null);
    },

    async apply(userId, view, syncedAt) {
      const { error } = await service.rpc("billing_apply_subscription", {
        p_user_id: userId,
        p_subscription: view,
        p_synced_at: syncedAt,
      });
      return error ? fail(dbError("billing_apply_subscription", error)) : ok(undefined);
    },

    async state(userId) {
      const [limits, sub] = await Promise.all([
        service.from("user_daily_limits").select("subscription_tier,subscription_tier_until").eq("user_id", userId)
          .maybeSingle(),
        service.from("subscriptions").select(SUBSCRIPTION_COLUMNS).eq("user_id", userId).maybeSingle(),
      ]);
      if (limits.error) return fail(dbError("select user_daily_limits", limits.error));
      if (sub.error) return fail(dbError("select subscriptions", sub.error));
      const row = limits.data as { subscription_tier: string; subscription_tier_until: string | null } | null;
      const lapsed = row?.subscription_tier_until && Date.parse(row.subscription_tier_until) <= Date.now();
      const tier = !row || lapsed ? "free" : row.subscription_tier;
      return ok({ tier, subscription: (sub.data as SubscriptionRow | null) ?? null });
    },

    async recordEvent(event) {
      const { data, error } = await service.from("stripe_events").upsert(
        { id: event.id, type: event.type, customer: event.customer },
        { onConflict: "id", ignoreDuplicates: true },
      ).select("id");
      if (error) return fail(dbError("insert stripe_events", error));
      if ((data ?? []).length > 0) return ok("new");
      const known = await service.from("stripe_events").select("outcome").eq("id", event.id).maybeSingle();
      if (known.error) return fail(dbError("select stripe_events", known.error));
      const outcome = (known.data as { outcome: string } | null)?.outcome;
      return ok(outcome === "failed" || outcome === "received" ? "new" : "seen");
    },

    async finishEvent(id, outcome) {
      const { error } = await service.from("stripe_events").update({
        outcome,
        processed_at: new Date().toISOString(),
      }).eq("id", id);
      return error ? fail(dbError("update stripe_events", error)) : ok(undefined);
    },
  };
}
