// Composition of keep-upscale, built once from the environment: the generations store on Supabase (the
// caller through Auth, the original row, the private bucket and record_generation through the service role).
import { createSupabaseStore } from "../_shared/supabase-store.ts";
import type { Deps } from "./handler.ts";

export interface Platform {
  fetch?: typeof fetch;
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  return {
    store: createSupabaseStore({
      url: env("SUPABASE_URL") ?? "",
      anonKey: env("SUPABASE_ANON_KEY") ?? "",
      serviceRoleKey: env("SUPABASE_SERVICE_ROLE_KEY") ?? "",
      ...(platform.fetch ? { fetch: platform.fetch } : {}),
    }),
    log: (event, fields) => console.warn(JSON.stringify({ fn: "keep-upscale", event, ...fields })),
  };
}
