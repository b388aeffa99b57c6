// The single-use tokens behind e-mailed links (password recovery, sign-up confirmation): created with
// the message that carries them, stored as digests, valid for an hour, consumed by the first use, and
// bound to the address they were sent to (a changed e-mail invalidates them).
import type { Ctx } from "../http.ts";
import type { Sql } from "../db.ts";
import { sendMail } from "./mailbox.ts";
import { randomSecret, sha256Hex } from "./secrets.ts";

export type LinkType = "recovery" | "signup";

export const LINK_TTL_MIN = 60;
/** One message of a kind per address per this long, so the mailbox cannot be flooded. */
export const RESEND_AFTER_SEC = 60;

const MESSAGES: Record<LinkType, { subject: string; text: (link: string) => string }> = {
  recovery: {
    subject: "Reset Your Password",
    text: (link) =>
      `Someone asked to reset the password of your account.\n\nFollow this link to choose a new password:\n${link}\n\n` +
      `The link works once and expires in ${LINK_TTL_MIN} minutes. If you did not ask for it, ignore this message.`,
  },
  signup: {
    subject: "Confirm Your Signup",
    text: (link) =>
      `Follow this link to confirm your e-mail address:\n${link}\n\n` +
      `The link works once and expires in ${LINK_TTL_MIN} minutes.`,
  },
};

/**
 * Issues a fresh link of `type` for the user (replacing any earlier one) and mails it, unless one was
 * sent less than RESEND_AFTER_SEC ago. Returns whether a message was sent.
 */
export async function sendLink(
  ctx: Ctx,
  sql: Sql,
  user: { id: string; email: string },
  type: LinkType,
  redirectTo: string,
): Promise<boolean> {
  const recent = await sql.query(
    `select 1 from auth.one_time_tokens
      where user_id = $1 and token_type = $2 and created_at > now() - make_interval(secs => $3)`,
    [user.id, type, RESEND_AFTER_SEC],
  );
  if (recent.rows.length > 0) {
    ctx.log(`${type} mail to ${user.email} not sent: one was sent less than ${RESEND_AFTER_SEC} s ago`);
    return false;
  }
  const token = randomSecret(32);
  await sql.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2`, [user.id, type]);
  await sql.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to) values ($1, $2, $3, $4)`,
    [user.id, type, await sha256Hex(token), user.email],
  );
  if (type === "recovery") {
    await sql.query(`update auth.users set recovery_sent_at = now() where id = $1`, [user.id]);
  }
  const url = new URL(`${ctx.config.publicUrl}/auth/v1/verify`);
  url.searchParams.set("token", token);
  url.searchParams.set("type", type);
  url.searchParams.set("redirect_to", redirectTo);
  const link = url.toString();
  const message = MESSAGES[type];
  await sendMail(ctx, sql, { to: user.email, subject: message.subject, text: message.text(link), link });
  return true;
}

/**
 * Consumes the link token: deletes it whatever its state, and returns its user when it was of `type`,
 * younger than LINK_TTL_MIN and still addressed to the user's current e-mail.
 */
export async function consumeLink(sql: Sql, token: string, type: LinkType): Promise<string | null> {
  if (!token) return null;
  const { rows } = await sql.query<{ user_id: string; valid: boolean }>(
    `with used as (delete from auth.one_time_tokens where token_hash = $1 returning *)
     select used.user_id::text as user_id,
            (used.token_type = $2 and used.created_at > now() - make_interval(mins => $3)
             and used.relates_to = u.email) as valid
       from used join auth.users u on u.id = used.user_id`,
    [await sha256Hex(token), type, LINK_TTL_MIN],
  );
  return rows[0]?.valid ? rows[0].user_id : null;
}

/** A password change or e-mail change makes every outstanding link of the user void. */
export async function voidLinks(sql: Sql, userId: string): Promise<void> {
  await sql.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
}
