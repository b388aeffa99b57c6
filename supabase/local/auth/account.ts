// The signed-in user's own endpoints: GET /user, PUT /user (password, e-mail, user_metadata) and
// POST /logout. A password change signs out every other session and voids outstanding e-mail links,
// as GoTrue does.
import { answer, type Endpoint } from "./context.ts";
import { sendMail } from "./mailbox.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { type JsonObject, refuse, succeed } from "./responses.ts";
import { authenticate, endSessions, type LogoutScope } from "./sessions.ts";
import { checkMetadataSize, checkNewPassword, INVALID_EMAIL, readUserBody } from "./signup.ts";
import { voidLinks } from "./email-links.ts";
import { EmailRateLimited } from "./rate-limits.ts";
import { findUserByEmail, findUserById, normalizeEmail, toGoTrueUser } from "./users.ts";

const EMAIL_TAKEN = "A user with this email address has already been registered";

export const getUser: Endpoint = async (actx, req) => {
  const caller = await authenticate(actx, req);
  if (!caller.ok) return answer(caller);
  return answer(succeed(await toGoTrueUser(caller.value.user)));
};

/** user_metadata after GoTrue's merge: given keys replace, keys given as null are removed. */
function mergeMetadata(current: JsonObject, patch: JsonObject): JsonObject {
  const next = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}

export const updateUser: Endpoint = async (actx, req) => {
  const caller = await authenticate(actx, req);
  if (!caller.ok) return answer(caller);
  const { user, sessionId } = caller.value;
  const read = await readUserBody(req, actx.config.maxBodyBytes);
  if (!read.ok) return answer(read);
  const { body, fields, data } = read.value;
  if (body.app_metadata !== undefined && body.app_metadata !== null) {
    return answer(refuse(403, "not_admin", "Updating app_metadata requires admin privileges"));
  }
  if (fields.phone) return answer(refuse(422, "phone_provider_disabled", "Phone updates are disabled"));

  let newEmail: string | null = null;
  if (fields.email) {
    newEmail = normalizeEmail(fields.email);
    if (!newEmail) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
    if (newEmail === user.email) newEmail = null;
    else if (await findUserByEmail(actx.db, newEmail)) {
      return answer(refuse(422, "email_exists", EMAIL_TAKEN));
    }
  }

  let passwordHash: string | null = null;
  const password = fields.password;
  if (password !== undefined) {
    const strong = checkNewPassword(password, actx.config.authMinPasswordLength);
    if (!strong.ok) return answer(strong);
    if (await verifyPassword(password, user.encrypted_password)) {
      return answer(refuse(422, "same_password", "New password should be different from the old password."));
    }
    passwordHash = await hashPassword(password);
  }

  if (data) {
    const small = checkMetadataSize(mergeMetadata(user.user_metadata, data));
    if (!small.ok) return answer(small);
  }

  const change = () =>
    actx.db.transaction(async (sql) => {
      if (passwordHash) {
        await sql.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [
          user.id,
          passwordHash,
        ]);
        await endSessions(sql, user.id, sessionId, sessionId ? "others" : "global");
        await voidLinks(sql, user.id);
      }
      let meta = data ? mergeMetadata(user.user_metadata, data) : user.user_metadata;
      if (newEmail) {
        const taken = await sql.query(`select 1 from auth.users where email = $1`, [newEmail]);
        if (taken.rows.length) {
          return refuse(422, "email_exists", EMAIL_TAKEN);
        }
        meta = { ...meta, email: newEmail };
        // Local accounts are confirmed at once, so the new address is taken at once; the old address is
        // told, so a stolen session cannot quietly move the account to another mailbox.
        await sql.query(`update auth.users set email = $2, updated_at = now() where id = $1`, [user.id, newEmail]);
        await voidLinks(sql, user.id);
        const over = actx.limits.sendEmail();
        if (over) throw new EmailRateLimited(over);
        await sendMail(actx, sql, {
          to: user.email ?? newEmail,
          subject: "Your email address has been changed",
          text: `The e-mail address of your account was changed from ${user.email} to ${newEmail}.\n\n` +
            `If you did not do this, reset your password and contact support.`,
        });
      }
      if (data || newEmail) {
        await sql.query(`update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1`, [
          user.id,
          JSON.stringify(meta),
        ]);
      }
      return succeed(await toGoTrueUser((await findUserById(sql, user.id))!));
    });
  try {
    return answer(await change());
  } catch (e) {
    // Another account took the address between the check and the update.
    if ((e as { code?: string }).code === "23505") return answer(refuse(422, "email_exists", EMAIL_TAKEN));
    throw e;
  }
};

const SCOPES = new Set<LogoutScope>(["global", "local", "others"]);

export const logout: Endpoint = async (actx, req, url) => {
  const scope = (url.searchParams.get("scope") || "global") as LogoutScope;
  if (!SCOPES.has(scope)) return answer(refuse(400, "validation_failed", `Unsupported logout scope "${scope}"`));
  const caller = await authenticate(actx, req);
  if (!caller.ok) return answer(caller);
  const { user, sessionId } = caller.value;
  await actx.db.transaction((sql) => endSessions(sql, user.id, sessionId, scope));
  return new Response(null, { status: 204 });
};
