// Composition of health: which platform variables it reports and which image engines are configured,
// read once from the environment (no provider code is loaded for it).
import { configuredProviders } from "../_shared/providers/configured.ts";
import type { HealthDeps } from "./handler.ts";

export function createDeps(env: (name: string) => string | undefined): HealthDeps {
  return {
    configured: {
      supabase_url: Boolean(env("SUPABASE_URL")),
      service_role_key: Boolean(env("SUPABASE_SERVICE_ROLE_KEY")),
    },
    providers: configuredProviders(env),
  };
}
