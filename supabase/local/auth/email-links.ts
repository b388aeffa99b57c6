// The single-use tokens behind e-mailed links (password recovery, sign-up confirmation, magic links,
// invitations): created with the message that carries them, stored as digests, valid for an hour,
// consumed by the first use, and bound to the address they were sent to (a changed e-mail invalidates
// them). As in GoTrue, a magic link and an invitation are stored as the user's recovery and confirmation
// tokens, and their messages carry a six-digit code besides the link: the link's token is a digest of the
// address and the code, so `verifyOtp({ email, token })` and the link find the same single-use row.
import type { Sql } from "../db.ts";
import type { AuthCtx } from "./context.ts";
import { sendMail } from "./mailbox.ts";
import { EmailRateLimited } from "./rate-limits.ts";
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
 * sent less than RESEND_AFTER_SEC ago. Returns whether a message was sent. Throws EmailRateLimited
 * when the project's hourly e-mail budget is spent (the caller's transaction is then undone).
 */
export async function sendLink(
  ctx: AuthCtx,
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
  const over = ctx.limits.sendEmail();
  if (over) throw new EmailRateLimited(over);
  const token = randomSecret(32);
  await sql.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2`, [user.id, type]);
  await sql.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to) values ($1, $2, $3, $4)`,
    [user.id, type, await sha256Hex(token), user.email],
  );
  await markSent(sql, user.id, type);
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
 * GoTrue's record of when a link went out: recovery_sent_at for recovery tokens, confirmation_sent_at
 * for confirmation tokens, and invited_at besides for an invitation.
 */
async function markSent(sql: Sql, userId: string, type: CodeLinkType): Promise<void> {
  const column = STORED_AS[type] === "recovery" ? "recovery_sent_at" : "confirmation_sent_at";
  const invited = type === "invite" ? ", invited_at = now()" : "";
  await sql.query(`update auth.users set ${column} = now()${invited} where id = $1`, [userId]);
}

/** What a code-carrying e-mail link is for, as /verify's `type` names it. */
export type CodeLinkType = "signup" | "magiclink" | "recovery" | "invite";

/** The stored token type each verification type is kept as (GoTrue's confirmation or recovery token). */
export const STORED_AS: Record<CodeLinkType, LinkType> = {
  signup: "signup",
  invite: "signup",
  magiclink: "recovery",
  recovery: "recovery",
};

/** GoTrue's default e-mail OTP length. */
export const OTP_LENGTH = 6;

/** A uniformly random decimal code of OTP_LENGTH digits. */
export function randomCode(): string {
  const limit = 10 ** OTP_LENGTH;
  // Rejection sampling keeps the digits uniform.
  const buf = new Uint32Array(1);
  const ceiling = Math.floor(0x1_0000_0000 / limit) * limit;
  do crypto.getRandomValues(buf); while (buf[0] >= ceiling);
  return String(buf[0] % limit).padStart(OTP_LENGTH, "0");
}

/** The link token (GoTrue's hashed_token) for the code `code` sent to `email`. */
export function codeLinkToken(email: string, code: string): Promise<string> {
  return sha256Hex(`${email}\u0000${code}`);
}

export interface IssuedCode {
  code: string;
  hashedToken: string;
  link: string;
}

/**
 * Seconds until another code-carrying message of `type` may go to the user (GoTrue's 60 s
 * SMTP_MAX_FREQUENCY), 0 when one may go now.
 */
export async function waitBeforeResend(sql: Sql, userId: string, type: CodeLinkType): Promise<number> {
  // A used recovery token is gone, but recovery_sent_at stays (as GoTrue's does), so a used magic
  // link still holds the next one back.
  const { rows } = await sql.query<{ wait: number | null }>(
    `select ceil($3 - extract(epoch from now() - greatest(
              (select max(created_at) from auth.one_time_tokens where user_id = $1 and token_type = $2),
              (select recovery_sent_at from auth.users where id = $1 and $2 = 'recovery'))))::int as wait`,
    [userId, STORED_AS[type], RESEND_AFTER_SEC],
  );
  const wait = rows[0]?.wait;
  return wait === null || wait === undefined ? 0 : Math.max(0, Number(wait));
}

