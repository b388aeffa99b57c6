// Composition of stripe-webhook, built once from the environment and the platform. index.ts passes
// Deno.env; the local backend passes its own environment and its in-process fetch.
import { composeBilling } from "../_shared/billing/compose.ts";
import type { Deps } from "./handler.ts";

export interface Platform {
  fetch?: typeof fetch;
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  const { core, log } = composeBilling("stripe-webhook", env, platform.fetch);
  return { billing: core, log };
}
