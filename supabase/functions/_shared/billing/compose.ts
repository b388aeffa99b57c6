// What the billing functions (billing, stripe-webhook) and delete-account build from their environment:
// the store on Supabase and, when Stripe is configured, the core the sync runs on.
import { createStripe, readBillingConfig } from "./config.ts";
import { createSupabaseBillingStore } from "./store.ts";
import type { BillingCore } from "./sync.ts";

export function composeBilling(
  fn: string,
  env: (name: string) => string | undefined,
  fetchFn: typeof fetch = fetch,
): { core: BillingCore | null; store: BillingCore["store"]; log: BillingCore["log"] } {
  const log = (event: string, fields: Record<string, unknown>) =>
    console.warn(JSON.stringify({ fn, event, ...fields }));
  const config = readBillingConfig(env);
  const store = createSupabaseBillingStore({
    url: env("SUPABASE_URL") ?? "",
    anonKey: env("SUPABASE_ANON_KEY") ?? "",
    serviceRoleKey: env("SUPABASE_SERVICE_ROLE_KEY") ?? "",
    fetch: fetchFn,
  });
  const core = config ? { config, stripe: createStripe(config, fetchFn), store, now: () => Date.now(), log } : null;
  return { core, store, log };
}
