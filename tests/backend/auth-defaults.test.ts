// What the auth service answers, through the real supabase-js client, for what a hosted project has off
// until someone turns it on (SAML single sign-on, manual identity linking, Web3 and ID-token sign-in,
// phone codes), with GoTrue's statuses, codes and messages; reauthentication codes mailed at most once a
// minute; the timestamps GoTrue records on a user when an invitation or a confirmation goes out.
import type { MailMessage } from "../../supabase/local/auth/mailbox-page.ts";
import { describe, expect, it } from "vitest";
import { useBackend } from "../support/backend-suite.ts";
import { startBackend } from "../support/backend.ts";
import { anonClient, newUser, serviceClient, uniqueEmail } from "../support/clients.ts";

describe("auth answers for features off by default", () => {
  const b = useBackend(() => startBackend(), 90_000);

  it("refuses an anonymous sign-in with 422 anonymous_provider_disabled, before counting it", async () => {
    const { data, error } = await anonClient(b).auth.signInAnonymously({ options: { data: { a: 1 } } });
    expect(data).toEqual({ user: null, session: null });
    expect(error).toMatchObject({
      status: 422,
      code: "anonymous_provider_disabled",
      message: "Anonymous sign-ins are disabled",
    });
  });

  it("refuses SAML single sign-on with 404 saml_provider_disabled", async () => {
    const { data, error } = await anonClient(b).auth.signInWithSSO({ domain: "example.test" });
    expect(data).toBeNull();
    expect(error).toMatchObject({ status: 404, code: "saml_provider_disabled", message: "SAML 2.0 is disabled" });
  });

  it("refuses linking and unlinking identities after authentication with 404 manual_linking_disabled", async () => {
    const anonymous = await fetch(`${b.url}/auth/v1/user/identities/authorize?provider=google`, {
      headers: { apikey: b.anonKey },
    });
    expect([anonymous.status, (await anonymous.json()).code]).toEqual([401, "no_authorization"]);
    const { client } = await newUser(b, "link");
    const linked = await client.auth.linkIdentity({ provider: "google", options: { skipBrowserRedirect: true } });
    expect(linked.error).toMatchObject({ status: 404, code: "manual_linking_disabled" });
    const { data } = await client.auth.getUserIdentities();
    const unlinked = await client.auth.unlinkIdentity(data!.identities[0]);
    expect(unlinked.error).toMatchObject({ status: 404, code: "manual_linking_disabled" });
  });

  it("refuses Web3 and ID-token sign-in as GoTrue does with the providers off", async () => {
    const token = (grant: string, body: unknown) =>
      fetch(`${b.url}/auth/v1/token?grant_type=${grant}`, {
        method: "POST",
        headers: { apikey: b.anonKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const web3 = await token("web3", { chain: "ethereum", message: "m", signature: "0x00" });
    expect([web3.status, await web3.json()]).toEqual([
      422,
      { code: "web3_provider_disabled", message: "Web3 provider is disabled" },
    ]);
    const google = await anonClient(b).auth.signInWithIdToken({ provider: "google", token: "not-a-jwt" });
    expect(google.error).toMatchObject({
      status: 400,
      code: "provider_disabled",
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
    const custom = await anonClient(b).auth.signInWithIdToken({ provider: "my-idp", token: "not-a-jwt" });
    expect(custom.error).toMatchObject({ status: 400, code: "validation_failed" });
    const missing = await token("id_token", { provider: "google" });
    expect([missing.status, await missing.json()]).toEqual([
      400,
      { error: "invalid request", error_description: "id_token required" },
    ]);
  });

  it("checks a phone code's number, then finds no account for it", async () => {
    const client = anonClient(b);
    const bad = await client.auth.verifyOtp({ phone: "12-not-a-number", token: "123456", type: "sms" });
    expect(bad.error).toMatchObject({ status: 400, code: "validation_failed" });
    expect(bad.error!.message).toBe("Invalid phone number format (E.164 required)");
    const none = await client.auth.verifyOtp({ phone: "+15555550123", token: "123456", type: "sms" });
    expect(none.error).toMatchObject({ status: 403, code: "otp_expired", message: "Token has expired or is invalid" });
  });

  it("mails a reauthentication code at most once a minute", async () => {
    const { client, email } = await newUser(b, "reauth");
    const first = await client.auth.reauthenticate();
    expect(first).toEqual({ data: { user: null, session: null }, error: null });
    const mail = (await (
      await fetch(`${b.url}/_dev/mailbox/messages?to=${encodeURIComponent(email)}`)
    ).json()) as MailMessage[];
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toMatch(/\b\d{6}\b/);
    const { data } = await client.auth.getUser();
    // supabase-js's User type leaves GoTrue's reauthentication_sent_at out.
    const sentAt = (data.user as unknown as { reauthentication_sent_at?: string }).reauthentication_sent_at;
    expect(Date.parse(sentAt!)).not.toBeNaN();
    const second = await client.auth.reauthenticate();
    expect(second.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
  });

  it("records invited_at and confirmation_sent_at when an invitation goes out", async () => {
    const { data, error } = await serviceClient(b).auth.admin.inviteUserByEmail(uniqueEmail("invited"));
    expect(error).toBeNull();
    expect(Date.parse(data.user!.invited_at!)).not.toBeNaN();
    expect(Date.parse(data.user!.confirmation_sent_at!)).not.toBeNaN();
    expect(data.user!.email_confirmed_at).toBeUndefined();
  });
});
