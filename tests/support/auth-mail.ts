// What the local backend's auth sends and signs, read the way the backend tests check it: the dev
// mailbox's messages to an address, the code and link of the newest one, and a token's claims.
import { expect } from "vitest";
import type { MailMessage } from "../../supabase/local/auth/mailbox-page.ts";
import type { Backend } from "./backend.ts";

/** The messages the backend "sent" to `email`, newest first. */
export async function mailTo(b: Backend, email: string): Promise<MailMessage[]> {
  const res = await fetch(`${b.url}/_dev/mailbox/messages?to=${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as MailMessage[];
}

/** The six-digit code and the link of the newest message to `email`; both must be there. */
export async function codeFor(b: Backend, email: string): Promise<{ code: string; link: URL; subject: string }> {
  const [message] = await mailTo(b, email);
  expect(message).toBeTruthy();
  const code = /code: (\d{6})\b/.exec(message.text)?.[1];
  expect(code).toMatch(/^\d{6}$/);
  expect(message.link).toBeTruthy();
  return { code: code!, link: new URL(message.link!), subject: message.subject };
}

/** The claims of a JWT, unverified. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
}
