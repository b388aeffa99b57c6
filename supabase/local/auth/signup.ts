// POST /signup and POST /resend. With autoconfirm (the local default) a new account is confirmed and
// signed in at once (200 + session); without it, a confirmation link is mailed and the bare user is
// returned, as GoTrue does.
import { json } from "../http.ts";
import { answer, type AuthCtx, type Endpoint } from "./context.ts";
import { sendLink } from "./email-links.ts";
import { requestEmailChange } from "./email-change.ts";
import { hashPassword, passwordTooLong, passwordWeakness } from "./passwords.ts";
import { safeRedirect } from "./redirects.ts";
import {
  type JsonObject,
  objectField,
  type Outcome,
  readJsonObject,
  refuse,
  stringFields,
  succeed,
} from "./responses.ts";
import { startSession } from "./sessions.ts";
import { emailIdentityData, findUserByEmail, findUserById, normalizeEmail, toGoTrueUser } from "./users.ts";

export const INVALID_EMAIL = "Unable to validate email address: invalid format";

/**
 * Largest user_metadata (as JSON) an account may hold. GoTrue sets no limit, but the metadata rides in
 * every access token, and a token past a few kilobytes no longer fits the headers proxies accept.
 */
export const MAX_USER_METADATA_BYTES = 16 * 1024;

/** A refusal when `meta` is larger than MAX_USER_METADATA_BYTES. */
export function checkMetadataSize(meta: JsonObject): Outcome<JsonObject> {
  if (new TextEncoder().encode(JSON.stringify(meta)).length > MAX_USER_METADATA_BYTES) {
    return refuse(400, "validation_failed", `User metadata may be at most ${MAX_USER_METADATA_BYTES} bytes of JSON`);
  }
  return succeed(meta);
}

/** GoTrue's password checks (checkPasswordStrength), shared by sign-up and password change. */
export function checkNewPassword(password: string, minLength: number): Outcome<string> {
  if (passwordTooLong(password)) {
    return refuse(400, "validation_failed", "Password cannot be longer than 72 characters");
  }
  const weak = passwordWeakness(password, minLength);
  if (weak) return refuse(422, "weak_password", weak.message, { extra: { weak_password: { reasons: weak.reasons } } });
  return succeed(password);
}

/** What sign-up and a user update read: the body, its email/password/phone strings and `data` (user metadata). */
interface UserBody {
  body: JsonObject;
  fields: Partial<Record<"email" | "password" | "phone", string>>;
  data: JsonObject | undefined;
}

export async function readUserBody(req: Request, limit: number): Promise<Outcome<UserBody>> {
  const body = await readJsonObject(req, limit);
  if (!body.ok) return body;
  const fields = stringFields(body.value, "email", "password", "phone");
  if (!fields.ok) return fields;
  const data = objectField(body.value, "data");
  if (!data.ok) return data;
  if (data.value) {
    const small = checkMetadataSize(data.value);
    if (!small.ok) return small;
  }
  return succeed({ body: body.value, fields: fields.value, data: data.value });
}

/**
 * POST /signup as GoTrue routes it: a body with neither an e-mail address nor a phone number is an
 * anonymous sign-in, refused (before any rate limit counts it) while anonymous sign-ins are off, as
 * they are on hosted by default and in this project's config.toml; anything else goes to `signup`
 * through `limited`.
 */
export function signupRoute(limited: Endpoint): Endpoint {
  return async (actx, req, url, client) => {
    const peek = await readJsonObject(req.clone(), actx.config.maxBodyBytes);
    if (!peek.ok) return answer(peek);
    const fields = stringFields(peek.value, "email", "phone");
    if (!fields.ok) return answer(fields);
    if (!fields.value.email && !fields.value.phone) {
      return answer(refuse(422, "anonymous_provider_disabled", "Anonymous sign-ins are disabled"));
    }
    return await limited(actx, req, url, client);
  };
}

