// Composition of health: which platform variables it reports, read once from the environment.
import type { HealthDeps } from "./handler.ts";

export function createDeps(env: (name: string) => string | undefined): HealthDeps {
  return {
    configured: {
      supabase_url: Boolean(env("SUPABASE_URL")),
      service_role_key: Boolean(env("SUPABASE_SERVICE_ROLE_KEY")),
    },
  };
}
