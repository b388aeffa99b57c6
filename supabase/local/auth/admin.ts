// GoTrue's admin API as supabase-js `auth.admin` calls it: GET/POST /admin/users (list with page and
// per_page, GoTrue's Link and X-Total-Count headers; create), GET/PUT/DELETE /admin/users/{id},
// POST /admin/generate_link (a link and its code, answered rather than mailed) and POST /invite (mailed
// to the development mailbox). Only a token whose role is service_role (the key only servers hold) is an
// admin, as GoTrue's JWT admin roles decide. Deleting the auth.users row cascades to the person's
// sessions, refresh tokens and e-mail links and, through the migrations' foreign keys, to every public
// table that references auth.users. What the local backend has no use for (phone numbers, imported
// password hashes, other roles or audiences, soft deletion) is refused, never silently ignored.
import { verifyJwt } from "../jwt.ts";
import { bearer, json } from "../http.ts";
import type { Sql } from "../db.ts";
import { answer, type AuthCtx, type Endpoint } from "./context.ts";
import { type ChangeSide, generateEmailChangeLink } from "./email-change.ts";
import { type CodeLinkType, issueCode, sendCode, voidLinks } from "./email-links.ts";
import { hashPassword } from "./passwords.ts";
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
import { endSessions } from "./sessions.ts";
import { checkMetadataSize, checkNewPassword, INVALID_EMAIL } from "./signup.ts";
import { findUserByEmail, findUserById, normalizeEmail, toGoTrueUser, type UserRow, UUID } from "./users.ts";

const ADMIN_ROLES = new Set(["service_role", "supabase_admin"]);

