// Changing a signed-in person's e-mail address as GoTrue's secure e-mail change does it
// (`[auth.email] double_confirm_changes`, on by default): `updateUser({ email })` leaves the address as
// it is, records the new one as the user's new_email with email_change_sent_at, and mails two messages,
// one to the current address and one to the new, each with a link and a six-digit code. The first one
// followed (link, or verifyOtp with type email_change) is only acknowledged; the second moves the
// account to the new address, confirms it and signs in. Tokens are stored like the other e-mail codes:
// the link carries a digest of the address and the code, so a code is only good with its own address.
//
// Stricter than GoTrue in one respect: GoTrue with MAILER_AUTOCONFIRM on (the CLI's default, and the
// local one) moves the account at the first confirmation; here both are always needed, as on a hosted
// project with e-mail confirmations on (its default). See docs/decisions/109.
import type { Sql } from "../db.ts";
import type { AuthCtx } from "./context.ts";
import { codeLinkToken, LINK_TTL_MIN, randomCode, RESEND_AFTER_SEC } from "./email-links.ts";
import { sendMail } from "./mailbox.ts";
import { EmailRateLimited } from "./rate-limits.ts";
import { type Outcome, refuse, succeed } from "./responses.ts";
import { sha256Hex } from "./secrets.ts";
import type { UserRow } from "./users.ts";

/** Which of the two addresses a link goes to, as GoTrue's token types (and generateLink's types) name it. */
export type ChangeSide = "email_change_current" | "email_change_new";

const TAKEN = "A user with this email address has already been registered";
/** GoTrue's answer to the first of the two confirmations. */
export const SINGLE_CONFIRMATION = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

interface IssuedChange {
  code: string;
  hashedToken: string;
  link: string;
}

