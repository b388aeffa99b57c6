// POST /recover (mail a password-reset link; always `{}`, so the answer does not reveal accounts) and
// /verify, which turns a link token or an e-mailed code into a session: GET answers 303 to the app with
// the session in the URL fragment (implicit flow) or the error there; POST (verifyOtp with token_hash,
// or with email and the six-digit token) answers JSON. The verification types are GoTrue's e-mail ones:
// signup and invite redeem confirmation tokens, recovery and magiclink recovery tokens, email either,
// email_change the two links of an e-mail change (email-change.ts).
import type { Sql } from "../db.ts";
import { json } from "../http.ts";
import { answer, type AuthCtx, type Endpoint } from "./context.ts";
import { confirmEmailChange, SINGLE_CONFIRMATION } from "./email-change.ts";
import { codeLinkToken, consumeLink, type LinkType, sendLink } from "./email-links.ts";
import { type JsonObject, type Outcome, readJsonObject, refuse, stringFields, succeed } from "./responses.ts";
import { safeRedirect } from "./redirects.ts";
import { startSession } from "./sessions.ts";
import { INVALID_EMAIL } from "./signup.ts";
import { findUserByEmail, findUserById, normalizeEmail } from "./users.ts";

export const recover: Endpoint = async (actx, req, url) => {
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "email");
  if (!fields.ok) return answer(fields);
  const address = normalizeEmail(fields.value.email ?? "");
  if (!address) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
  const redirectTo = safeRedirect(actx.config, url.searchParams.get("redirect_to"));
  const user = await findUserByEmail(actx.db, address);
  if (user) {
    await actx.db.transaction((sql) => sendLink(actx, sql, { id: user.id, email: address }, "recovery", redirectTo));
  }
  return json({});
};

/** The stored token types each e-mail verification type may redeem (GoTrue's verifyTokenHash). */
const REDEEMS: Record<string, LinkType[]> = {
  signup: ["signup"],
  invite: ["signup"],
  recovery: ["recovery"],
  magiclink: ["recovery"],
  email: ["signup", "recovery"],
};
const EXPIRED_LINK = "Email link is invalid or has expired";

/** The verification types /verify knows: the e-mail link ones and email_change. */
const KNOWN_TYPE = (type: string) => type === "email_change" || Object.hasOwn(REDEEMS, type);

/**
 * Consumes the token and signs its user in; confirms the address, since the link reached it. For
 * email_change, the first of the two confirmations signs nobody in and answers null.
 */
async function redeem(actx: AuthCtx, sql: Sql, token: string, type: string): Promise<Outcome<JsonObject | null>> {
  if (type === "email_change") {
    const confirmed = await confirmEmailChange(sql, token);
    if (!confirmed.ok) return confirmed;
    return succeed(confirmed.value.applied ? await startSession(actx, sql, confirmed.value.userId, "otp") : null);
  }
  const userId = await consumeLink(sql, token, REDEEMS[type]);
  if (!userId) return refuse(403, "otp_expired", EXPIRED_LINK);
  const user = await findUserById(sql, userId);
  if (!user) return refuse(403, "otp_expired", EXPIRED_LINK);
  if (user.banned) return refuse(403, "user_banned", "User is banned");
  await sql.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()),
            confirmed_at = coalesce(confirmed_at, now()),
            raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
      where id = $1 and email_confirmed_at is null`,
    [userId],
  );
  return succeed(await startSession(actx, sql, userId, "otp"));
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

/** GoTrue's error redirect: the redirect URL without its query, the error in the fragment. */
function errorRedirect(redirectTo: string, error: string, code: string, description: string): Response {
  const url = new URL(redirectTo);
  url.search = "";
  // `sb` marks the redirect as Supabase Auth's, as GoTrue adds it.
  const fragment = new URLSearchParams({ error, error_code: code, error_description: description, sb: "" });
  return seeOther(`${url.toString()}#${fragment.toString()}`);
}

