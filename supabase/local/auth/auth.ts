// The local stand-in for Supabase Auth (GoTrue) at /auth/v1: the endpoints supabase-js calls for e-mail
// and password accounts, with GoTrue's status codes, error codes and bodies, so the real client cannot
// tell the difference. Every answer carries the API version header the client needs to read error codes.
import type { Ctx, Service } from "../http.ts";
import { json } from "../http.ts";
import { getUser, logout, updateUser } from "./account.ts";
import { createUser, deleteUser, generateLink, getUserById, invite, listUsers, updateUserById } from "./admin.ts";
import { answer, type AuthCtx, type Endpoint } from "./context.ts";
import { EmailRateLimited, type IpLimit, RateLimiter } from "./rate-limits.ts";
import { otp } from "./otp.ts";
import { manualLinkingDisabled, samlDisabled } from "./disabled.ts";
import { reauthenticate } from "./reauthenticate.ts";
import { adminFactors, challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from "./mfa.ts";
import { recover, verifyGet, verifyPost } from "./recovery.ts";
import { failureResponse, withApiVersion } from "./responses.ts";
import { resend, signup, signupRoute } from "./signup.ts";
import { token } from "./token.ts";

const EXTERNAL_PROVIDERS = [
  "anonymous_users",
  "apple",
  "azure",
  "bitbucket",
  "discord",
  "facebook",
  "figma",
  "fly",
  "github",
  "gitlab",
  "google",
  "keycloak",
  "kakao",
  "linkedin",
  "linkedin_oidc",
  "notion",
  "spotify",
  "slack",
  "slack_oidc",
  "workos",
  "twitch",
  "twitter",
  "phone",
  "zoom",
];

const settings: Endpoint = (actx) =>
  Promise.resolve(
    json({
      external: { ...Object.fromEntries(EXTERNAL_PROVIDERS.map((p) => [p, false])), email: true },
      disable_signup: false,
      mailer_autoconfirm: actx.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
    }),
  );

const health: Endpoint = () =>
  Promise.resolve(
    json({
      version: "local",
      name: "GoTrue",
      description: "GoTrue is a user registration and authentication API",
    }),
  );

// Tokens are HS256 (a shared secret), so there is no public key to publish, as on GoTrue.
const jwks: Endpoint = () => Promise.resolve(json({ keys: [] }));

/**
 * The endpoint behind GoTrue's per-IP limit `limit`: the request is counted before anything else is
 * done with it, as GoTrue's middleware counts it.
 */
function limited(limit: IpLimit, endpoint: Endpoint): Endpoint {
  return (actx, req, url, client) => {
    const allowed = actx.limits.hit(limit, client.ip);
    return allowed.ok ? endpoint(actx, req, url, client) : Promise.resolve(answer(allowed));
  };
}

// /token's own limits (every grant, then sign-in's for passwords) are counted in token.ts.
const ROUTES: Record<string, Partial<Record<string, Endpoint>>> = {
  "/signup": { POST: signupRoute(limited("sign_in_sign_ups", signup)) },
  "/token": { POST: token },
  "/user": { GET: getUser, PUT: limited("user_update", updateUser) },
  "/logout": { POST: logout },
  "/recover": { POST: limited("recover", recover) },
  "/resend": { POST: limited("resend", resend) },
  "/otp": { POST: limited("otp", otp) },
  "/invite": { POST: invite },
  "/admin/users": { GET: listUsers, POST: createUser },
  "/admin/generate_link": { POST: generateLink },
  "/verify": { GET: limited("verify", verifyGet), POST: limited("verify", verifyPost) },
  "/reauthenticate": { GET: reauthenticate },
  "/factors": { POST: enrollFactor },
  "/user/identities/authorize": { GET: manualLinkingDisabled },
  "/sso": { POST: samlDisabled },
  "/sso/saml/metadata": { GET: samlDisabled },
  "/sso/saml/acs": { POST: samlDisabled },
  "/settings": { GET: settings },
  "/health": { GET: health },
  "/.well-known/jwks.json": { GET: jwks },
};

/** /factors/{id}, /factors/{id}/challenge and /factors/{id}/verify: one MFA factor of the caller. */
const FACTOR = /^\/factors\/([^/]+)(\/challenge|\/verify)?$/;
/** /admin/users/{id}/factors and /admin/users/{id}/factors/{factor id}. */
const ADMIN_FACTORS = /^\/admin\/users\/([^/]+)\/factors(?:\/([^/]+))?$/;

function factorRoute(clean: string): Partial<Record<string, Endpoint>> | undefined {
  const admin = ADMIN_FACTORS.exec(clean);
  if (admin) {
    const endpoint: Endpoint = (actx, req) => adminFactors(actx, req, safeDecode(admin[1]), admin[2] ?? null);
    return admin[2] ? { DELETE: endpoint, PUT: endpoint } : { GET: endpoint };
  }
  const own = FACTOR.exec(clean);
  if (!own) return undefined;
  const id = safeDecode(own[1]);
  if (own[2] === "/challenge") {
    return { POST: limited("factor_challenge", (actx, req, _url, client) => challengeFactor(actx, req, id, client)) };
  }
  if (own[2] === "/verify") {
    return { POST: limited("factor_verify", (actx, req, _url, client) => verifyFactor(actx, req, id, client)) };
  }
  return { DELETE: (actx, req) => unenrollFactor(actx, req, id) };
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** /user/identities/{id}: unlinking an identity, which needs manual linking (off, as hosted's default). */
const IDENTITY = /^\/user\/identities\/[^/]+$/;

/** /admin/users/{id}: the admin routes with a parameter in their path. */
const ADMIN_USER = /^\/admin\/users\/([^/]+)$/;

function adminUserRoute(raw: string): Partial<Record<string, Endpoint>> {
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    // A malformed escape is not a uuid either; the endpoints refuse it.
  }
  return {
    GET: (actx, req) => getUserById(actx, req, id),
    PUT: (actx, req) => updateUserById(actx, req, id),
    DELETE: (actx, req) => deleteUser(actx, req, id),
  };
}

export function createAuth(ctx: Ctx): Service {
  const actx: AuthCtx = {
    ...ctx,
    autoconfirm: ctx.config.mailerAutoconfirm,
    limits: new RateLimiter(ctx.config.authRateLimits),
  };
  return async (req, path, info) => {
    const url = new URL(req.url);
    const clean = path.replace(/\/+$/, "") || "/";
    const admin = ADMIN_USER.exec(clean);
    const route = admin ? adminUserRoute(admin[1]) : ROUTES[clean] ?? factorRoute(clean) ??
      (IDENTITY.test(clean) ? { DELETE: manualLinkingDisabled } : undefined);
    let res: Response;
    if (!route) {
      res = failureResponse({ status: 404, code: "not_found", message: `No auth endpoint at ${path || "/"}` });
    } else {
      // No HEAD-as-GET: a link checker's HEAD on /verify must not use up the link.
      const endpoint = route[req.method];
      try {
        res = endpoint ?
          await endpoint(actx, req, url, { ip: info.remoteAddr }) :
          failureResponse({ status: 405, code: "method_not_allowed", message: `${req.method} is not allowed here` });
      } catch (e) {
        // The e-mail budget ran out inside a transaction, which the throw has undone.
        if (!(e instanceof EmailRateLimited)) throw e;
        res = failureResponse(e.failure);
      }
    }
    return withApiVersion(res);
  };
}