/**
 * Issues a code and its link of `type` for the user, replacing their earlier token of the same stored
 * kind; nothing is mailed (generateLink answers it, sendCode mails it).
 */
export async function issueCode(
  ctx: AuthCtx,
  sql: Sql,
  user: { id: string; email: string },
  type: CodeLinkType,
  redirectTo: string,
): Promise<IssuedCode> {
  const code = randomCode();
  const hashedToken = await codeLinkToken(user.email, code);
  const digest = await sha256Hex(hashedToken);
  const stored = STORED_AS[type];
  await sql.query(`delete from auth.one_time_tokens where (user_id = $1 and token_type = $2) or token_hash = $3`, [
    user.id,
    stored,
    digest,
  ]);
  await sql.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to) values ($1, $2, $3, $4)`,
    [user.id, stored, digest, user.email],
  );
  await markSent(sql, user.id, type);
  const url = new URL(`${ctx.config.publicUrl}/auth/v1/verify`);
  url.searchParams.set("token", hashedToken);
  url.searchParams.set("type", type);
  url.searchParams.set("redirect_to", redirectTo);
  return { code, hashedToken, link: url.toString() };
}

const CODE_MESSAGES: Record<CodeLinkType, { subject: string; intro: string }> = {
  magiclink: { subject: "Your Magic Link", intro: "Follow this link to sign in:" },
  signup: { subject: "Confirm Your Signup", intro: "Follow this link to confirm your e-mail address:" },
  recovery: { subject: "Reset Your Password", intro: "Follow this link to reset your password:" },
  invite: {
    subject: "You have been invited",
    intro: "You have been invited to create an account. Follow this link to accept:",
  },
};

/**
 * Issues a code of `type` and mails it with its link. Throws EmailRateLimited when the project's hourly
 * e-mail budget is spent (the caller's transaction is then undone).
 */
export async function sendCode(
  ctx: AuthCtx,
  sql: Sql,
  user: { id: string; email: string },
  type: CodeLinkType,
  redirectTo: string,
): Promise<void> {
  const over = ctx.limits.sendEmail();
  if (over) throw new EmailRateLimited(over);
  const { code, link } = await issueCode(ctx, sql, user, type, redirectTo);
  const message = CODE_MESSAGES[type];
  const text = `${message.intro}\n${link}\n\nOr enter this code: ${code}\n\n` +
    `Use either, once: using one uses up the other. Both expire in ${LINK_TTL_MIN} minutes.`;
  await sendMail(ctx, sql, { to: user.email, subject: message.subject, text, link });
}

/**
 * Consumes the link token: deletes it whatever its state, and returns its user when it was of `type`,
 * younger than LINK_TTL_MIN and still addressed to the user's current e-mail.
 */
export async function consumeLink(sql: Sql, token: string, type: LinkType | LinkType[]): Promise<string | null> {
  if (!token) return null;
  const types = Array.isArray(type) ? type : [type];
  const { rows } = await sql.query<{ user_id: string; valid: boolean }>(
    `with used as (delete from auth.one_time_tokens where token_hash = $1 returning *)
     select used.user_id::text as user_id,
            (used.token_type = any($2::text[]) and used.created_at > now() - make_interval(mins => $3)
             and used.relates_to = u.email) as valid
       from used join auth.users u on u.id = used.user_id`,
    [await sha256Hex(token), types, LINK_TTL_MIN],
  );
  return rows[0]?.valid ? rows[0].user_id : null;
}

/** A password change or e-mail change makes every outstanding link of the user void. */
export async function voidLinks(sql: Sql, userId: string): Promise<void> {
  await sql.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
}
