// Reports that the functions runtime is up, which platform variables it was given, and which image
// engines a request may name in `provider` (ids only: never a key or a self-hosted server's URL).
import { handleOptions, jsonResponse } from "../_shared/http.ts";
import type { ConfiguredProviders } from "../_shared/providers/configured.ts";

export interface HealthDeps {
  configured: { supabase_url: boolean; service_role_key: boolean };
  providers: ConfiguredProviders;
}

const UNCONFIGURED: HealthDeps = {
  configured: { supabase_url: false, service_role_key: false },
  providers: { available: ["builtin"], default: "builtin" },
};

export function handler(req: Request, deps: HealthDeps = UNCONFIGURED): Response {
  const pre = handleOptions(req);
  if (pre) return pre;
  return jsonResponse({
    status: "ok",
    runtime: typeof Deno !== "undefined" ? `deno ${Deno.version.deno}` : "unknown",
    configured: deps.configured,
    providers: deps.providers,
    time: new Date().toISOString(),
  });
}
