// The auth grammar: GoTrue's bodies (sign-up with metadata, password and refresh grants, recover, OTP,
// verify, resend, user update, logout, MFA factors) with e-mail addresses, passwords and metadata of odd
// shapes. A request that would change or end its account (update, logout, factors) goes as an account
// signed up for it alone, or with a token that must fail, so the run's accounts stay as they were.
import { jsonBody, jsonValue, queryValue, type Rng, text, word } from "./grammar.ts";
import { BAD_TOKENS, type HttpCase, type Who, type World } from "./world.ts";

function email(r: Rng, w: World): string {
  return r.weighted([
    [3, () => `fuzz-${r.int(0, 1e9).toString(36)}@example.test`],
    [2, () => r.pick(w.accounts).email],
    [1, () => r.pick(w.accounts).email.toUpperCase()],
    [2, () => `${text(r, 64)}@${text(r, 30)}`],
    [1, () => text(r, 300)],
    [1, () => `${"a".repeat(r.size(5000))}@example.test`],
    [1, () => r.pick(["", "@", "a@", "@b", "a@b", "a@@b.c", "a@b..c", '"a b"@c.d', "a@[127.0.0.1]"])],
  ]);
}

function password(r: Rng, w: World): unknown {
  return r.weighted<unknown>([
    [3, () => "correct-horse-42"],
    [2, () => r.pick(w.accounts).password],
    [2, () => text(r, 100)],
    [1, () => "p".repeat(r.size(100_000))],
    [1, () => jsonValue(r, 2)],
  ]);
}

function metadata(r: Rng): unknown {
  return r.weighted<unknown>([
    [3, () => ({ display_name: text(r, 80) })],
    [2, () => jsonValue(r, 6)],
    [1, () => Object.fromEntries(r.repeat(r.size(3000), (i) => [`k${i}`, text(r, 30)]))],
  ]);
}

type Made = Omit<HttpCase, "kind" | "surface" | "headers">;

export function authCase(r: Rng, w: World, who: Who): HttpCase {
  const acct = r.pick(w.accounts);
  const changing: Who = r.chance(0.6) ? "fresh" : r.pick(BAD_TOKENS);
  const post = (label: string, path: string, body: unknown, as: Who = "anon"): Made => ({
    label,
    who: as,
    method: "POST",
    path,
    body: jsonBody(r, body),
  });
  const made = r.weighted<Made>([
    [
      4,
      () =>
        post("signup", "/auth/v1/signup", {
          email: email(r, w),
          password: password(r, w),
          ...(r.chance(0.5) ? { data: metadata(r) } : {}),
          ...(r.chance(0.1) ? { gotrue_meta_security: jsonValue(r, 2), code_challenge: text(r, 50) } : {}),
        }),
    ],
    [
      4,
      () =>
        post("token password", "/auth/v1/token?grant_type=password", {
          email: r.chance(0.5) ? acct.email : email(r, w),
          password: r.chance(0.3) ? acct.password : password(r, w),
        }),
    ],
    [
      2,
      () =>
        post("token refresh", "/auth/v1/token?grant_type=refresh_token", {
          refresh_token: r.chance(0.2) ? acct.refreshToken : r.pick([text(r, 80), "", jsonValue(r, 2)]),
        }),
    ],
    [
      1,
      () =>
        post(
          "token other grant",
          `/auth/v1/token?grant_type=${queryValue(r, r.pick(["pkce", "id_token", "web3", "", text(r, 30)]))}`,
          jsonValue(r, 3),
        ),
    ],
    [
      2,
      () =>
        post("recover", "/auth/v1/recover", {
          email: email(r, w),
          ...(r.chance(0.3) ? { redirect_to: text(r, 200) } : {}),
        }),
    ],
    [
      2,
      () =>
        post("otp", "/auth/v1/otp", {
          email: email(r, w),
          create_user: r.pick([true, false, "x"]),
          ...(r.chance(0.2) ? { phone: text(r, 20) } : {}),
          ...(r.chance(0.3) ? { data: metadata(r) } : {}),
        }),
    ],
    [
      2,
      () =>
        post("verify", "/auth/v1/verify", {
          type: r.pick(["signup", "recovery", "magiclink", "invite", "email_change", "email", "sms", word(r)]),
          ...(r.chance(0.5) ? { token_hash: text(r, 80) } : { token: text(r, 10), email: email(r, w) }),
        }),
    ],
    [
      1,
      () => ({
        label: "verify link",
        who: "anon",
        method: "GET",
        path: `/auth/v1/verify?token=${queryValue(r, text(r, 80))}&type=${queryValue(r, word(r))}&redirect_to=${queryValue(r, text(r, 200))}`,
      }),
    ],
    [
      1,
      () =>
        post("resend", "/auth/v1/resend", { type: r.pick(["signup", "email_change", word(r)]), email: email(r, w) }),
    ],
    [2, () => ({ label: "get user", who: r.chance(0.5) ? who : changing, method: "GET", path: "/auth/v1/user" })],
    [
      3,
      () =>
        r.pick([
          { ...post("update user", "/auth/v1/user", { data: metadata(r) }, changing), method: "PUT" },
          {
            ...post("update password", "/auth/v1/user", { password: password(r, w), nonce: text(r, 10) }, changing),
            method: "PUT",
          },
          { ...post("update email", "/auth/v1/user", { email: email(r, w) }, changing), method: "PUT" },
          { ...post("update anything", "/auth/v1/user", jsonValue(r, 5), changing), method: "PUT" },
        ]),
    ],
    [
      1,
      () =>
        post(
          "logout",
          `/auth/v1/logout${r.chance(0.5) ? `?scope=${r.pick(["global", "local", "others", word(r)])}` : ""}`,
          {},
          changing,
        ),
    ],
    [
      1,
      () =>
        post(
          "factors",
          "/auth/v1/factors",
          { factor_type: r.pick(["totp", "phone", word(r)]), friendly_name: text(r, 100) },
          changing,
        ),
    ],
    [
      1,
      () => ({
        label: "other auth route",
        who,
        method: r.pick(["GET", "POST", "DELETE"]),
        path: `/auth/v1/${r.pick(["settings", "health", "reauthenticate", "admin/users", "invite", "sso", "factors/x/verify", word(r), queryValue(r, text(r, 60))])}`,
        body: r.chance(0.5) ? jsonBody(r, jsonValue(r, 3)) : undefined,
      }),
    ],
  ]);
  return {
    kind: "http",
    surface: "auth",
    ...made,
    headers: made.body !== undefined ? { "content-type": r.chance(0.95) ? "application/json" : "text/plain" } : {},
  };
}
