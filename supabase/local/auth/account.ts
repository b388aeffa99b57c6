// The signed-in user's own endpoints: GET /user, PUT /user (password, e-mail, user_metadata) and
// POST /logout. A password change signs out every other session and voids outstanding e-mail links,
// as GoTrue does; a new e-mail address only becomes the account's once both addresses have confirmed
// it (email-change.ts).
import { answer, type Endpoint } from "./context.ts";
import { requestEmailChange } from "./email-change.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { type JsonObject, type Outcome, refuse, succeed } from "./responses.ts";
import { authenticate, endSessions, type LogoutScope } from "./sessions.ts";
import { checkMetadataSize, checkNewPassword, INVALID_EMAIL, readUserBody } from "./signup.ts";
import { voidLinks } from "./email-links.ts";
import { safeRedirect } from "./redirects.ts";
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

/** Thrown inside the update's transaction to undo it and answer `outcome`. */
class Undo extends Error {
  constructor(readonly outcome: Outcome<never>) {
    super(outcome.ok ? "undo" : outcome.error.message);
  }
}

export const updateUser: Endpoint = async (actx, req, url) => {
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
  const mfaEnabled = user.factors.some((f) => f.status === "verified");
  const changesCredentials = Boolean(fields.password) || (Boolean(fields.email) && fields.email !== user.email);
  if (mfaEnabled && caller.value.aal !== "aal2" && changesCredentials) {
    return answer(
      refuse(401, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled."),
    );
  }

  let newEmail: string | null = null;
  if (fields.email) {
    newEmail = normalizeEmail(fields.email);
    if (!newEmail) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
    if (newEmail === user.email) newEmail = null;
    else if (!user.email) {
      // GoTrue's shortcut for accounts without an address (anonymous ones) has no use here.
      return answer(refuse(422, "validation_failed", "Only accounts with an e-mail address can change it"));
    } else if (typeof body.code_challenge === "string" && body.code_challenge) {
      return answer(refuse(400, "validation_failed", "PKCE is not supported by the local backend's e-mail change"));
    } else if (await findUserByEmail(actx.db, newEmail)) {
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

  const redirectTo = safeRedirect(actx.config, url.searchParams.get("redirect_to"));
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
      if (data) {
        await sql.query(`update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1`, [
          user.id,
          JSON.stringify(mergeMetadata(user.user_metadata, data)),
        ]);
      }
      if (newEmail) {
        const taken = await sql.query(`select 1 from auth.users where email = $1`, [newEmail]);
        // A refusal here undoes the rest of the update, as GoTrue's transaction does.
        if (taken.rows.length) throw new Undo(refuse(422, "email_exists", EMAIL_TAKEN));
        const sent = await requestEmailChange(actx, sql, { ...user, email: user.email! }, newEmail, redirectTo);
        if (!sent.ok) throw new Undo(sent);
      }
      return succeed(await toGoTrueUser((await findUserById(sql, user.id))!));
    });
  try {
    return answer(await change());
  } catch (e) {
    if (e instanceof Undo) return answer(e.outcome);
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
