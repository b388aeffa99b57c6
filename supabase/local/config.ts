// Configuration of the local backend, from the environment, with the keys it signs tokens with.
// The JWT secret is generated once and kept in DATA_DIR so that a restart keeps every session valid.
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
}

const env = (k: string) => Deno.env.get(k) ?? undefined;

async function loadSecret(dataDir: string): Promise<string> {
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

export async function loadConfig(): Promise<Config> {
  const dataDir = env("DATA_DIR") ?? ".data";
  await Deno.mkdir(dataDir, { recursive: true });
  const host = env("HOST") ?? "127.0.0.1";
  const apiPort = Number(env("API_PORT") ?? 54321);
  const appPort = env("PORT") ? Number(env("PORT")) : null;
  const jwtSecret = await loadSecret(dataDir);
  // Keys in the legacy JWT format: role claim only, issued long ago, valid for ten years.
  const iat = 1_700_000_000;
  const exp = iat + 10 * 365 * 24 * 3600;
  const anonKey = await signJwt({ iss: "supabase-local", role: "anon", iat, exp }, jwtSecret);
  const serviceRoleKey = await signJwt({ iss: "supabase-local", role: "service_role", iat, exp }, jwtSecret);
  const displayHost = host === "0.0.0.0" ? "127.0.0.1" : host;
  const publicUrl = env("API_URL") ?? `http://${displayHost}:${apiPort}`;
  const siteUrl = env("SITE_URL") ?? (appPort ? `http://${displayHost}:${appPort}` : publicUrl);
  const extra = env("EXTRA_FUNCTIONS_DIR");
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
    jwtExpirySec: Number(env("JWT_EXPIRY") ?? 3600),
    functionsDirs: [env("FUNCTIONS_DIR") ?? "supabase/functions", ...(extra ? [extra] : [])],
    maxBodyBytes: Number(env("MAX_BODY_BYTES") ?? 1_000_000),
    maxUploadBytes: Number(env("MAX_UPLOAD_BYTES") ?? 20_000_000),
    quiet: env("QUIET") === "1",
    mailerAutoconfirm: env("MAILER_AUTOCONFIRM") !== "false",
    refreshTokenReuseIntervalSec: Number(env("REFRESH_TOKEN_REUSE_INTERVAL") ?? 10),
    mailboxAllowRemote: env("MAILBOX_ALLOW_REMOTE") === "1",
  };
}
