// Composition of delete-account: the account store on Supabase, built once from the environment and
// the platform. index.ts passes Deno.env; the local backend passes its own environment, so both serve
// the same handler with the same wiring.
import { createSupabaseAccountStore } from "./account-store.ts";
import { composeBilling } from "../_shared/billing/compose.ts";
import { cancelSubscriptionsOf } from "../_shared/billing/sync.ts";
import type { Deps } from "./handler.ts";

export interface Platform {
  fetch?: typeof fetch;
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  const need = (k: string) => env(k) ?? "";
  const billing = composeBilling("delete-account", env, platform.fetch).core;
  return {
    store: createSupabaseAccountStore({
      url: need("SUPABASE_URL"),
      anonKey: need("SUPABASE_ANON_KEY"),
      serviceRoleKey: need("SUPABASE_SERVICE_ROLE_KEY"),
      fetch: platform.fetch ?? fetch,
    }),
    log: (event, fields) => console.warn(JSON.stringify({ fn: "delete-account", event, ...fields })),
    ...(billing ? { cancelSubscriptions: (userId: string) => cancelSubscriptionsOf(billing, userId) } : {}),
  };
}
