// POST /token: grant_type=password (constant-time answers for unknown addresses) and
// grant_type=refresh_token. PKCE codes are never issued here (e-mail links use the implicit flow), so
// grant_type=pkce finds no flow state, as GoTrue answers for an unknown code. Password guessing is
// slowed by GoTrue's per-IP limits (every /token request counts against token_refresh, a password
// sign-in against sign_in_sign_ups too), never per account: a per-account lock would let anyone lock
// a person out by failing to sign in as them.
import { answer, type AuthCtx, type Client, type Endpoint } from "./context.ts";
import { burnDummyHash, verifyPassword } from "./passwords.ts";
import { type JsonObject, readJsonObject, refuse, stringFields, succeed } from "./responses.ts";
import { refreshSession, startSession } from "./sessions.ts";
import { findUserByEmail } from "./users.ts";
import { idTokenGrant, web3Grant } from "./disabled.ts";

const INVALID_CREDENTIALS = "Invalid login credentials";

async function passwordGrant(actx: AuthCtx, body: JsonObject, client: Client): Promise<Response> {
  const allowed = actx.limits.hit("sign_in_sign_ups", client.ip);
  if (!allowed.ok) return answer(allowed);
  const fields = stringFields(body, "email", "password", "phone");
  if (!fields.ok) return answer(fields);
  const { email, password, phone } = fields.value;
  if (!email && phone) return answer(refuse(400, "phone_provider_disabled", "Phone logins are disabled"));
  const address = (email ?? "").trim().toLowerCase();
  if (!address || address.length > 255) return answer(refuse(400, "validation_failed", "missing email or phone"));

  const user = await findUserByEmail(actx.db, address);
  if (!user || !password) {
    await burnDummyHash(password ?? "");
    return answer(refuse(400, "invalid_credentials", INVALID_CREDENTIALS));
  }
  if (!(await verifyPassword(password, user.encrypted_password))) {
    return answer(refuse(400, "invalid_credentials", INVALID_CREDENTIALS));
  }
  if (user.banned) return answer(refuse(400, "user_banned", "User is banned"));
  if (!user.email_confirmed_at) return answer(refuse(400, "email_not_confirmed", "Email not confirmed"));
  const session = await actx.db.transaction((sql) => startSession(actx, sql, user.id, "password"));
  return answer(succeed(session));
}

async function refreshGrant(actx: AuthCtx, body: JsonObject): Promise<Response> {
  const fields = stringFields(body, "refresh_token");
  if (!fields.ok) return answer(fields);
  const token = fields.value.refresh_token;
  if (!token) return answer(refuse(400, "validation_failed", "refresh_token required"));
  return answer(await refreshSession(actx, token));
}

export const token: Endpoint = async (actx, req, url, client) => {
  const grant = url.searchParams.get("grant_type");
  const allowed = actx.limits.hit("token", client.ip);
  if (!allowed.ok) return answer(allowed);
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  switch (grant) {
    case "password":
      return await passwordGrant(actx, body.value, client);
    case "refresh_token":
      return await refreshGrant(actx, body.value);
    case "web3":
      return web3Grant();
    case "id_token":
      return idTokenGrant(body.value);
    case "pkce":
      return answer(refuse(404, "flow_state_not_found", "invalid flow state, no valid flow state found"));
    default:
      return answer(refuse(400, "validation_failed", "unsupported_grant_type"));
  }
};
