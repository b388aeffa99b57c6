// The development mailbox: what the auth service would have e-mailed is stored in local.mailbox (no mail
// leaves the machine) and shown at /_dev/mailbox as a page, or as JSON at /_dev/mailbox/messages.
// Messages carry live sign-in links, so only loopback clients may read them unless
// MAILBOX_ALLOW_REMOTE=1 (for a backend reached through a container's port mapping).
import type { Ctx, Service } from "../http.ts";
import { json } from "../http.ts";
import type { Sql } from "../db.ts";
import { type MailMessage, renderMailboxPage } from "./mailbox-page.ts";
import { isLoopbackAddress, isLoopbackHostname } from "../../functions/_shared/vocabulary/hosts.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  link?: string;
}

/** "Sends" a message: stores it in the mailbox, in the caller's transaction, and logs one line. */
export async function sendMail(ctx: Ctx, sql: Sql, mail: OutgoingMail): Promise<void> {
  await sql.query(`insert into local.mailbox (to_email, subject, body_text, link) values ($1, $2, $3, $4)`, [
    mail.to,
    mail.subject,
    mail.text,
    mail.link ?? null,
  ]);
  ctx.log(`mail to ${mail.to}: ${mail.subject} (read it at ${ctx.config.publicUrl}/_dev/mailbox)`);
}

async function listMessages(sql: Sql, to: string | null): Promise<MailMessage[]> {
  const { rows } = await sql.query<MailMessage & { id: string | number }>(
    `select id::text as id, to_email as "to", subject, body_text as text, link,
            to_char(created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
       from local.mailbox where $1::text is null or lower(to_email) = lower($1::text)
      order by id desc limit 500`,
    [to],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * The Host a loopback client used: a loopback name or the API's own. Any other name is a foreign site
 * whose DNS was pointed at this machine (DNS rebinding), which would read the links as same-origin.
 */
function ownHost(req: Request, publicUrl: string): boolean {
  const host = req.headers.get("host");
  if (!host) return false;
  try {
    const name = new URL(`http://${host}`).hostname;
    return isLoopbackHostname(name) || name === new URL(publicUrl).hostname;
  } catch {
    return false;
  }
}

export function createMailbox(ctx: Ctx): Service {
  const allowRemote = ctx.config.mailboxAllowRemote;
  return async (req, path, info) => {
    if (!allowRemote && (!isLoopbackAddress(info.remoteAddr) || !ownHost(req, ctx.config.publicUrl))) {
      return json({ message: "The development mailbox is only served to this machine" }, 403);
    }
    const url = new URL(req.url);
    if (path === "" || path === "/") {
      if (req.method !== "GET" && req.method !== "HEAD") return json({ message: "Method not allowed" }, 405);
      const page = renderMailboxPage(await listMessages(ctx.db, null));
      return new Response(req.method === "HEAD" ? null : page, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "content-security-policy":
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
          "referrer-policy": "no-referrer",
        },
      });
    }
    if (path === "/messages") {
      if (req.method === "GET") {
        const to = url.searchParams.get("to");
        return json(await listMessages(ctx.db, to), 200, { "cache-control": "no-store" });
      }
      if (req.method === "DELETE") {
        await ctx.db.query(`delete from local.mailbox`);
        return new Response(null, { status: 204 });
      }
      return json({ message: "Method not allowed" }, 405);
    }
    return json({ message: "Not found" }, 404);
  };
}
