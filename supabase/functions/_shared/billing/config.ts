// The billing functions' configuration and their Stripe client (decision 148). Stripe is configured when
// the secret key, the webhook signing secret and both prices are set; otherwise the functions answer as
// "not configured" and the plan buttons keep the spec's notice. STRIPE_API_URL points the official
// library at another host speaking Stripe's API (the local stand-in); unset, it talks to Stripe itself.
import Stripe from "stripe";

export type Plan = "creator" | "pro";

export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  /** Stripe price id of each plan. */
  prices: Record<Plan, string>;
  /** True for Stripe's test mode keys (sk_test_, rk_test_), false for live ones. */
  testMode: boolean;
  /** Origins a checkout may return to: SITE_URL first, then BILLING_ALLOWED_ORIGINS (comma-separated). */
  siteOrigins: string[];
  apiUrl: string | null;
}

type Env = (name: string) => string | undefined;

/** An origin (scheme://host[:port]) of a URL, or null when it is not an http(s) URL. */
export function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

export function readBillingConfig(env: Env): BillingConfig | null {
  const secretKey = env("STRIPE_SECRET_KEY");
  const webhookSecret = env("STRIPE_WEBHOOK_SECRET");
  const creator = env("STRIPE_PRICE_CREATOR");
  const pro = env("STRIPE_PRICE_PRO");
  if (!secretKey || !webhookSecret || !creator || !pro) return null;
  const listed = (env("BILLING_ALLOWED_ORIGINS") ?? "").split(",").map((s) => originOf(s.trim()));
  const siteOrigins = [originOf(env("SITE_URL")), ...listed].filter((o): o is string => o !== null);
  return {
    secretKey,
    webhookSecret,
    prices: { creator, pro },
    testMode: /^(sk|rk)_test_/.test(secretKey),
    siteOrigins: [...new Set(siteOrigins)],
    apiUrl: env("STRIPE_API_URL") || null,
  };
}

/** Per request: one retry of a connection failure (the library's own), ten seconds at most each. */
const NETWORK_RETRIES = 1;
const TIMEOUT_MS = 10_000;

/** The official library, speaking through `fetch` (the edge runtime's or the local backend's). */
export function createStripe(config: BillingConfig, fetchFn: typeof fetch = fetch): Stripe {
  const target = config.apiUrl ? new URL(config.apiUrl) : null;
  const protocol = target?.protocol === "http:" ? "http" : "https";
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(fetchFn),
    maxNetworkRetries: NETWORK_RETRIES,
    timeout: TIMEOUT_MS,
    ...(target ?
      {
        host: target.hostname,
        port: target.port ? Number(target.port) : (protocol === "http" ? 80 : 443),
        protocol,
      } :
      {}),
  });
}

export const cryptoProvider = Stripe.createSubtleCryptoProvider();

export type { Stripe };
