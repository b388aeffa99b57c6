// Configuration of the local backend: every environment variable it reads is parsed here, once, and
// nowhere else (docs/configuration.md lists them). The JWT secret is generated once and kept in
// DATA_DIR so that a restart keeps every session valid.
import { signJwt } from "./jwt.ts";

export interface Config {
  apiPort: number;
  appPort: number | null;
  host: string;
  /** Public base URL of the API, as a browser or supabase-js reaches it. */
  publicUrl: string;
  /** Public base URL of the app (where e-mail links land by default). */
  siteUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  staticDir: string | null;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtExpirySec: number;
  functionsDirs: string[];
  maxBodyBytes: number;
  maxUploadBytes: number;
  /** When true (tests), logs are quiet. */
  quiet: boolean;
  /** False switches sign-up to confirm-by-link mode (GoTrue's MAILER_AUTOCONFIRM). */
  mailerAutoconfirm: boolean;
  /** Seconds during which the refresh token just rotated away from may still be used once. */
  refreshTokenReuseIntervalSec: number;
  /** The development mailbox answers only loopback clients unless this is true. */
  mailboxAllowRemote: boolean;
  /** True when API_URL fixed the public URL (else it follows the port actually bound). */
  publicUrlFixed: boolean;
  /** True when SITE_URL fixed the site URL. */
  siteUrlFixed: boolean;
  migrationsDir: string;
  /** Connections in the Postgres pool. */
  dbPoolSize: number;
  /** Wall-clock limit of one function invocation, as the edge runtime's. */
  functionTimeoutMs: number;
  /** Functions the gateway serves without a JWT: supabase/config.toml's `[functions.<name>] verify_jwt = false`. */
  functionsWithoutJwt: string[];
  /** Most rows one REST request answers. */
  restMaxRows: number;
  /** Processes rendering built-in engine images (default: render-pool.ts's defaultPoolSize). */
  renderWorkers: number | null;
  /** The environment edge functions see besides the platform's variables (provider keys and the like). */
  functionEnv: Env;
  /** GoTrue's rate limits: supabase/config.toml's [auth.rate_limit], AUTH_RATE_LIMIT_* overriding. */
  authRateLimits: AuthRateLimits;
  /** GoTrue's minimum password length: supabase/config.toml's [auth] minimum_password_length (at least 6). */
  authMinPasswordLength: number;
  /** PostgREST's schemas: supabase/config.toml's [api] schemas and extra_search_path. */
  rest: RestSchemas;
  /**
   * Card payments: "stripe" when STRIPE_SECRET_KEY is set (Stripe itself; the stand-in never starts), "none"
   * with STRIPE_STANDIN=0 (functions see no STRIPE_* variable), else "stand-in" (supabase/local/stripe/).
   */
  payments: "stripe" | "none" | "stand-in";
}

/**
 * The schemas PostgREST exposes (db-schemas; the first is the default) and the ones it puts on every
 * request's search path after the request's own (db-extra-search-path), as hosted Supabase sets them from
 * config.toml's `[api] schemas` and `[api] extra_search_path`.
 */
export interface RestSchemas {
  exposed: string[];
  extraSearchPath: string[];
}

/** The functions whose `[functions.<name>]` section of a config.toml says `verify_jwt = false`. */
export function functionsWithoutJwtOf(text: string): string[] {
  const names: string[] = [];
  let fn: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      fn = /^functions\.([A-Za-z0-9_-]+)$/.exec(header[1])?.[1] ?? null;
      continue;
    }
    if (fn && /^verify_jwt\s*=\s*false$/.test(line)) names.push(fn);
  }
  return names;
}

/** The Supabase CLI's defaults, for what config.toml leaves unset. */
const DEFAULT_REST_SCHEMAS: RestSchemas = {
  exposed: ["public", "graphql_public"],
  extraSearchPath: ["public", "extensions"],
};

/** `[auth.rate_limit]` as hosted Supabase reads it (see auth/rate-limits.ts for where each applies). */
export interface AuthRateLimits {
  /** Sign-ups and password sign-ins per 5 minutes per IP (also /recover, /resend, PUT /user each). */
  signInSignUps: number;
  /** /token requests per 5 minutes per IP. */
  tokenRefresh: number;
  /** /verify requests per 5 minutes per IP. */
  tokenVerifications: number;
  /** E-mails the whole project sends per hour. */
  emailSent: number;
  /** Most requests a full per-IP bucket lets through at once (GoTrue fixes it at 30). */
  burst: number;
}

