// The one supabase-js client of the page. Created on first use (so pages that never talk to the
// backend never load supabase-js), with the session kept in localStorage, refreshed automatically,
// and read from the URL fragment when a password-reset link lands (implicit flow, the default).
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { appConfig, isBackendConfigured } from "./config";

export class BackendNotConfiguredError extends Error {
  readonly code = "backend_not_configured";
  constructor() {
    super("No backend is configured: app-config.js and VITE_SUPABASE_URL are both empty");
    this.name = "BackendNotConfiguredError";
  }
}

let client: SupabaseClient | undefined;

export function supabase(): SupabaseClient {
  if (client) return client;
  const config = appConfig();
  if (!isBackendConfigured(config)) throw new BackendNotConfiguredError();
  client = createClient(config.supabaseUrl, config.supabaseAnonKey, {
    auth: {
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl: true,
    },
  });
  return client;
}
