// Multi-factor authentication with TOTP through the real supabase-js client (`auth.mfa`,
// `auth.admin.mfa`) on PGlite and PostgreSQL: enrolment answers a secret, its otpauth:// URI and a QR
// code; a challenge and a code computed here from the secret (RFC 6238) raise the session to aal2 and
// end the user's other aal1 sessions; the assurance level survives a refresh; a wrong code, a verified
// factor removed from an aal1 session, a password change at aal1 and a second factor at aal1 are
// refused as GoTrue refuses them; the admin API lists and deletes factors.
import { createHmac } from "node:crypto";
import { expect, it } from "vitest";
import { claimsOf } from "../support/auth-mail.ts";
import { describeOnBackends } from "../support/backend-suite.ts";
import { anonClient, newUser, PASSWORD, serviceClient } from "../support/clients.ts";
import { claimsFor, mintJwt } from "../support/hostile.ts";

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of text) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The current six-digit code of a base32 TOTP secret (SHA-1, 30 s steps). */
function totp(secret: string, offsetSteps = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offsetSteps));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const at = mac[19] & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

describeOnBackends(
  "TOTP multi-factor authentication on $title",
  { prefix: "pc_auth_mfa", timeout: 90_000 },
  (b, { skip }) => {
    it.skipIf(skip)(
      "enrols a TOTP factor with its secret, otpauth URI and QR code, unverified until a code is given",
      async () => {
        const { client, email } = await newUser(b, "enrol");
        const { data, error } = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "phone app" });
        expect(error).toBeNull();
        expect(data).toMatchObject({ type: "totp", friendly_name: "phone app" });
        expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
        // The issuer is the site URL's host, the account the e-mail address.
        const host = new URL(b.url).host;
        const [label, query] = data!.totp.uri.split("?");
        expect(label).toBe(`otpauth://totp/${encodeURIComponent(host)}:${encodeURIComponent(email)}`);
        expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
          algorithm: "SHA1",
          digits: "6",
          issuer: host,
          period: "30",
          secret: data!.totp.secret,
        });
        expect(data!.totp.qr_code.startsWith("data:image/svg+xml;utf-8,")).toBe(true);
        expect(data!.totp.qr_code).toContain("<svg");
        expect(data!.totp.qr_code).not.toContain("#");

        const factors = await client.auth.mfa.listFactors();
        expect(factors.data!.all).toEqual([expect.objectContaining({ id: data!.id, status: "unverified" })]);
        expect(factors.data!.totp).toEqual([]);
        // GoTrue refuses a second factor of the same friendly name.
        const again = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "phone app" });
        expect(again.error).toMatchObject({ status: 422, code: "mfa_factor_name_conflict" });
        const phone = await client.auth.mfa.enroll({ factorType: "phone", phone: "+15555550100" });
        expect(phone.error).toMatchObject({ status: 422, code: "mfa_phone_enroll_not_enabled" });
      },
    );

    it.skipIf(skip)(
      "raises the session to aal2 with a right code, ends the other aal1 sessions and keeps aal2 on refresh",
      async () => {
        const { client, email } = await newUser(b, "verify");
        const other = anonClient(b);
        const otherSignIn = await other.auth.signInWithPassword({ email, password: PASSWORD });
        expect(otherSignIn.error).toBeNull();
        const { data: enrolled } = await client.auth.mfa.enroll({ factorType: "totp" });
        const factorId = enrolled!.id;

        const { data: challenge, error: challengeError } = await client.auth.mfa.challenge({ factorId });
        expect(challengeError).toBeNull();
        expect(challenge!.expires_at).toBeGreaterThan(Date.now() / 1000 + 250);
        const wrongCode = totp(enrolled!.totp.secret) === "000000" ? "111111" : "000000";
        const wrong = await client.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: wrongCode });
        expect(wrong.error).toMatchObject({
          status: 422,
          code: "mfa_verification_failed",
          message: "Invalid TOTP code entered",
        });

        const { data: verified, error } = await client.auth.mfa.verify({
          factorId,
          challengeId: challenge!.id,
          code: totp(enrolled!.totp.secret),
        });
        expect(error).toBeNull();
        const token = claimsOf(verified!.access_token);
        expect(token.aal).toBe("aal2");
        expect((token.amr as { method: string }[]).map((a) => a.method)).toEqual(["totp", "password"]);
        // A challenge is good for one verification.
        const replay = await client.auth.mfa.verify({
          factorId,
          challengeId: challenge!.id,
          code: totp(enrolled!.totp.secret),
        });
        expect(replay.error).toMatchObject({ status: 422 });

        const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
        expect(aal.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
        const refreshed = await client.auth.refreshSession();
        expect(refreshed.error).toBeNull();
        expect(claimsOf(refreshed.data.session!.access_token)).toMatchObject({ aal: "aal2" });
        // The session that only had the password is ended.
        const res = await fetch(`${b.url}/auth/v1/user`, {
          headers: { apikey: b.anonKey, authorization: `Bearer ${otherSignIn.data.session!.access_token}` },
        });
        expect([res.status, (await res.json()).code]).toEqual([403, "session_not_found"]);
        // A new sign-in reaches aal1 only, and the next level is aal2.
        const fresh = anonClient(b);
        expect((await fresh.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
        expect((await fresh.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
          currentLevel: "aal1",
          nextLevel: "aal2",
        });
      },
    );

    it.skipIf(skip)(
      "refuses at aal1 what GoTrue keeps for aal2: a password change, a new factor, removing a verified one",
      async () => {
        const { client, email } = await newUser(b, "aal1");
        const { data: enrolled } = await client.auth.mfa.enroll({ factorType: "totp" });
        const { error } = await client.auth.mfa.challengeAndVerify({
          factorId: enrolled!.id,
          code: totp(enrolled!.totp.secret),
        });
        expect(error).toBeNull();

        const weak = anonClient(b);
        expect((await weak.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
        const change = await weak.auth.updateUser({ password: "another-horse-43" });
        expect(change.error).toMatchObject({ status: 401, code: "insufficient_aal" });
        const second = await weak.auth.mfa.enroll({ factorType: "totp", friendlyName: "second" });
        expect(second.error).toMatchObject({ status: 403, code: "insufficient_aal" });
        const removal = await weak.auth.mfa.unenroll({ factorId: enrolled!.id });
        expect(removal.error).toMatchObject({ status: 422, code: "insufficient_aal" });

        // From the aal2 session it goes, and that session is back at aal1.
        const removed = await client.auth.mfa.unenroll({ factorId: enrolled!.id });
        expect(removed.error).toBeNull();
        expect(removed.data).toEqual({ id: enrolled!.id });
        const after = await client.auth.refreshSession();
        expect(claimsOf(after.data.session!.access_token).aal).toBe("aal1");
        expect((await client.auth.mfa.listFactors()).data!.all).toEqual([]);
      },
    );

    it.skipIf(skip)(
      "refuses enrolment with a signed token that names no session as a 4xx, not a server error",
      async () => {
        const { id } = await newUser(b, "no-session");
        const token = mintJwt(claimsFor(id), b.jwtSecret);
        const res = await fetch(`${b.url}/auth/v1/factors`, {
          method: "POST",
          headers: { apikey: b.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ factor_type: "totp" }),
        });
        expect({ status: res.status, code: ((await res.json()) as { code?: string }).code }).toEqual({
          status: 403,
          code: "session_not_found",
        });
      },
    );

    it.skipIf(skip)("lets the admin API list and delete a user's factors, and nobody else", async () => {
      const admin = serviceClient(b);
      const { client, id } = await newUser(b, "admin-mfa");
      const { data: enrolled } = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "laptop" });
      const listed = await admin.auth.admin.mfa.listFactors({ userId: id });
      expect(listed.error).toBeNull();
      expect(listed.data!.factors).toEqual([
        expect.objectContaining({
          id: enrolled!.id,
          friendly_name: "laptop",
          factor_type: "totp",
          status: "unverified",
        }),
      ]);
      expect(JSON.stringify(listed.data)).not.toContain(enrolled!.totp.secret);
      const notAdmin = await client.auth.admin.mfa.listFactors({ userId: id });
      expect(notAdmin.error).toMatchObject({ status: 403, code: "not_admin" });
      const unknown = await admin.auth.admin.mfa.deleteFactor({ userId: id, id: crypto.randomUUID() });
      expect(unknown.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
      const deleted = await admin.auth.admin.mfa.deleteFactor({ userId: id, id: enrolled!.id });
      expect(deleted.error).toBeNull();
      expect((await admin.auth.admin.mfa.listFactors({ userId: id })).data!.factors).toEqual([]);
    });
    it.skipIf(skip)("answers code checks beyond 15 a minute from one IP with 429 over_request_rate_limit", async () => {
      const { client } = await newUser(b, "guess");
      const { data: enrolled } = await client.auth.mfa.enroll({ factorType: "totp" });
      const { data: challenge } = await client.auth.mfa.challenge({ factorId: enrolled!.id });
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 20; i++) {
        const { error } = await client.auth.mfa.verify({
          factorId: enrolled!.id,
          challengeId: challenge!.id,
          code: "000001",
        });
        codes.push(error?.code);
      }
      // Earlier tests in this file used some of the same bucket; none gets more than 15 at once.
      expect(codes.filter((c) => c !== "over_request_rate_limit").length).toBeLessThanOrEqual(15);
      expect(codes.at(-1)).toBe("over_request_rate_limit");
    });
  },
);
