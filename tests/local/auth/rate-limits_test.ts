// GoTrue's per-IP token buckets and the project's e-mail budget, on a clock the test moves: the burst,
// the refill rate per window, one IP never spending another's budget, and the config.toml section.
import assert from "node:assert/strict";
import { RateLimiter } from "../../../supabase/local/auth/rate-limits.ts";
import {
  type AuthRateLimits,
  HOSTED_AUTH_RATE_LIMITS,
  loadConfig,
  tomlIntegers,
} from "../../../supabase/local/config.ts";

function limiter(limits: Partial<AuthRateLimits> = {}) {
  let t = 1_000;
  const l = new RateLimiter({ ...HOSTED_AUTH_RATE_LIMITS, ...limits }, () => t);
  return { l, advance: (sec: number) => (t += sec) };
}

const allowed = (l: RateLimiter, ip: string, n: number) =>
  Array.from({ length: n }, () => l.hit("sign_in_sign_ups", ip).ok).filter(Boolean).length;

Deno.test("30 sign-ins and sign-ups at once per IP, then 429 with Retry-After, refilling 30 per 5 minutes", () => {
  const { l, advance } = limiter();
  assert.equal(allowed(l, "10.0.0.1", 30), 30);
  const refused = l.hit("sign_in_sign_ups", "10.0.0.1");
  assert.equal(refused.ok, false);
  if (!refused.ok) {
    assert.equal(refused.error.status, 429);
    assert.equal(refused.error.code, "over_request_rate_limit");
    assert.equal(refused.error.headers?.["Retry-After"], "10");
  }
  assert.equal(allowed(l, "10.0.0.2", 1), 1, "another IP has its own bucket");
  advance(10);
  assert.equal(allowed(l, "10.0.0.1", 2), 1, "one request per 10 s comes back");
  advance(3600);
  assert.equal(allowed(l, "10.0.0.1", 40), 30, "never more than the burst");
});

Deno.test("the burst is never larger than the limit itself, and token refresh is 150 per 5 minutes", () => {
  const { l } = limiter({ signInSignUps: 5 });
  assert.equal(allowed(l, "ip", 10), 5);
  const t = limiter();
  const hits = () => Array.from({ length: 200 }, () => t.l.hit("token", "ip").ok).filter(Boolean).length;
  assert.equal(hits(), 30);
  t.advance(60);
  assert.equal(hits(), 30, "0.5 per second refills the 30-request bucket in a minute");
});

Deno.test("e-mails: 2 per hour over the whole project, then over_email_send_rate_limit", () => {
  const { l, advance } = limiter();
  assert.equal(l.sendEmail(), null);
  assert.equal(l.sendEmail(), null);
  assert.equal(l.sendEmail()?.code, "over_email_send_rate_limit");
  advance(1800);
  assert.equal(l.sendEmail(), null);
  assert.equal(l.sendEmail()?.status, 429);
});

Deno.test("reads [auth.rate_limit] from supabase/config.toml, the environment overriding it", async () => {
  assert.deepEqual(
    tomlIntegers(
      "[auth]\nx = 1\n[auth.rate_limit]\n# note\nemail_sent = 7 # per hour\n[other]\ny = 2",
      "auth.rate_limit",
    ),
    {
      email_sent: 7,
    },
  );
  const dir = await Deno.makeTempDir({ prefix: "pc-limits-" });
  try {
    const env = (vars: Record<string, string>) => (name: string) => ({ DATA_DIR: dir, ...vars })[name];
    const hosted = await loadConfig(env({}));
    assert.deepEqual(
      hosted.authRateLimits,
      HOSTED_AUTH_RATE_LIMITS,
      "the project's config.toml holds the hosted defaults",
    );
    await Deno.writeTextFile(`${dir}/config.toml`, "[auth.rate_limit]\nsign_in_sign_ups = 12\ntoken_refresh = 40\n");
    const custom = await loadConfig(
      env({ SUPABASE_CONFIG: `${dir}/config.toml`, AUTH_RATE_LIMIT_TOKEN_REFRESH: "99" }),
    );
    assert.equal(custom.authRateLimits.signInSignUps, 12);
    assert.equal(custom.authRateLimits.tokenRefresh, 99);
    assert.equal(custom.authRateLimits.emailSent, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("MFA challenges and verifications: 15 a minute per IP each, whatever config.toml raises", () => {
  const { l, advance } = limiter({ signInSignUps: 1_000_000, tokenVerifications: 1_000_000, burst: 1_000_000 });
  const hits = (limit: "factor_challenge" | "factor_verify", n: number) =>
    Array.from({ length: n }, () => l.hit(limit, "10.0.0.9").ok).filter(Boolean).length;
  assert.equal(hits("factor_verify", 20), 15);
  assert.equal(hits("factor_challenge", 15), 15, "its own bucket");
  advance(4);
  assert.equal(hits("factor_verify", 5), 1, "one more every 4 s");
});
