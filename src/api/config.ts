// Where the backend lives. `npm start` serves /app-config.js (loaded before the app) with the local
// backend's URL and anon key; hosted builds bake VITE_* variables in instead. Nothing here is secret:
// the anon key is public by design.

export type AppConfig = {
  supabaseUrl: string;
  supabaseAnonKey: string;
  /** The one host the product is meant to be used on; empty when none is configured. */
  productionHost: string;
};

type RawConfig = Partial<Record<keyof AppConfig, unknown>>;

declare global {
  interface Window {
    __APP_CONFIG__?: RawConfig;
  }
}

function pick(runtime: unknown, built: unknown): string {
  if (typeof runtime === "string" && runtime.trim()) return runtime.trim();
  if (typeof built === "string" && built.trim()) return built.trim();
  return "";
}

export function readConfig(
  runtime: RawConfig | undefined = typeof window === "undefined" ? undefined : window.__APP_CONFIG__,
  env: Record<string, unknown> = import.meta.env,
): AppConfig {
  return {
    supabaseUrl: pick(runtime?.supabaseUrl, env.VITE_SUPABASE_URL).replace(/\/+$/, ""),
    supabaseAnonKey: pick(runtime?.supabaseAnonKey, env.VITE_SUPABASE_ANON_KEY),
    productionHost: pick(runtime?.productionHost, env.VITE_PRODUCTION_HOST).toLowerCase(),
  };
}

let cached: AppConfig | undefined;

export function appConfig(): AppConfig {
  cached ??= readConfig();
  return cached;
}

export function isBackendConfigured(config: AppConfig = appConfig()): boolean {
  return Boolean(config.supabaseUrl && config.supabaseAnonKey);
}

/**
 * The localStorage key supabase-js keeps the session under (its default: `sb-<first label of the
 * hostname>-auth-token`). The shell reads it to know, without loading the client, whether anyone
 * might be signed in.
 */
export function authStorageKey(config: AppConfig = appConfig()): string {
  try {
    return `sb-${new URL(config.supabaseUrl).hostname.split(".")[0]}-auth-token`;
  } catch {
    return "sb-unconfigured-auth-token";
  }
}