/** The Supabase CLI's (hosted) defaults, used for whatever config.toml and the environment leave unset. */
export const HOSTED_AUTH_RATE_LIMITS: AuthRateLimits = {
  signInSignUps: 30,
  tokenRefresh: 150,
  tokenVerifications: 30,
  emailSent: 2,
  burst: 30,
};

/**
 * The positive integer settings of one `[section]` of a config.toml (`key = 123` lines; anything
 * else is ignored). Enough TOML for the settings the local backend takes from that file.
 */
export function tomlIntegers(text: string, section: string): Record<string, number> {
  const out: Record<string, number> = {};
  let inSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      inSection = header[1] === section;
      continue;
    }
    const setting = inSection ? /^([A-Za-z0-9_]+)\s*=\s*(\d+)$/.exec(line) : null;
    if (setting) out[setting[1]] = Number(setting[2]);
  }
  return out;
}

/** A `key = ["a", "b"]` setting of one `[section]` of a config.toml, or undefined when absent. */
function tomlStringList(text: string, section: string, key: string): string[] | undefined {
  let inSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      inSection = header[1] === section;
      continue;
    }
    const setting = inSection ? /^([A-Za-z0-9_]+)\s*=\s*\[(.*)\]$/.exec(line) : null;
    if (setting && setting[1] === key) {
      return [...setting[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    }
  }
  return undefined;
}

/** `[api] schemas` and `[api] extra_search_path`; an empty or missing schema list keeps the default. */
function restSchemasOf(toml: string): RestSchemas {
  const exposed = tomlStringList(toml, "api", "schemas")?.filter((s) => s !== "");
  const extra = tomlStringList(toml, "api", "extra_search_path");
  return {
    exposed: exposed?.length ? exposed : DEFAULT_REST_SCHEMAS.exposed,
    extraSearchPath: extra ?? DEFAULT_REST_SCHEMAS.extraSearchPath,
  };
}

/** The project's config.toml (SUPABASE_CONFIG, else supabase/config.toml) as text; empty when there is none. */
async function readConfigToml(env: Env): Promise<string> {
  try {
    return await Deno.readTextFile(env("SUPABASE_CONFIG") ?? "supabase/config.toml");
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "";
    throw e;
  }
}

function authRateLimitsOf(env: Env, configToml: string): AuthRateLimits {
  const toml = tomlIntegers(configToml, "auth.rate_limit");
  const d = HOSTED_AUTH_RATE_LIMITS;
  const fromFile = (key: string, fallback: number) =>
    positiveInt(toml[key] === undefined ? undefined : String(toml[key]), fallback);
  return {
    signInSignUps: positiveInt(env("AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS"), fromFile("sign_in_sign_ups", d.signInSignUps)),
    tokenRefresh: positiveInt(env("AUTH_RATE_LIMIT_TOKEN_REFRESH"), fromFile("token_refresh", d.tokenRefresh)),
    tokenVerifications: positiveInt(
      env("AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS"),
      fromFile("token_verifications", d.tokenVerifications),
    ),
    emailSent: positiveInt(env("AUTH_RATE_LIMIT_EMAIL_SENT"), fromFile("email_sent", d.emailSent)),
    burst: positiveInt(env("AUTH_RATE_LIMIT_BURST"), d.burst),
  };
}

/** GoTrue's default minimum password length, and the least it takes (a smaller setting is raised to it). */
export const HOSTED_MIN_PASSWORD_LENGTH = 6;

/** `[auth] minimum_password_length` of the project's config.toml, as GoTrue applies it. */
function minPasswordLengthOf(configToml: string): number {
  const set: number | undefined = tomlIntegers(configToml, "auth").minimum_password_length;
  return Math.max(set ?? HOSTED_MIN_PASSWORD_LENGTH, HOSTED_MIN_PASSWORD_LENGTH);
}

/** Reads one variable; absent or empty is undefined. */
export type Env = (name: string) => string | undefined;

const denoEnv: Env = (k) => Deno.env.get(k) || undefined;

/** A positive integer from the environment, else the fallback (a typo never becomes 0 or NaN). */
function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isInteger(n) && n > 0 ? n : fallback;
}

