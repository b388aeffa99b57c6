// Where the backend lives, and whom people may write to about this site. `npm start` serves
// /app-config.js (loaded before the app) with the local backend's URL and anon key and the CONTACT_EMAIL
// it was given; hosted builds bake VITE_* variables in instead, and those are also what prerendered pages
// were written with. Nothing here is secret: the anon key is public by design.

export type AppConfig = {
  supabaseUrl: string;
  supabaseAnonKey: string;
  /** The one host the product is meant to be used on; empty when none is configured. */
  productionHost: string;
};

/** The whole configuration the pages read: the backend's, and whom people may write to about this site. */
export type SiteConfig = AppConfig & {
  /** The address the operator of this site publishes for contact; empty when none is (or it is no address). */
  contactEmail: string;
};

type RawConfig = Partial<Record<keyof SiteConfig, unknown>>;

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

/** Longest address SMTP carries (RFC 5321's path limit less its brackets). */
const CONTACT_EMAIL_MAX = 254;

/** Characters no part of a published address may hold: space, the address's own separators, and what a
 * mailto link would read as the start of its headers or a fragment. */
const NOT_IN_ADDRESS = String.raw`\s@<>"'(),;:\\?&#%/`;
const ADDRESS = new RegExp(`^[^${NOT_IN_ADDRESS}]+@[^${NOT_IN_ADDRESS}.]+(\\.[^${NOT_IN_ADDRESS}.]+)+$`);

/**
 * `raw` when it reads as one e-mail address (local part, "@", a dotted domain), else empty: a mistyped
 * setting shows as no address rather than as a link that goes nowhere or carries more than an address.
 */
export function contactAddress(raw: string): string {
  return raw.length <= CONTACT_EMAIL_MAX && ADDRESS.test(raw) ? raw : "";
}

export function readConfig(
  runtime: RawConfig | undefined = typeof window === "undefined" ? undefined : window.__APP_CONFIG__,
  env: Record<string, unknown> = import.meta.env,
): SiteConfig {
  return {
    supabaseUrl: pick(runtime?.supabaseUrl, env.VITE_SUPABASE_URL).replace(/\/+$/, ""),
    supabaseAnonKey: pick(runtime?.supabaseAnonKey, env.VITE_SUPABASE_ANON_KEY),
    productionHost: pick(runtime?.productionHost, env.VITE_PRODUCTION_HOST).toLowerCase(),
    contactEmail: contactAddress(pick(runtime?.contactEmail, env.VITE_CONTACT_EMAIL)),
  };
}

let cached: SiteConfig | undefined;

export function appConfig(): SiteConfig {
  cached ??= readConfig();
  return cached;
}

/**
 * The configuration this build was made with, without /app-config.js: what prerendered pages were written
 * with, so a page hydrates against the same words before it shows this site's own (see useContactEmail).
 */
export function builtConfig(env: Record<string, unknown> = import.meta.env): SiteConfig {
  return readConfig({}, env);
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