export const verifyGet: Endpoint = async (actx, _req, url) => {
  const token = url.searchParams.get("token") ?? "";
  const type = url.searchParams.get("type") ?? "";
  if (!token) return answer(refuse(400, "validation_failed", "Verify requires a token"));
  if (!type) return answer(refuse(400, "validation_failed", "Verify requires a verification type"));
  const redirectTo = safeRedirect(actx.config, url.searchParams.get("redirect_to"));
  if (!KNOWN_TYPE(type)) {
    return errorRedirect(redirectTo, "invalid_request", "validation_failed", "Invalid email verification type");
  }
  const outcome = await actx.db.transaction((sql) => redeem(actx, sql, token, type));
  if (!outcome.ok) {
    const f = outcome.error;
    return errorRedirect(
      redirectTo,
      f.code === "user_banned" ? "unauthorized_client" : f.status === 422 ? "invalid_request" : "access_denied",
      f.code,
      f.message,
    );
  }
  const s = outcome.value;
  if (s === null) {
    // GoTrue's message for the first of two e-mail change confirmations, in the fragment.
    const url = new URL(redirectTo);
    url.hash = new URLSearchParams({ message: SINGLE_CONFIRMATION, sb: "" }).toString();
    return seeOther(url.toString());
  }
  // Keys in GoTrue's (alphabetical) order.
  const fragment = new URLSearchParams({
    access_token: String(s.access_token),
    expires_at: String(s.expires_at),
    expires_in: String(s.expires_in),
    refresh_token: String(s.refresh_token),
    sb: "",
    token_type: String(s.token_type),
    type,
  });
  return seeOther(`${redirectTo}#${fragment.toString()}`);
};

export const verifyPost: Endpoint = async (actx, req) => {
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "type", "token_hash", "token", "email", "phone", "redirect_to");
  if (!fields.ok) return answer(fields);
  const { type, token_hash: tokenHash, token: code, email, phone } = fields.value;
  // GoTrue's VerifyParams.Validate, in its order.
  if (!type) return answer(refuse(400, "validation_failed", "Verify requires a verification type"));
  if ((!code && !tokenHash) || (code && tokenHash)) {
    return answer(refuse(400, "validation_failed", "Verify requires either a token or a token hash"));
  }
  let linkToken: string;
  if (code) {
    if (phone && !email) {
      // GoTrue checks the number, then finds no account with it (no local account has one).
      if (!/^[1-9][0-9]{1,14}$/.test(phone.replace(/^\+/, "").replaceAll(" ", ""))) {
        return answer(refuse(400, "validation_failed", "Invalid phone number format (E.164 required)"));
      }
      return answer(refuse(403, "otp_expired", "Token has expired or is invalid"));
    }
    if (!email || phone) {
      return answer(
        refuse(400, "validation_failed", "Only an email address or phone number should be provided on verify"),
      );
    }
    const address = normalizeEmail(email);
    if (!address) return answer(refuse(422, "validation_failed", "Invalid email format"));
    linkToken = await codeLinkToken(address, code);
  } else {
    if (email || phone || fields.value.redirect_to) {
      return answer(refuse(400, "validation_failed", "Only the token_hash and type should be provided"));
    }
    linkToken = tokenHash!;
  }
  if (!KNOWN_TYPE(type)) {
    // A code of a type GoTrue has no e-mail code for matches nothing; a token hash's type is checked first.
    return answer(
      code ?
        refuse(403, "otp_expired", "Token has expired or is invalid") :
        refuse(400, "validation_failed", "Invalid email verification type"),
    );
  }
  const outcome = await actx.db.transaction((sql) => redeem(actx, sql, linkToken, type));
  if (!outcome.ok && outcome.error.code === "otp_expired") {
    return answer(refuse(403, "otp_expired", code ? "Token has expired or is invalid" : EXPIRED_LINK));
  }
  if (outcome.ok && outcome.value === null) return json({ msg: SINGLE_CONFIRMATION, code: "200" });
  return answer(outcome);
};