/** Answers for requests that are not an admin's, with GoTrue's statuses and codes. */
export async function requireAdmin(actx: AuthCtx, req: Request): Promise<Response | null> {
  const token = bearer(req);
  if (!token) return answer(refuse(401, "no_authorization", "This endpoint requires a valid Bearer token"));
  const verified = await verifyJwt(token, actx.config.jwtSecret);
  if (!verified.ok) {
    const why = verified.error === "expired" ? "token has invalid claims: token is expired" : verified.error;
    return answer(refuse(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${why}`));
  }
  const role = verified.value.role;
  if (typeof role !== "string" || !ADMIN_ROLES.has(role)) {
    return answer(refuse(403, "not_admin", "User not allowed"));
  }
  return null;
}

/**
 * DELETE /admin/users/{id} with `{ should_soft_delete }`. A hard delete removes the user row and what
 * cascades from it; the local backend keeps no soft-deleted accounts, so a soft delete is refused
 * rather than silently made hard. An unknown id is 404 user_not_found, as on GoTrue.
 */
export async function deleteUser(actx: AuthCtx, req: Request, id: string): Promise<Response> {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  if (!UUID.test(id)) return answer(refuse(404, "validation_failed", "user_id must be an UUID"));
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  if (body.value.should_soft_delete === true) {
    return answer(refuse(422, "validation_failed", "Soft deletion of users is not supported by the local backend"));
  }
  const removed = await actx.db.transaction(async (sql) => {
    const { rows } = await sql.query<{ email: string | null }>(`delete from auth.users where id = $1 returning email`, [
      id,
    ]);
    // Failed sign-in counts per address (kept by earlier versions, before GoTrue's per-IP limits) are
    // the person's data too; they have no foreign key to cascade.
    if (rows[0]?.email) await sql.query(`delete from local.sign_in_failures where email = $1`, [rows[0].email]);
    return rows.length > 0;
  });
  if (!removed) return answer(refuse(404, "user_not_found", "User not found"));
  actx.log("user deleted by an admin", { user: id });
  return answer(succeed({}));
}

const EMAIL_TAKEN = "A user with this email address has already been registered";
const DEFAULT_PER_PAGE = 50;

/** GoTrue's answer for an admin request whose user cannot be loaded. */
async function loadUser(actx: AuthCtx, id: string): Promise<Outcome<UserRow>> {
  if (!UUID.test(id)) return refuse(404, "validation_failed", "user_id must be an UUID");
  const user = await findUserById(actx.db, id);
  return user ? succeed(user) : refuse(404, "user_not_found", "User not found");
}

/** A page parameter: "" or absent is `fallback`; anything but a whole number from 1 is refused. */
function pageParam(url: URL, key: string, fallback: number): Outcome<number> {
  const raw = url.searchParams.get(key) ?? "";
  if (raw === "") return succeed(fallback);
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1)) {
    return refuse(400, "validation_failed", `Bad Pagination Parameters: ${key} must be a whole number from 1`);
  }
  return succeed(n);
}

/** GoTrue's Link header: the next page (when there is one) and the last, on the request's own path. */
function paginationLink(path: string, url: URL, page: number, perPage: number, total: number): string {
  const lastPage = Math.ceil(total / perPage);
  const at = (p: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set("page", String(p));
    query.sort();
    return `<${path}?${query.toString()}>`;
  };
  return (page < lastPage ? `${at(page + 1)}; rel="next", ` : "") + `${at(lastPage)}; rel="last"`;
}

/** GET /admin/users: newest first, `page` from 1, `per_page` (default 50), `filter` on e-mail or name. */
export const listUsers: Endpoint = async (actx, req, url) => {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  const page = pageParam(url, "page", 1);
  if (!page.ok) return answer(page);
  const perPage = pageParam(url, "per_page", DEFAULT_PER_PAGE);
  if (!perPage.ok) return answer(perPage);
  const filter = url.searchParams.get("filter") ?? "";
  const where = `where aud = 'authenticated' and ($1 = '' or email ilike '%' || $1 || '%'
                 or raw_user_meta_data->>'full_name' ilike '%' || $1 || '%')`;
  const { rows: counted } = await actx.db.query<{ n: string | number }>(
    `select count(*)::int as n from auth.users ${where}`,
    [filter],
  );
  const total = Number(counted[0]?.n ?? 0);
  const { rows } = await actx.db.query<{ id: string }>(
    `select id::text as id from auth.users ${where} order by created_at desc, id desc limit $2 offset $3`,
    [filter, perPage.value, (page.value - 1) * perPage.value],
  );
  const users: JsonObject[] = [];
  for (const { id } of rows) {
    const user = await findUserById(actx.db, id);
    if (user) users.push(await toGoTrueUser(user));
  }
  return json({ users, aud: "authenticated" }, 200, {
    Link: paginationLink("/admin/users", url, page.value, perPage.value, total),
    "X-Total-Count": String(total),
  });
};

/** GET /admin/users/{id}. */
export async function getUserById(actx: AuthCtx, req: Request, id: string): Promise<Response> {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  const user = await loadUser(actx, id);
  return user.ok ? json(await toGoTrueUser(user.value)) : answer(user);
}

/** Metadata after GoTrue's merge: given keys replace, keys given as null are removed. */
function merge(current: JsonObject, patch: JsonObject | undefined): JsonObject {
  const next = { ...current };
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}

const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const UNIT_SEC: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** GoTrue's ban_duration (a Go duration, or "none" to lift a ban) in seconds; null when unset. */
function banSeconds(raw: string | undefined): Outcome<number | null> {
  if (!raw) return succeed(null);
  if (raw === "none") return succeed(0);
  if (!GO_DURATION.test(raw)) {
    return refuse(400, "validation_failed", `invalid format for ban duration: time: invalid duration "${raw}"`);
  }
  let sec = 0;
  for (const m of raw.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) sec += Number(m[1]) * UNIT_SEC[m[2]];
  return succeed(sec);
}

interface AdminParams {
  email?: string;
  password?: string;
  emailConfirm: boolean;
  userMeta?: JsonObject;
  appMeta?: JsonObject;
  ban: number | null;
  id?: string;
}

/** AdminUserParams as GoTrue reads them, with what the local backend does not support refused. */
async function readAdminParams(actx: AuthCtx, req: Request): Promise<Outcome<AdminParams>> {
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return body;
  const b = body.value;
  const fields = stringFields(b, "id", "aud", "role", "email", "phone", "password", "password_hash", "ban_duration");
  if (!fields.ok) return fields;
  for (const key of ["email_confirm", "phone_confirm"]) {
    if (b[key] !== undefined && b[key] !== null && typeof b[key] !== "boolean") {
      return refuse(400, "bad_json", `Could not read ${key}: expected a boolean`);
    }
  }
  const userMeta = objectField(b, "user_metadata");
  if (!userMeta.ok) return userMeta;
  const appMeta = objectField(b, "app_metadata");
  if (!appMeta.ok) return appMeta;
  const f = fields.value;
  if (f.phone || b.phone_confirm === true) {
    return refuse(400, "validation_failed", "Phone numbers are not supported by the local backend");
  }
  if (f.password_hash) {
    return refuse(400, "validation_failed", "Password hashes cannot be imported into the local backend");
  }
  if ((f.role && f.role !== "authenticated") || (f.aud && f.aud !== "authenticated")) {
    return refuse(400, "validation_failed", "The local backend only has the authenticated role and audience");
  }
  const ban = banSeconds(f.ban_duration);
  if (!ban.ok) return ban;
  for (const meta of [userMeta.value, appMeta.value]) {
    if (meta) {
      const small = checkMetadataSize(meta);
      if (!small.ok) return small;
    }
  }
  return succeed({
    email: f.email,
    password: f.password,
    emailConfirm: b.email_confirm === true,
    userMeta: userMeta.value,
    appMeta: appMeta.value,
    ban: ban.value,
    id: f.id,
  });
}

async function setBan(sql: Sql, id: string, seconds: number | null): Promise<void> {
  if (seconds === null) return;
  await sql.query(
    `update auth.users set banned_until = case when $2::float8 > 0 then now() + make_interval(secs => $2::float8) end,
            updated_at = now() where id = $1`,
    [id, seconds],
  );
  if (seconds > 0) await endSessions(sql, id, null, "global");
}

/** POST /admin/users: GoTrue's adminUserCreate (without a password, one nobody knows). */
export const createUser: Endpoint = async (actx, req) => {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  const read = await readAdminParams(actx, req);
  if (!read.ok) return answer(read);
  const p = read.value;
  if (!p.email) {
    return answer(refuse(400, "validation_failed", "Cannot create a user without either an email or phone"));
  }
  const email = normalizeEmail(p.email);
  if (!email) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
  if (await findUserByEmail(actx.db, email)) return answer(refuse(422, "email_exists", EMAIL_TAKEN));
  let hash: string | null = null;
  if (p.password) {
    // GoTrue checks no strength here; the local backend holds admin-made passwords to the project's policy.
    const strong = checkNewPassword(p.password, actx.config.authMinPasswordLength);
    if (!strong.ok) return answer(strong);
    hash = await hashPassword(p.password);
  }
  let id: string = crypto.randomUUID();
  if (p.id) {
    if (!UUID.test(p.id)) return answer(refuse(400, "validation_failed", "ID must conform to the uuid v4 format"));
    if (/^[0-]+$/.test(p.id)) return answer(refuse(400, "validation_failed", "ID cannot be a nil uuid"));
    id = p.id.toLowerCase();
  }
  const appMeta = merge({ provider: "email", providers: ["email"] }, p.appMeta);
  const userMeta = { ...p.userMeta, ...(p.emailConfirm ? { email_verified: true } : {}) };
  try {
    const created = await actx.db.transaction(async (sql) => {
      const inserted = await sql.query(
        `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, confirmed_at,
                                 raw_app_meta_data, raw_user_meta_data)
         values ($1, 'authenticated', 'authenticated', $2, $3, case when $4 then now() end,
                 case when $4 then now() end, $5::jsonb, $6::jsonb)
         on conflict do nothing returning id`,
        [id, email, hash, p.emailConfirm, JSON.stringify(appMeta), JSON.stringify(userMeta)],
      );
      if (inserted.rows.length === 0) return refuse(422, "email_exists", EMAIL_TAKEN);
      await setBan(sql, id, p.ban);
      return succeed(await toGoTrueUser((await findUserById(sql, id))!));
    });
    if (created.ok) actx.log("user created by an admin", { user: id });
    return answer(created);
  } catch (e) {
    if ((e as { code?: string }).code === "23505") return answer(refuse(422, "email_exists", EMAIL_TAKEN));
    throw e;
  }
};

/** PUT /admin/users/{id}: GoTrue's adminUserUpdate, in its order. */
export async function updateUserById(actx: AuthCtx, req: Request, id: string): Promise<Response> {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  const loaded = await loadUser(actx, id);
  if (!loaded.ok) return answer(loaded);
  const user = loaded.value;
  const read = await readAdminParams(actx, req);
  if (!read.ok) return answer(read);
  const p = read.value;
  let email: string | null = null;
  if (p.email) {
    email = normalizeEmail(p.email);
    if (!email) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
    if (email === user.email) email = null;
    else if (await findUserByEmail(actx.db, email)) return answer(refuse(422, "email_exists", EMAIL_TAKEN));
  }
  let hash: string | null = null;
  if (p.password !== undefined) {
    const strong = checkNewPassword(p.password, actx.config.authMinPasswordLength);
    if (!strong.ok) return answer(strong);
    hash = await hashPassword(p.password);
  }
  const userMeta = p.userMeta ? merge(user.user_metadata, p.userMeta) : null;
  if (userMeta) {
    const small = checkMetadataSize(userMeta);
    if (!small.ok) return answer(small);
  }
  try {
    const updated = await actx.db.transaction(async (sql) => {
      if (p.emailConfirm) {
        await sql.query(
          `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()),
                  confirmed_at = coalesce(confirmed_at, now()),
                  raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
                  updated_at = now() where id = $1`,
          [id],
        );
        await voidLinks(sql, id);
      }
      if (hash) {
        await sql.query(`update auth.users set encrypted_password = $2, updated_at = now() where id = $1`, [id, hash]);
        await voidLinks(sql, id);
        await endSessions(sql, id, null, "global");
      }
      if (email) {
        await sql.query(`update auth.users set email = $2, updated_at = now() where id = $1`, [id, email]);
        await voidLinks(sql, id);
      }
      if (p.appMeta) {
        await sql.query(`update auth.users set raw_app_meta_data = $2::jsonb, updated_at = now() where id = $1`, [
          id,
          JSON.stringify(merge(user.app_metadata, p.appMeta)),
        ]);
      }
      if (userMeta) {
        await sql.query(
          `update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) - $3::text[] || $2::jsonb,
                  updated_at = now() where id = $1`,
          [
            id,
            JSON.stringify(Object.fromEntries(Object.entries(p.userMeta!).filter(([, v]) => v !== null))),
            Object.entries(p.userMeta!)
              .filter(([, v]) => v === null)
              .map(([k]) => k),
          ],
        );
      }
      await setBan(sql, id, p.ban);
      return succeed(await toGoTrueUser((await findUserById(sql, id))!));
    });
    actx.log("user updated by an admin", { user: id });
    return answer(updated);
  } catch (e) {
    if ((e as { code?: string }).code === "23505") return answer(refuse(422, "email_exists", EMAIL_TAKEN));
    throw e;
  }
}

const GENERATE_TYPES = new Set([
  "signup",
  "invite",
  "magiclink",
  "recovery",
  "email_change_current",
  "email_change_new",
]);

/**
 * POST /admin/generate_link: GoTrue's adminGenerateLink. The user, the action link, the code
 * (email_otp), the link's token (hashed_token), the type and the redirect are answered; nothing is
 * mailed and the e-mail budget is untouched. A magic link for an unknown address signs it up (as a
 * sign-up link), as GoTrue does.
 */
export const generateLink: Endpoint = async (actx, req, url) => {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "type", "email", "new_email", "password", "redirect_to");
  if (!fields.ok) return answer(fields);
  const data = objectField(body.value, "data");
  if (!data.ok) return answer(data);
  if (data.value) {
    const small = checkMetadataSize(data.value);
    if (!small.ok) return answer(small);
  }
  const email = normalizeEmail(fields.value.email ?? "");
  if (!email) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
  const redirectTo = safeRedirect(actx.config, fields.value.redirect_to ?? url.searchParams.get("redirect_to"));
  let type = fields.value.type ?? "";
  const existing = await findUserByEmail(actx.db, email);
  if (!existing) {
    if (type === "magiclink") type = "signup";
    else if (type === "recovery" || type === "email_change_current" || type === "email_change_new") {
      return answer(refuse(404, "user_not_found", "User with this email not found"));
    }
  }
  if (!GENERATE_TYPES.has(type)) {
    return answer(refuse(400, "validation_failed", `Invalid email action link type requested: ${type}`));
  }
  if (type === "email_change_current" || type === "email_change_new") {
    const newEmail = normalizeEmail(fields.value.new_email ?? "");
    if (!newEmail) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
    const user = { ...existing!, email };
    const outcome = await actx.db.transaction(async (sql) => {
      const issued = await generateEmailChangeLink(actx, sql, user, type as ChangeSide, newEmail, redirectTo);
      if (!issued.ok) return issued;
      return succeed({
        ...(await toGoTrueUser((await findUserById(sql, user.id))!)),
        action_link: issued.value.link,
        email_otp: issued.value.code,
        hashed_token: issued.value.hashedToken,
        verification_type: type,
        redirect_to: redirectTo,
      });
    });
    return answer(outcome);
  }
  let passwordHash: string | null = null;
  if (type === "signup" && !existing) {
    const password = fields.value.password;
    if (password) {
      const strong = checkNewPassword(password, actx.config.authMinPasswordLength);
      if (!strong.ok) return answer(strong);
      passwordHash = await hashPassword(password);
    }
  }
  const outcome = await actx.db.transaction(async (sql) => {
    let user = existing;
    if ((type === "signup" || type === "invite") && user?.email_confirmed_at) {
      return refuse(422, "email_exists", EMAIL_TAKEN);
    }
    if (!user) {
      const created = await insertUnconfirmed(sql, email, passwordHash, data.value ?? {});
      if (!created) return refuse(422, "email_exists", EMAIL_TAKEN);
      user = created;
    } else if (type === "signup" && data.value) {
      await sql.query(`update auth.users set raw_user_meta_data = $2::jsonb, updated_at = now() where id = $1`, [
        user.id,
        JSON.stringify(merge(user.user_metadata, data.value)),
      ]);
    }
    const issued = await issueCode(actx, sql, { id: user.id, email }, type as CodeLinkType, redirectTo);
    return succeed({
      ...(await toGoTrueUser((await findUserById(sql, user.id))!)),
      action_link: issued.link,
      email_otp: issued.code,
      hashed_token: issued.hashedToken,
      verification_type: type,
      redirect_to: redirectTo,
    });
  });
  return answer(outcome);
};

/** A new unconfirmed account for an invitation or an admin-made sign-up link; null when the address is taken. */
async function insertUnconfirmed(
  sql: Sql,
  email: string,
  passwordHash: string | null,
  data: JsonObject,
): Promise<UserRow | null> {
  const id = crypto.randomUUID();
  const { rows } = await sql.query(
    `insert into auth.users (id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data)
     values ($1, 'authenticated', 'authenticated', $2, $3, $4::jsonb, $5::jsonb)
     on conflict do nothing returning id`,
    [id, email, passwordHash, JSON.stringify({ provider: "email", providers: ["email"] }), JSON.stringify(data)],
  );
  return rows.length ? await findUserById(sql, id) : null;
}

/**
 * POST /invite {email, data}: GoTrue's Invite. A new address gets an unconfirmed account and an
 * invitation (link and code) in the mailbox; an address whose account is already confirmed is refused
 * with 422 email_exists. The invitation counts against the e-mail budget.
 */
export const invite: Endpoint = async (actx, req, url) => {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "email");
  if (!fields.ok) return answer(fields);
  const data = objectField(body.value, "data");
  if (!data.ok) return answer(data);
  if (data.value) {
    const small = checkMetadataSize(data.value);
    if (!small.ok) return answer(small);
  }
  const email = normalizeEmail(fields.value.email ?? "");
  if (!email) return answer(refuse(400, "validation_failed", INVALID_EMAIL));
  const redirectTo = safeRedirect(actx.config, url.searchParams.get("redirect_to"));
  const existing = await findUserByEmail(actx.db, email);
  if (existing?.email_confirmed_at) return answer(refuse(422, "email_exists", EMAIL_TAKEN));
  const outcome = await actx.db.transaction(async (sql) => {
    const user = existing ?? (await insertUnconfirmed(sql, email, null, data.value ?? {}));
    if (!user) return refuse(422, "email_exists", EMAIL_TAKEN);
    await sendCode(actx, sql, { id: user.id, email }, "invite", redirectTo);
    await sql.query(`update auth.users set updated_at = now() where id = $1`, [user.id]);
    return succeed(await toGoTrueUser((await findUserById(sql, user.id))!));
  });
  return answer(outcome);
};
