// Changing the e-mail address of an account, through the real supabase-js client on PGlite and
// PostgreSQL, as GoTrue's secure e-mail change does it: `updateUser({ email })` mails the current and the
// new address, the account keeps its address (showing the pending one as new_email) until both have
// confirmed, by link or by code; an address another account holds is refused; the admin API's
// email_change_current and email_change_new links take part in the same two-step change.
import { expect, it } from "vitest";
import { mailTo, codeFor } from "../support/auth-mail.ts";
import { describeOnBackends } from "../support/backend-suite.ts";
import type { Backend } from "../support/backend.ts";
import { anonClient, newUser, type NewUser, PASSWORD, serviceClient, uniqueEmail } from "../support/clients.ts";

const ACCOUNT_URL = "http://localhost:5173/account";
const ACCEPTED = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/** Follows an e-mailed link as a browser would, without following the redirect. */
async function follow(b: Backend, link: URL | string): Promise<string> {
  const url = new URL(link);
  const res = await fetch(`${b.url}/auth/v1/verify?${url.searchParams.toString()}`, { redirect: "manual" });
  expect(res.status).toBe(303);
  return res.headers.get("location")!;
}

/** A new person on `b` who has asked to move to a new address, `next`. */
async function askedToMove(b: Backend, tag: string): Promise<NewUser & { next: string }> {
  const user = await newUser(b, tag);
  const next = uniqueEmail(`${tag}-new`);
  expect((await user.client.auth.updateUser({ email: next })).error).toBeNull();
  return { ...user, next };
}

async function signsIn(b: Backend, email: string): Promise<boolean> {
  const { error } = await anonClient(b).auth.signInWithPassword({ email, password: PASSWORD });
  return error === null;
}