export const signup: Endpoint = async (actx, req, url) => {
  const read = await readUserBody(req, actx.config.maxBodyBytes);
  if (!read.ok) return answer(read);
  const { fields, data } = read.value;
  const { email, password, phone } = fields;

  // GoTrue's order (Signup, validateSignupParams): the password, then the fields, then the provider,
  // and the e-mail address last.
  if (!password) return answer(refuse(400, "validation_failed", "Signup requires a valid password"));
  const strong = checkNewPassword(password, actx.config.authMinPasswordLength);
  if (!strong.ok) return answer(strong);
  if (email && phone) {
    return answer(
      refuse(400, "validation_failed", "Only an email address or phone number should be provided on signup."),
    );
  }
  if (!email && phone) return answer(refuse(400, "phone_provider_disabled", "Phone signups are disabled"));
  if (!email) return answer(refuse(400, "validation_failed", "Sign up only available with email provider"));
  const address = normalizeEmail(email);
  if (!address) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
  const redirectTo = safeRedirect(actx.config, url.searchParams.get("redirect_to"));

  const existing = await findUserByEmail(actx.db, address);
  if (existing) {
    if (actx.autoconfirm || existing.email_confirmed_at) {
      return answer(refuse(422, "user_already_exists", "User already registered"));
    }
    await actx.db.transaction((sql) => sendLink(actx, sql, { id: existing.id, email: address }, "signup", redirectTo));
    return json(await toGoTrueUser(existing));
  }

  const hash = await hashPassword(password);
  return await createAccount(actx, address, hash, data ?? {}, redirectTo);
};

async function createAccount(
  actx: AuthCtx,
  email: string,
  passwordHash: string,
  data: Record<string, unknown>,
  redirectTo: string,
): Promise<Response> {
  const id = crypto.randomUUID();
  const confirmed = actx.autoconfirm;
  const userMeta = { ...data, ...emailIdentityData(id, email, confirmed) };
  const outcome = await actx.db.transaction(async (sql) => {
    const inserted = await sql.query(
      `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, confirmed_at,
                               raw_app_meta_data, raw_user_meta_data)
       values ($1, 'authenticated', 'authenticated', $2, $3, case when $4 then now() end, case when $4 then now() end,
               $5::jsonb, $6::jsonb)
       on conflict (email) do nothing returning id`,
      [
        id,
        email,
        passwordHash,
        confirmed,
        JSON.stringify({ provider: "email", providers: ["email"] }),
        JSON.stringify(userMeta),
      ],
    );
    if (inserted.rows.length === 0) return refuse(422, "user_already_exists", "User already registered");
    if (confirmed) return succeed(await startSession(actx, sql, id, "password"));
    await sendLink(actx, sql, { id, email }, "signup", redirectTo);
    return succeed(await toGoTrueUser((await findUserById(sql, id))!));
  });
  return answer(outcome);
}

/**
 * POST /resend: {type:'signup', email} mails a new confirmation link to an unconfirmed account,
 * {type:'email_change', email} the two messages of the account's pending e-mail change; phone types meet
 * the phone provider being off. `{}` whatever happened, so the answer does not reveal accounts.
 */
export const resend: Endpoint = async (actx, req, url) => {
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "type", "email", "phone", "code_challenge");
  if (!fields.ok) return answer(fields);
  const { type, email, phone } = fields.value;
  // GoTrue's ResendConfirmationParams.Validate, in its order.
  if (type !== "signup" && type !== "email_change" && type !== "sms" && type !== "phone_change") {
    return answer(
      refuse(400, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change"),
    );
  }
  if (!email && type === "signup") {
    return answer(refuse(400, "validation_failed", "Type provided requires an email address"));
  }
  if (!phone && type === "sms") {
    return answer(refuse(400, "validation_failed", "Type provided requires a phone number"));
  }
  if (email && phone) {
    return answer(refuse(400, "validation_failed", "Only an email address or phone number should be provided."));
  }
  if (phone) return answer(refuse(400, "phone_provider_disabled", "Phone logins are disabled"));
  if (!email) return json({});
  const address = normalizeEmail(email);
  if (!address) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
  if (fields.value.code_challenge) {
    return answer(refuse(400, "validation_failed", "PKCE is not supported by the local backend's e-mail links"));
  }
  const user = await findUserByEmail(actx.db, address);
  const redirectTo = safeRedirect(actx.config, url.searchParams.get("redirect_to"));
  if (user && type === "signup" && !user.email_confirmed_at) {
    await actx.db.transaction((sql) => sendLink(actx, sql, { id: user.id, email: address }, "signup", redirectTo));
  }
  if (user && type === "email_change" && user.new_email) {
    // The pending change's two messages again, fresh codes and links (at most once a minute).
    const sent = await actx.db.transaction((sql) =>
      requestEmailChange(actx, sql, { ...user, email: address }, user.new_email!, redirectTo)
    );
    if (!sent.ok) return answer(sent);
  }
  return json({});
};
