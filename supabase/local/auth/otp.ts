// POST /otp with an e-mail address (supabase-js `signInWithOtp({ email })`): mails a magic link that
// also carries a six-digit code, either of which /verify turns into a session once. As in GoTrue's
// MagicLink: an unknown address is signed up first when `create_user` (the client's default) allows it,
// an account that is not confirmed gets the sign-up confirmation instead (which signs in too), and a
// second message within 60 s of the last is refused with over_email_send_rate_limit. Every message
// counts against the project's hourly e-mail budget. The answer is `{}` whatever happened, except for
// GoTrue's own refusals (create_user false and no account: 422 otp_disabled).
import { json } from "../http.ts";
import { answer, type Endpoint } from "./context.ts";
import { type CodeLinkType, sendCode, waitBeforeResend } from "./email-links.ts";
import { safeRedirect } from "./redirects.ts";
import { objectField, readJsonObject, refuse, stringFields } from "./responses.ts";
import { checkMetadataSize, INVALID_EMAIL } from "./signup.ts";
import { emailIdentityData, findUserByEmail, normalizeEmail } from "./users.ts";

export const otp: Endpoint = async (actx, req, url) => {
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "email", "phone", "channel", "code_challenge", "code_challenge_method");
  if (!fields.ok) return answer(fields);
  const data = objectField(body.value, "data");
  if (!data.ok) return answer(data);
  const createUser = body.value.create_user;
  if (createUser !== undefined && typeof createUser !== "boolean") {
    return answer(refuse(400, "bad_json", "Could not read create_user: expected a boolean"));
  }
  const { email, phone, channel } = fields.value;
  if (email && phone) {
    return answer(refuse(400, "validation_failed", "Only an email address or phone number should be provided"));
  }
  if (email && channel) {
    return answer(refuse(400, "validation_failed", "Channel should only be specified with Phone OTP"));
  }
  // Codes are only handed out through the implicit flow here: a PKCE client would wait for a code
  // exchange that never comes, so it is refused rather than answered with a link it cannot use.
  if (fields.value.code_challenge || fields.value.code_challenge_method) {
    return answer(refuse(400, "validation_failed", "PKCE is not supported by the local backend's e-mail OTP"));
  }
  if (!email && phone) return answer(refuse(400, "phone_provider_disabled", "Unsupported phone provider"));
  if (!email) return answer(refuse(400, "validation_failed", "One of email or phone must be set"));
  const address = normalizeEmail(email);
  if (!address) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
  if (data.value) {
    const small = checkMetadataSize(data.value);
    if (!small.ok) return answer(small);
  }
  const redirectTo = safeRedirect(actx.config, url.searchParams.get("redirect_to"));

  const existing = await findUserByEmail(actx.db, address);
  if (!existing && createUser === false) {
    return answer(refuse(422, "otp_disabled", "Signups not allowed for otp"));
  }
  if (existing?.banned) {
    // GoTrue mails banned users too, but the link could never sign them in; nothing is sent.
    return json({});
  }
  return await actx.db.transaction(async (sql) => {
    let user = existing && { id: existing.id, email: address, confirmed: Boolean(existing.email_confirmed_at) };
    if (!user) {
      const id = crypto.randomUUID();
      const confirmed = actx.autoconfirm;
      // A password nobody knows: the account signs in through e-mail until the person sets one.
      const inserted = await sql.query(
        `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, confirmed_at,
                                 raw_app_meta_data, raw_user_meta_data)
         values ($1, 'authenticated', 'authenticated', $2, null, case when $3 then now() end,
                 case when $3 then now() end, $4::jsonb, $5::jsonb)
         on conflict (email) do nothing returning id`,
        [
          id,
          address,
          confirmed,
          JSON.stringify({ provider: "email", providers: ["email"] }),
          JSON.stringify({ ...data.value, ...emailIdentityData(id, address, confirmed) }),
        ],
      );
      if (inserted.rows.length === 0) return json({});
      user = { id, email: address, confirmed };
    }
    const type: CodeLinkType = user.confirmed ? "magiclink" : "signup";
    const wait = await waitBeforeResend(sql, user.id, type);
    if (wait > 0) {
      return answer(
        refuse(
          429,
          "over_email_send_rate_limit",
          `For security purposes, you can only request this after ${wait} seconds.`,
        ),
      );
    }
    await sendCode(actx, sql, user, type, redirectTo);
    return json({});
  });
};
