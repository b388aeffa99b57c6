// Reports that the functions runtime is up and which platform variables it was given.
import { handleOptions, jsonResponse } from "../_shared/http.ts";

export function handler(req: Request): Response {
  const pre = handleOptions(req);
  if (pre) return pre;
  return jsonResponse({
    status: "ok",
    runtime: typeof Deno !== "undefined" ? `deno ${Deno.version.deno}` : "unknown",
    configured: {
      supabase_url: Boolean(Deno.env.get("SUPABASE_URL")),
      service_role_key: Boolean(Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")),
    },
    time: new Date().toISOString(),
  });
}