describeOnBackends("e-mail change on $title", { prefix: "pc_auth_email_change", timeout: 90_000 }, (b, { skip }) => {
  it.skipIf(skip)("mails both addresses and changes the address only once both have confirmed", async () => {
    const { client, email, id } = await newUser(b, "mover");
    const next = uniqueEmail("moved");
    const { data, error } = await client.auth.updateUser({ email: next }, { emailRedirectTo: ACCOUNT_URL });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id, email, new_email: next });
    expect(Date.parse(data.user!.email_change_sent_at!)).not.toBeNaN();

    const toCurrent = await codeFor(b, email);
    const toNew = await codeFor(b, next);
    expect([toCurrent.subject, toNew.subject]).toEqual(["Confirm Email Change", "Confirm Email Change"]);
    for (const { link } of [toCurrent, toNew]) {
      expect(link.searchParams.get("type")).toBe("email_change");
      expect(link.searchParams.get("redirect_to")).toBe(ACCOUNT_URL);
    }
    expect(toCurrent.link.searchParams.get("token")).not.toBe(toNew.link.searchParams.get("token"));
    // Pending: the account still signs in with the old address only.
    expect(await signsIn(b, email)).toBe(true);
    expect(await signsIn(b, next)).toBe(false);

    // The first confirmation is acknowledged, nothing more.
    const first = await follow(b, toCurrent.link);
    expect(first).toBe(`${ACCOUNT_URL}#${new URLSearchParams({ message: ACCEPTED, sb: "" }).toString()}`);
    const pending = await client.auth.getUser();
    expect(pending.data.user).toMatchObject({ email, new_email: next });
    // A used link is gone.
    const again = new URL(await follow(b, toCurrent.link));
    expect(new URLSearchParams(again.hash.slice(1)).get("error_code")).toBe("otp_expired");

    // The second, by code with the new address, moves the account and signs in.
    const done = await anonClient(b).auth.verifyOtp({ type: "email_change", email: next, token: toNew.code });
    expect(done.error).toBeNull();
    expect(done.data.session).not.toBeNull();
    expect(done.data.user).toMatchObject({ id, email: next });
    expect(done.data.user!.new_email).toBeUndefined();
    expect(done.data.user!.identities![0]).toMatchObject({ email: next, identity_data: { email: next } });
    expect(await signsIn(b, next)).toBe(true);
    expect(await signsIn(b, email)).toBe(false);
  });

  it.skipIf(skip)(
    "takes the codes only with their own address, once, and answers the first with GoTrue's message",
    async () => {
      const { client, email, next } = await askedToMove(b, "codes");
      const toCurrent = await codeFor(b, email);
      const toNew = await codeFor(b, next);

      // The current address's code with the new address is no code at all.
      const crossed = await anonClient(b).auth.verifyOtp({ type: "email_change", email: next, token: toCurrent.code });
      expect(crossed.error).toMatchObject({
        status: 403,
        code: "otp_expired",
        message: "Token has expired or is invalid",
      });

      const res = await fetch(`${b.url}/auth/v1/verify`, {
        method: "POST",
        headers: { apikey: b.anonKey, "content-type": "application/json" },
        body: JSON.stringify({ type: "email_change", email, token: toCurrent.code }),
      });
      expect([res.status, await res.json()]).toEqual([200, { msg: ACCEPTED, code: "200" }]);
      const reused = await anonClient(b).auth.verifyOtp({ type: "email_change", email, token: toCurrent.code });
      expect(reused.error).toMatchObject({ status: 403, code: "otp_expired" });
      expect((await client.auth.getUser()).data.user).toMatchObject({ email, new_email: next });

      // The link of the other message completes it through the browser redirect, with a session.
      const location = await follow(b, toNew.link);
      const fragment = new URLSearchParams(location.slice(location.indexOf("#") + 1));
      expect(fragment.get("type")).toBe("email_change");
      expect(fragment.get("access_token")).toBeTruthy();
      const { data } = await anonClient(b).auth.getUser(fragment.get("access_token")!);
      expect(data.user).toMatchObject({ email: next });
    },
  );

  it.skipIf(skip)("refuses an address another account holds with email_exists, mailing nothing", async () => {
    const { client, email } = await newUser(b, "clash");
    const { email: taken } = await newUser(b, "holder");
    const clash = await client.auth.updateUser({ email: taken.toUpperCase() });
    expect(clash.error).toMatchObject({ status: 422, code: "email_exists" });
    expect(await mailTo(b, email)).toEqual([]);
    expect((await client.auth.getUser()).data.user!.new_email).toBeUndefined();
  });

  it.skipIf(skip)("refuses a second change within a minute with over_email_send_rate_limit", async () => {
    const { client, email } = await newUser(b, "twice");
    expect((await client.auth.updateUser({ email: uniqueEmail("first") })).error).toBeNull();
    const second = await client.auth.updateUser({ email: uniqueEmail("second"), data: { kept: false } });
    expect(second.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    expect(second.error!.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
    // The refusal undid the whole update.
    expect((await client.auth.getUser()).data.user!.user_metadata.kept).toBeUndefined();
    expect(await mailTo(b, email)).toHaveLength(1);
  });

  it.skipIf(skip)(
    "generates email_change_current and email_change_new links that change the address once both are followed",
    async () => {
      const admin = serviceClient(b);
      const { email, id } = await newUser(b, "admin-move");
      const next = uniqueEmail("admin-moved");
      const current = await admin.auth.admin.generateLink({
        type: "email_change_current",
        email,
        newEmail: next,
        options: { redirectTo: ACCOUNT_URL },
      });
      expect(current.error).toBeNull();
      expect(current.data.user).toMatchObject({ id, email, new_email: next });
      expect(current.data.properties).toMatchObject({
        verification_type: "email_change_current",
        redirect_to: ACCOUNT_URL,
      });
      expect(new URL(current.data.properties!.action_link).searchParams.get("token")).toBe(
        current.data.properties!.hashed_token,
      );
      const fresh = await admin.auth.admin.generateLink({ type: "email_change_new", email, newEmail: next });
      expect(fresh.error).toBeNull();
      expect(await mailTo(b, next)).toEqual([]);

      expect(await follow(b, current.data.properties!.action_link)).toContain("#message=");
      const location = await follow(b, fresh.data.properties!.action_link);
      expect(location).toContain("access_token=");
      const { data } = await admin.auth.admin.getUserById(id);
      expect(data.user).toMatchObject({ email: next });
    },
  );

  it.skipIf(skip)("refuses email change links for an unknown user, a taken address or a malformed one", async () => {
    const admin = serviceClient(b);
    const { email } = await newUser(b, "admin-refused");
    const { email: taken } = await newUser(b, "admin-holder");
    const unknown = await admin.auth.admin.generateLink({
      type: "email_change_new",
      email: uniqueEmail("nobody"),
      newEmail: uniqueEmail("anywhere"),
    });
    expect(unknown.error).toMatchObject({ status: 404, code: "user_not_found" });
    const clash = await admin.auth.admin.generateLink({ type: "email_change_new", email, newEmail: taken });
    expect(clash.error).toMatchObject({ status: 422, code: "email_exists" });
    const malformed = await admin.auth.admin.generateLink({ type: "email_change_current", email, newEmail: "nope" });
    expect(malformed.error).toMatchObject({ status: 400, code: "validation_failed" });
  });
  it.skipIf(skip)(
    "holds a resend of a pending change back for a minute and tells nothing for an address without one",
    async () => {
      const { email, next } = await askedToMove(b, "resend");
      const first = await codeFor(b, next);
      const soon = await anonClient(b).auth.resend({ type: "email_change", email });
      expect(soon.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
      // Without a pending change, or for an unknown address, nothing is sent and nothing is told.
      const { email: settled } = await newUser(b, "settled");
      expect(await anonClient(b).auth.resend({ type: "email_change", email: settled })).toMatchObject({ error: null });
      expect(await mailTo(b, settled)).toEqual([]);
      expect(
        (await anonClient(b).auth.resend({ type: "email_change", email: uniqueEmail("nobody") })).error,
      ).toBeNull();
      expect(first.code).toMatch(/^\d{6}$/);
    },
  );
});
