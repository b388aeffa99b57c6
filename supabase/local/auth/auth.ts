// The local stand-in for Supabase Auth (GoTrue) at /auth/v1: the endpoints supabase-js calls for e-mail
// and password accounts, with GoTrue's status codes, error codes and bodies, so the real client cannot
// tell the difference. Every answer carries the API version header the client needs to read error codes.
import type { Ctx, Service } from "../http.ts";
import { json } from "../http.ts";
import { getUser, logout, updateUser } from "./account.ts";
import { deleteUser } from "./admin.ts";
import type { AuthCtx, Endpoint } from "./context.ts";
import { recover, verifyGet, verifyPost } from "./recovery.ts";
import { failureResponse, withApiVersion } from "./responses.ts";
import { resend, signup } from "./signup.ts";
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

const ROUTES: Record<string, Partial<Record<string, Endpoint>>> = {
  "/signup": { POST: signup },
  "/token": { POST: token },
  "/user": { GET: getUser, PUT: updateUser },
  "/logout": { POST: logout },
  "/recover": { POST: recover },
  "/resend": { POST: resend },
  "/verify": { GET: verifyGet, POST: verifyPost },
  "/settings": { GET: settings },
  "/health": { GET: health },
  "/.well-known/jwks.json": { GET: jwks },
};

/** /admin/users/{id}: the one admin route with a parameter in its path. */
const ADMIN_USER = /^\/admin\/users\/([^/]+)$/;

function adminUserRoute(raw: string): Partial<Record<string, Endpoint>> {
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    // A malformed escape is not a uuid either; deleteUser refuses it.
  }
  return { DELETE: (actx, req) => deleteUser(actx, req, id) };
}

export function createAuth(ctx: Ctx): Service {
  const actx: AuthCtx = { ...ctx, autoconfirm: ctx.config.mailerAutoconfirm };
  return async (req, path) => {
    const url = new URL(req.url);
    const clean = path.replace(/\/+$/, "") || "/";
    const admin = ADMIN_USER.exec(clean);
    const route = admin ? adminUserRoute(admin[1]) : ROUTES[clean];
    let res: Response;
    if (!route) {
      res = failureResponse({ status: 404, code: "not_found", message: `No auth endpoint at ${path || "/"}` });
    } else {
      // No HEAD-as-GET: a link checker's HEAD on /verify must not use up the link.
      const endpoint = route[req.method];
      res = endpoint
        ? await endpoint(actx, req, url)
        : failureResponse({ status: 405, code: "method_not_allowed", message: `${req.method} is not allowed here` });
    }
    return withApiVersion(res);
  };
}
