// GET /reauthenticate (supabase-js `reauthenticate()`): mails the signed-in person a six-digit code, as
// GoTrue does, at most once a minute and against the project's e-mail budget. GoTrue asks for that code
// (the `nonce` of a password change) only when `[auth.email] secure_password_change` is on; it is off in
// this project's config.toml, and the local backend does not serve it, so the code is mailed and
// recorded as sent (reauthentication_sent_at) but never asked for, which is what GoTrue does with it then.
import { json } from "../http.ts";
import { answer, type Endpoint } from "./context.ts";
import { randomCode, RESEND_AFTER_SEC } from "./email-links.ts";
import { sendMail } from "./mailbox.ts";
import { EmailRateLimited } from "./rate-limits.ts";
import { refuse } from "./responses.ts";
import { authenticate } from "./sessions.ts";

export const reauthenticate: Endpoint = async (actx, req) => {
  const caller = await authenticate(actx, req);
  if (!caller.ok) return answer(caller);
  const { user } = caller.value;
  const email = user.email;
  if (!email) {
    return answer(
      refuse(400, "validation_failed", "Reauthentication requires the user to have an email or a phone number"),
    );
  }
  if (!user.email_confirmed_at) return answer(refuse(422, "email_not_confirmed", "Please verify your email first."));
  return await actx.db.transaction(async (sql) => {
    const { rows } = await sql.query<{ wait: number | null }>(
      `select ceil($2 - extract(epoch from now() - reauthentication_sent_at))::int as wait from auth.users where id = $1`,
      [user.id, RESEND_AFTER_SEC],
    );
    const wait = Number(rows[0]?.wait ?? 0);
    if (wait > 0) {
      return answer(
        refuse(
          429,
          "over_email_send_rate_limit",
          `For security purposes, you can only request this after ${wait} seconds.`,
        ),
      );
    }
    const over = actx.limits.sendEmail();
    if (over) throw new EmailRateLimited(over);
    await sql.query(`update auth.users set reauthentication_sent_at = now() where id = $1`, [user.id]);
    await sendMail(actx, sql, {
      to: email,
      subject: "Confirm reauthentication",
      text: `Enter this code to confirm it is you: ${randomCode()}\n\nIf you did not ask for it, ignore this message.`,
    });
    return json({});
  });
};
