// Reports that the functions runtime is up and which platform variables it was given.
import { handleOptions, jsonResponse } from "../_shared/http.ts";

export interface HealthDeps {
  configured: { supabase_url: boolean; service_role_key: boolean };
}

const UNCONFIGURED: HealthDeps = { configured: { supabase_url: false, service_role_key: false } };

export function handler(req: Request, deps: HealthDeps = UNCONFIGURED): Response {
  const pre = handleOptions(req);
  if (pre) return pre;
  return jsonResponse({
    status: "ok",
    runtime: typeof Deno !== "undefined" ? `deno ${Deno.version.deno}` : "unknown",
    configured: deps.configured,
    time: new Date().toISOString(),
  });
}