async function loadSecret(env: Env, dataDir: string): Promise<string> {
  const fromEnv = env("JWT_SECRET");
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error("JWT_SECRET must be at least 32 characters");
    return fromEnv;
  }
  const file = `${dataDir}/jwt-secret`;
  try {
    return (await Deno.readTextFile(file)).trim();
  } catch {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const secret = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    await Deno.writeTextFile(file, secret, { mode: 0o600 });
    return secret;
  }
}

export async function loadConfig(env: Env = denoEnv): Promise<Config> {
  const dataDir = env("DATA_DIR") ?? ".data";
  await Deno.mkdir(dataDir, { recursive: true });
  const host = env("HOST") ?? "127.0.0.1";
  const apiPort = Number(env("API_PORT") ?? 54321);
  const appPort = env("PORT") ? Number(env("PORT")) : null;
  const jwtSecret = await loadSecret(env, dataDir);
  // Keys in the legacy JWT format: role claim only, issued long ago, valid for ten years.
  const iat = 1_700_000_000;
  const exp = iat + 10 * 365 * 24 * 3600;
  const anonKey = await signJwt({ iss: "supabase-local", role: "anon", iat, exp }, jwtSecret);
  const serviceRoleKey = await signJwt({ iss: "supabase-local", role: "service_role", iat, exp }, jwtSecret);
  const displayHost = host === "0.0.0.0" ? "127.0.0.1" : host;
  const publicUrl = env("API_URL") ?? `http://${displayHost}:${apiPort}`;
  const siteUrl = env("SITE_URL") ?? (appPort ? `http://${displayHost}:${appPort}` : publicUrl);
  const extra = env("EXTRA_FUNCTIONS_DIR");
  // config.toml is read here, once, for every setting the local backend takes from it.
  const configToml = await readConfigToml(env);
  const payments = env("STRIPE_SECRET_KEY") ? "stripe" : env("STRIPE_STANDIN") === "0" ? "none" : "stand-in";
  return {
    apiPort,
    appPort,
    host,
    publicUrl,
    siteUrl,
    dataDir,
    databaseUrl: env("DATABASE_URL") ?? null,
    staticDir: env("STATIC_DIR") ?? null,
    jwtSecret,
    anonKey,
    serviceRoleKey,
    jwtExpirySec: positiveInt(env("JWT_EXPIRY"), 3600),
    functionsDirs: [env("FUNCTIONS_DIR") ?? "supabase/functions", ...(extra ? [extra] : [])],
    maxBodyBytes: positiveInt(env("MAX_BODY_BYTES"), 1_000_000),
    maxUploadBytes: positiveInt(env("MAX_UPLOAD_BYTES"), 20_000_000),
    quiet: env("QUIET") === "1",
    mailerAutoconfirm: env("MAILER_AUTOCONFIRM") !== "false",
    refreshTokenReuseIntervalSec: Number(env("REFRESH_TOKEN_REUSE_INTERVAL") ?? 10),
    mailboxAllowRemote: env("MAILBOX_ALLOW_REMOTE") === "1",
    publicUrlFixed: env("API_URL") !== undefined,
    siteUrlFixed: env("SITE_URL") !== undefined,
    migrationsDir: env("MIGRATIONS_DIR") ?? "supabase/migrations",
    dbPoolSize: positiveInt(env("DB_POOL_SIZE"), 10),
    functionTimeoutMs: positiveInt(env("FUNCTION_TIMEOUT_MS"), 150_000),
    functionsWithoutJwt: functionsWithoutJwtOf(configToml),
    // PostgREST's db-max-rows: config.toml's [api] max_rows (the CLI's default 1000), REST_MAX_ROWS overriding.
    restMaxRows: positiveInt(env("REST_MAX_ROWS"), tomlIntegers(configToml, "api").max_rows || 1000),
    renderWorkers: env("RENDER_WORKERS") ? positiveInt(env("RENDER_WORKERS"), 1) : null,
    functionEnv: payments === "none" ? (name) => (name.startsWith("STRIPE_") ? undefined : env(name)) : env,
    authRateLimits: authRateLimitsOf(env, configToml),
    authMinPasswordLength: minPasswordLengthOf(configToml),
    rest: restSchemasOf(configToml),
    payments,
  };
}