/** Stores a fresh token for one side (replacing that side's earlier one) and builds its link. */
async function issueSide(
  ctx: AuthCtx,
  sql: Sql,
  userId: string,
  side: ChangeSide,
  address: string,
  redirectTo: string,
): Promise<IssuedChange> {
  const code = randomCode();
  const hashedToken = await codeLinkToken(address, code);
  const digest = await sha256Hex(hashedToken);
  await sql.query(`delete from auth.one_time_tokens where (user_id = $1 and token_type = $2) or token_hash = $3`, [
    userId,
    side,
    digest,
  ]);
  await sql.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to) values ($1, $2, $3, $4)`,
    [userId, side, digest, address],
  );
  const url = new URL(`${ctx.config.publicUrl}/auth/v1/verify`);
  url.searchParams.set("token", hashedToken);
  url.searchParams.set("type", "email_change");
  url.searchParams.set("redirect_to", redirectTo);
  return { code, hashedToken, link: url.toString() };
}

/** Records `newEmail` as the pending change, sent now, with neither side confirmed yet. */
async function markPending(sql: Sql, userId: string, newEmail: string): Promise<void> {
  await sql.query(
    `update auth.users set email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0,
            updated_at = now() where id = $1`,
    [userId, newEmail],
  );
}

/**
 * PUT /user with a new address (GoTrue's sendEmailChange): at most one request a minute per user
 * (429 over_email_send_rate_limit), one unit of the project's e-mail budget for the pair of messages
 * (throws EmailRateLimited, undoing the caller's transaction), then both links mailed.
 */
export async function requestEmailChange(
  ctx: AuthCtx,
  sql: Sql,
  user: UserRow & { email: string },
  newEmail: string,
  redirectTo: string,
): Promise<Outcome<null>> {
  const { rows } = await sql.query<{ wait: number | null }>(
    `select ceil($2 - extract(epoch from now() - email_change_sent_at))::int as wait from auth.users where id = $1`,
    [user.id, RESEND_AFTER_SEC],
  );
  const wait = Number(rows[0]?.wait ?? 0);
  if (wait > 0) {
    return refuse(
      429,
      "over_email_send_rate_limit",
      `For security purposes, you can only request this after ${wait} seconds.`,
    );
  }
  const over = ctx.limits.sendEmail();
  if (over) throw new EmailRateLimited(over);
  const toNew = await issueSide(ctx, sql, user.id, "email_change_new", newEmail, redirectTo);
  const toCurrent = await issueSide(ctx, sql, user.id, "email_change_current", user.email, redirectTo);
  await markPending(sql, user.id, newEmail);
  const text = (issued: IssuedChange, sendingTo: string) =>
    `Someone asked to change the e-mail address of your account from ${user.email} to ${newEmail}. ` +
    `This message went to ${sendingTo}; a second one went to the other address.\n\n` +
    `Follow this link to confirm the change:\n${issued.link}\n\nOr enter this code: ${issued.code}\n\n` +
    `The address changes once both messages are confirmed. Use the link or the code, once; both expire in ` +
    `${LINK_TTL_MIN} minutes. If you did not ask for this, ignore this message.`;
  const subject = "Confirm Email Change";
  await sendMail(ctx, sql, { to: newEmail, subject, text: text(toNew, newEmail), link: toNew.link });
  await sendMail(ctx, sql, { to: user.email, subject, text: text(toCurrent, user.email), link: toCurrent.link });
  return succeed(null);
}

/**
 * POST /admin/generate_link with type email_change_current or email_change_new (GoTrue's
 * adminGenerateLink): records the pending change and answers one side's link and code, mailing nothing.
 * As in GoTrue, `hashed_token` is the digest of the code with the address the request named (the
 * current one), which is the link's token only for the current side.
 */
export async function generateEmailChangeLink(
  ctx: AuthCtx,
  sql: Sql,
  user: UserRow & { email: string },
  side: ChangeSide,
  newEmail: string,
  redirectTo: string,
): Promise<Outcome<IssuedChange>> {
  const taken = await sql.query(`select 1 from auth.users where email = $1 and id <> $2`, [newEmail, user.id]);
  if (taken.rows.length) return refuse(422, "email_exists", TAKEN);
  const issued = await issueSide(
    ctx,
    sql,
    user.id,
    side,
    side === "email_change_new" ? newEmail : user.email,
    redirectTo,
  );
  await markPending(sql, user.id, newEmail);
  if (side === "email_change_current") return succeed(issued);
  // Same code, so the answer's digest is of the current address with the code, as GoTrue's is.
  return succeed({ ...issued, hashedToken: await codeLinkToken(user.email, issued.code) });
}

/**
 * Follows one e-mail change link (or its code): consumes the token whatever its state; a valid one
 * (of an email_change type, younger than LINK_TTL_MIN, for the address it was sent to while that
 * change is still pending) counts as one confirmation. The first confirmation answers
 * `{ applied: false }`; the second moves the account to the new address, confirms it and voids every
 * other link of the user, answering `{ applied: true }`. Failures are GoTrue's (otp_expired,
 * user_banned); the new address taken by another account meanwhile is 422 email_exists.
 */
export async function confirmEmailChange(
  sql: Sql,
  token: string,
): Promise<Outcome<{ userId: string; applied: boolean }>> {
  const expired = refuse(403, "otp_expired", "Email link is invalid or has expired");
  if (!token) return expired;
  const { rows } = await sql.query<{ user_id: string; valid: boolean; banned: boolean; status: number; to: string }>(
    `with used as (delete from auth.one_time_tokens where token_hash = $1 returning *)
     select used.user_id::text as user_id, coalesce(u.banned_until > now(), false) as banned,
            u.email_change_confirm_status as status, u.email_change as "to",
            (used.token_type in ('email_change_current', 'email_change_new')
             and used.created_at > now() - make_interval(mins => $2)
             and coalesce(u.email_change, '') <> ''
             and used.relates_to = case used.token_type when 'email_change_new' then u.email_change else u.email end)
              as valid
       from used join auth.users u on u.id = used.user_id`,
    [await sha256Hex(token), LINK_TTL_MIN],
  );
  const row = rows[0];
  if (!row?.valid) return expired;
  if (row.banned) return refuse(403, "user_banned", "User is banned");
  if (Number(row.status) === 0) {
    await sql.query(`update auth.users set email_change_confirm_status = 1, updated_at = now() where id = $1`, [
      row.user_id,
    ]);
    return succeed({ userId: row.user_id, applied: false });
  }
  const taken = await sql.query(`select 1 from auth.users where email = $1 and id <> $2`, [row.to, row.user_id]);
  if (taken.rows.length) return refuse(422, "email_exists", TAKEN);
  await sql.query(
    `update auth.users set email = email_change, email_change = null, email_change_confirm_status = 0,
            raw_user_meta_data = case when email_confirmed_at is null
              then coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
              else raw_user_meta_data end,
            email_confirmed_at = coalesce(email_confirmed_at, now()), confirmed_at = coalesce(confirmed_at, now()),
            updated_at = now()
      where id = $1`,
    [row.user_id],
  );
  await sql.query(`delete from auth.one_time_tokens where user_id = $1`, [row.user_id]);
  return succeed({ userId: row.user_id, applied: true });
}
