// The one supabase-js client of the page (and, built with createBackendClient, of the service
// worker). Created on first use, so pages that never talk to the backend never load supabase-js.
// The session lives in IndexedDB (page and worker share it), is refreshed automatically on the page,
// and is read from the URL fragment when a password-reset link lands (implicit flow, the default).
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { onStoreWritten, openAuthStorage, type KeyValueStore } from "../db/auth-storage";
import { appConfig, authStorageKey, isBackendConfigured, type AppConfig } from "./config";
import { hintedSessionStorage } from "./session-storage";

export class BackendNotConfiguredError extends Error {
  readonly code = "backend_not_configured";
  constructor() {
    super("No backend is configured: app-config.js and VITE_SUPABASE_URL are both empty");
    this.name = "BackendNotConfiguredError";
  }
}

/** Where the service worker finds the backend (it cannot read /app-config.js's global). */
const CONFIG_KEY = "promptcanvas.backend-config";

let authStore: KeyValueStore | undefined;
const authStorage = () => (authStore ??= openAuthStorage());

export type BackendClientOptions = {
  /** The page refreshes tokens on a timer and reads reset links; the worker does neither. */
  onPage: boolean;
  storage?: KeyValueStore;
  local?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
};

export function createBackendClient(config: AppConfig, options: BackendClientOptions): SupabaseClient {
  const key = authStorageKey(config);
  return createClient(config.supabaseUrl, config.supabaseAnonKey, {
    auth: {
      storageKey: key,
      storage: hintedSessionStorage(options.storage ?? authStorage(), key, options.local),
      persistSession: true,
      autoRefreshToken: options.onPage,
      detectSessionInUrl: options.onPage,
    },
  });
}

let client: SupabaseClient | undefined;

export function supabase(): SupabaseClient {
  if (client) return client;
  const config = appConfig();
  if (!isBackendConfigured(config)) throw new BackendNotConfiguredError();
  client = createBackendClient(config, { onPage: true, local: window.localStorage });
  const { supabaseUrl, supabaseAnonKey } = config;
  void authStorage()
    .setItem(CONFIG_KEY, JSON.stringify({ supabaseUrl, supabaseAnonKey }))
    .catch(() => undefined);
  return client;
}

/**
 * Calls `listener` when a session is stored: by another tab, by the service worker or by this page
 * (each store of the auth database announces its writes). Returns its unsubscribe.
 */
export function onStoredSessionWritten(listener: () => void): () => void {
  return onStoreWritten(authStorageKey(appConfig()), listener);
}

/**
 * Who the stored session belongs to, read from the auth store itself (no refresh, no network): null when
 * none is stored, undefined when the store could not be read (then nothing may be concluded).
 */
export async function storedSessionOwner(): Promise<{ id: string; email: string } | null | undefined> {
  try {
    const raw = await authStorage().getItem(authStorageKey(appConfig()));
    if (raw === null) return null;
    const user = (JSON.parse(raw) as { user?: { id?: unknown; email?: unknown } }).user;
    if (typeof user?.id !== "string") return undefined;
    return { id: user.id, email: typeof user.email === "string" ? user.email : "" };
  } catch {
    return undefined;
  }
}

/** Removes the page's stored session (and its hint) without telling the server. */
export async function forgetStoredSession(): Promise<void> {
  const key = authStorageKey(appConfig());
  await hintedSessionStorage(authStorage(), key, window.localStorage).removeItem(key);
}

/** The backend config the page last used, for the service worker; null when none was stored. */
export async function storedBackendConfig(storage: KeyValueStore = authStorage()): Promise<AppConfig | null> {
  try {
    const raw = await storage.getItem(CONFIG_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<AppConfig>) : null;
    if (!parsed?.supabaseUrl || !parsed.supabaseAnonKey) return null;
    return { supabaseUrl: parsed.supabaseUrl, supabaseAnonKey: parsed.supabaseAnonKey, productionHost: "" };
  } catch {
    return null;
  }
}

/** Lets the service worker make its own client the one `supabase()` answers with. */
export function setBackendClient(next: SupabaseClient): void {
  client = next;
}
