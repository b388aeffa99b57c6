// The terms operators add to the prompt check, read from `public.moderation_terms` with the service role
// (operators write them through the moderation page; nobody else reads them).
// deno-lint-ignore no-import-prefix -- the edge runtime deploys this file without an import map
import { createClient } from "npm:@supabase/supabase-js@2";
import { appError, fail, ok } from "../errors.ts";
import type { TermSource } from "./prompt-check.ts";

/** No more terms than this are read; the list is the operators' own and stays short. */
export const MAX_TERMS = 5_000;

export function createTermsReader(config: { url: string; serviceRoleKey: string; fetch?: typeof fetch }): TermSource {
  const service = createClient(config.url, config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: config.fetch ? { fetch: config.fetch } : {},
  });
  return async () => {
    const { data, error } = await service.from("moderation_terms").select("term").limit(MAX_TERMS);
    if (error) return fail(appError("server_error", { detail: `moderation_terms: ${error.code} ${error.message}` }));
    return ok((data ?? []).map((r: { term: unknown }) => String(r.term)));
  };
}
