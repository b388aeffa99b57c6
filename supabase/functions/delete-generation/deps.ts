// Composition of delete-generation: the remover on Supabase, built once from the environment and the
// platform. index.ts passes Deno.env; the local backend passes its own environment.
import type { Deps } from "./handler.ts";
import { createSupabaseRemover } from "./remover.ts";

export interface Platform {
  fetch?: typeof fetch;
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  return {
    remover: createSupabaseRemover({
      url: env("SUPABASE_URL") ?? "",
      anonKey: env("SUPABASE_ANON_KEY") ?? "",
      fetch: platform.fetch ?? fetch,
    }),
    log: (event, fields) => console.warn(JSON.stringify({ fn: "delete-generation", event, ...fields })),
  };
}
