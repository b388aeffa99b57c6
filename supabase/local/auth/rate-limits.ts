// GoTrue's rate limits, as hosted Supabase applies them: token buckets per client IP address for the
// endpoints an attacker would hammer (sign-in and sign-up, token refresh, link verification, recovery),
// and one project-wide budget of e-mails per hour. Nothing is counted per account, so no caller can lock
// another person out of their own address: a flood only slows down the IP it comes from.
//
// The limits are `[auth.rate_limit]` of supabase/config.toml (the file a hosted project is configured
// from), with AUTH_RATE_LIMIT_* overrides (see config.ts). A bucket holds at most `burst` requests (GoTrue
// fixes it at 30) and refills at `limit` per window; the local backend never allows a larger burst than
// the limit itself, so it is never more lenient than hosted. State is in memory, as GoTrue's is per
// instance: a restart forgets it.
import type { AuthRateLimits } from "../config.ts";
import { type AuthFailure, type Outcome, refuse, succeed } from "./responses.ts";

/** The per-IP buckets, each with GoTrue's window for its `[auth.rate_limit]` setting. */
export type IpLimit =
  | "sign_in_sign_ups"
  | "otp"
  | "recover"
  | "resend"
  | "user_update"
  | "token"
  | "verify"
  | "factor_challenge"
  | "factor_verify";

const FIVE_MINUTES = 5 * 60;
const HOUR = 60 * 60;

/** GoTrue's MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY default: MFA challenges, and verifications, per minute per IP. */
const MFA_PER_MINUTE = 15;

/**
 * The setting each bucket's rate comes from (or GoTrue's fixed rate, for limits config.toml does not
 * name), and the window that rate is per (seconds).
 */
const SOURCES: Record<IpLimit, { setting: keyof AuthRateLimits | number; windowSec: number }> = {
  // GoTrue: sign-up and password sign-in (RATE_LIMIT_OTP / sign_in_sign_ups), per 5 minutes per IP.
  sign_in_sign_ups: { setting: "signInSignUps", windowSec: FIVE_MINUTES },
  // GoTrue gives /otp, /recover, /resend and PUT /user each their own bucket at the same rate.
  otp: { setting: "signInSignUps", windowSec: FIVE_MINUTES },
  recover: { setting: "signInSignUps", windowSec: FIVE_MINUTES },
  resend: { setting: "signInSignUps", windowSec: FIVE_MINUTES },
  user_update: { setting: "signInSignUps", windowSec: FIVE_MINUTES },
  // Every /token request (refresh and password grants alike), per 5 minutes per IP.
  token: { setting: "tokenRefresh", windowSec: FIVE_MINUTES },
  // /verify (the e-mailed links and verifyOtp), per 5 minutes per IP.
  verify: { setting: "tokenVerifications", windowSec: FIVE_MINUTES },
  // POST /factors/{id}/challenge and /factors/{id}/verify, each its own bucket.
  factor_challenge: { setting: MFA_PER_MINUTE, windowSec: 60 },
  factor_verify: { setting: MFA_PER_MINUTE, windowSec: 60 },
};

interface Bucket {
  tokens: number;
  at: number;
}

/** Past this many tracked (limit, IP) pairs, buckets that have refilled completely are forgotten. */
const PRUNE_ABOVE = 10_000;

export const RATE_LIMITED = "Request rate limit reached";
export const EMAIL_RATE_LIMITED = "Email rate limit exceeded";

export class RateLimiter {
  #buckets = new Map<string, Bucket>();
  #email: Bucket;

  constructor(
    private readonly limits: AuthRateLimits,
    private readonly now: () => number = () => Date.now() / 1000,
  ) {
    this.#email = { tokens: limits.emailSent, at: now() };
  }

  #shape(limit: IpLimit) {
    const { setting, windowSec } = SOURCES[limit];
    const perWindow = typeof setting === "number" ? setting : this.limits[setting];
    return { capacity: Math.min(perWindow, this.limits.burst), perSec: perWindow / windowSec };
  }

  /** Takes one token from `bucket` (refilled up to `capacity` since its last use); false when empty. */
  #take(bucket: Bucket, capacity: number, perSec: number): boolean {
    const now = this.now();
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perSec);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Seconds until `bucket` holds a whole token again. */
  #wait(bucket: Bucket, perSec: number): number {
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSec));
  }

  /**
   * Counts one request of `ip` against `limit`; GoTrue's 429 over_request_rate_limit when the bucket
   * is empty. Requests are counted before they are validated, as GoTrue's middleware does, so even
   * malformed ones use up the budget.
   */
  hit(limit: IpLimit, ip: string): Outcome<true> {
    const { capacity, perSec } = this.#shape(limit);
    const key = `${limit}|${ip}`;
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= PRUNE_ABOVE) this.#prune();
      bucket = { tokens: capacity, at: this.now() };
      this.#buckets.set(key, bucket);
    }
    if (this.#take(bucket, capacity, perSec)) return succeed(true);
    return refuse(429, "over_request_rate_limit", RATE_LIMITED, {
      headers: { "Retry-After": String(this.#wait(bucket, perSec)) },
    });
  }

  /**
   * Takes one e-mail from the project-wide hourly budget (`email_sent`), or GoTrue's 429
   * over_email_send_rate_limit when it is spent.
   */
  sendEmail(): AuthFailure | null {
    const perSec = this.limits.emailSent / HOUR;
    if (this.#take(this.#email, this.limits.emailSent, perSec)) return null;
    return {
      status: 429,
      code: "over_email_send_rate_limit",
      message: EMAIL_RATE_LIMITED,
      headers: { "Retry-After": String(this.#wait(this.#email, perSec)) },
    };
  }

  #prune(): void {
    const now = this.now();
    for (const [key, bucket] of this.#buckets) {
      const { capacity, perSec } = this.#shape(key.slice(0, key.indexOf("|")) as IpLimit);
      if (bucket.tokens + (now - bucket.at) * perSec >= capacity) this.#buckets.delete(key);
    }
  }
}

/** Thrown inside a transaction when the e-mail budget is spent, so what would have been mailed is undone. */
export class EmailRateLimited extends Error {
  constructor(readonly failure: AuthFailure) {
    super(failure.message);
  }
}
