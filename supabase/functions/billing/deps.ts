// Composition of billing, built once from the environment and the platform. index.ts passes Deno.env;
// the local backend passes its own environment (with the stand-in's Stripe variables unless real keys
// are set) and its in-process fetch.
import { composeBilling } from "../_shared/billing/compose.ts";
import type { Deps } from "./handler.ts";

export interface Platform {
  fetch?: typeof fetch;
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  const { core, store, log } = composeBilling("billing", env, platform.fetch);
  return { store, billing: core, log };
}
