// The local auth service through the real supabase-js client (and raw HTTP where the client hides the
// wire): accounts, sessions, refresh-token rotation, sign-out, password change and reset through the
// development mailbox, GoTrue's per-IP rate limits (and no per-account lockout), text Postgres cannot
// store, token claims, CORS and the error format.
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAuthApiError, isAuthWeakPasswordError, type Session, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailMessage } from "../../supabase/local/auth/mailbox-page.ts";
import { mailTo, claimsOf } from "../support/auth-mail.ts";
import { useBackend } from "../support/backend-suite.ts";
import { type Backend, DEFAULT_AUTH_RATE_LIMITS, startBackend } from "../support/backend.ts";
import { anonClient, newUser, PASSWORD, uniqueEmail } from "../support/clients.ts";
import { createDatabase, postgresAvailable } from "../support/postgres.ts";

const SITE_URL = "https://promptcanvas.example";
const APP_RESET_URL = "http://localhost:5173/reset-password";

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** A backend whose public URL is known before it starts, so e-mailed links point at it. */
async function startAuthBackend(opts: { env?: Record<string, string>; databaseUrl?: string } = {}) {
  const port = await freePort();
  return await startBackend({
    databaseUrl: opts.databaseUrl,
    env: {
      API_PORT: String(port),
      API_URL: `http://127.0.0.1:${port}`,
      SITE_URL,
      // Reuse of a superseded refresh token is refused at once (GoTrue allows 10 s by default).
      REFRESH_TOKEN_REUSE_INTERVAL: "0",
      ...opts.env,
    },
  });
}

function api(b: Backend) {
  return (path: string, init: RequestInit & { token?: string } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("apikey", b.anonKey);
    headers.set("authorization", `Bearer ${init.token ?? b.anonKey}`);
    if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json;charset=UTF-8");
    return fetch(`${b.url}${path}`, { ...init, headers });
  };
}

function recordEvents(client: SupabaseClient): string[] {
  const events: string[] = [];
  client.auth.onAuthStateChange((event) => {
    events.push(event);
  });
  return events;
}

function fragmentOf(location: string): URLSearchParams {
  return new URLSearchParams(location.slice(location.indexOf("#") + 1));
}

describe("auth on the embedded database", () => {
  const b = useBackend(() => startAuthBackend());
  const call = api(b);

  describe("sign-up", () => {
    it("confirms a new account at once, signs it in and emits SIGNED_IN", async () => {
      const client = anonClient(b);
      const events = recordEvents(client);
      const email = uniqueEmail("signup");
      const { data, error } = await client.auth.signUp({
        email: email.toUpperCase(),
        password: PASSWORD,
        options: { data: { display_name: "Ada" } },
      });

      expect(error).toBeNull();
      const { session, user } = data;
      expect(session).not.toBeNull();
      expect(session!.token_type).toBe("bearer");
      expect(session!.expires_in).toBe(3600);
      expect(session!.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
      expect(session!.refresh_token).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(events).toContain("SIGNED_IN");
      expect(user).toMatchObject({
        aud: "authenticated",
        role: "authenticated",
        email,
        phone: "",
        app_metadata: { provider: "email", providers: ["email"] },
        user_metadata: { display_name: "Ada", email, email_verified: true, phone_verified: false, sub: user!.id },
        is_anonymous: false,
      });
      expect(user!.id).toMatch(/^[0-9a-f-]{36}$/);
      for (const field of ["email_confirmed_at", "confirmed_at", "last_sign_in_at", "created_at", "updated_at"]) {
        expect(Date.parse((user as unknown as Record<string, string>)[field])).not.toBeNaN();
      }
      expect(user!.identities).toHaveLength(1);
      expect(user!.identities![0]).toMatchObject({
        id: user!.id,
        user_id: user!.id,
        provider: "email",
        email,
        identity_data: { email, email_verified: true, phone_verified: false, sub: user!.id },
      });
    });

    it("refuses a second account for the same address, whatever its case", async () => {
      const { email } = await newUser(b, "dup");
      const { data, error } = await anonClient(b).auth.signUp({ email: email.toUpperCase(), password: PASSWORD });
      expect(data.session).toBeNull();
      expect(isAuthApiError(error)).toBe(true);
      expect(error).toMatchObject({ status: 422, code: "user_already_exists", message: "User already registered" });
    });

    it("refuses a short password with AuthWeakPasswordError and its reasons", async () => {
      const { error } = await anonClient(b).auth.signUp({ email: uniqueEmail("weak"), password: "short" });
      expect(isAuthWeakPasswordError(error)).toBe(true);
      expect(error).toMatchObject({ status: 422, code: "weak_password" });
      expect(error!.message).toContain("at least 8 characters");
      expect((error as unknown as { reasons: string[] }).reasons).toEqual(["length"]);
    });

    it("takes the project's minimum from config.toml, counted in bytes of UTF-8 as GoTrue counts", async () => {
      const seven = await anonClient(b).auth.signUp({ email: uniqueEmail("seven"), password: "horse42" });
      expect(isAuthWeakPasswordError(seven.error)).toBe(true);
      expect(seven.error!.message).toBe("Password should be at least 8 characters.");
      expect((await anonClient(b).auth.signUp({ email: uniqueEmail("eight"), password: "horse-42" })).error).toBeNull();
      // Four characters, eight bytes: GoTrue takes it (the app's forms, counting characters, do not).
      expect((await anonClient(b).auth.signUp({ email: uniqueEmail("bytes"), password: "éééé" })).error).toBeNull();
    });

    it("checks the password before the address, in GoTrue's sign-up order", async () => {
      const signUpRaw = (body: unknown) => call("/auth/v1/signup", { method: "POST", body: JSON.stringify(body) });
      const weak = await signUpRaw({ email: "not-an-address", password: "short" });
      expect([weak.status, (await weak.json()).code]).toEqual([422, "weak_password"]);
      const none = await signUpRaw({ email: "not-an-address" });
      expect([none.status, await none.json()]).toEqual([
        400,
        expect.objectContaining({ code: "validation_failed", message: "Signup requires a valid password" }),
      ]);
      const long = await signUpRaw({ email: uniqueEmail("long"), password: "x".repeat(73) });
      expect([long.status, await long.json()]).toEqual([
        400,
        expect.objectContaining({
          code: "validation_failed",
          message: "Password cannot be longer than 72 characters",
        }),
      ]);
      const both = await signUpRaw({ email: uniqueEmail("both"), phone: "+15555550123", password: PASSWORD });
      expect(both.status).toBe(400);
      const phone = await signUpRaw({ phone: "+15555550123", password: PASSWORD });
      expect([phone.status, (await phone.json()).code]).toEqual([400, "phone_provider_disabled"]);
    });

    it("refuses an address that is not one with validation_failed", async () => {
      const { error } = await anonClient(b).auth.signUp({ email: "not-an-address", password: PASSWORD });
      expect(error).toMatchObject({ status: 400, code: "validation_failed" });
    });
  });

  describe("sign-in and the current user", () => {
    it("signs in with the right password and refuses a wrong one or an unknown address alike", async () => {
      const { email, user } = await newUser(b, "signin");
      const client = anonClient(b);
      const events = recordEvents(client);

      const wrong = await client.auth.signInWithPassword({ email, password: "wrong-horse-42" });
      expect(wrong.error).toMatchObject({
        status: 400,
        code: "invalid_credentials",
        message: "Invalid login credentials",
      });
      const unknown = await client.auth.signInWithPassword({ email: uniqueEmail("nobody"), password: PASSWORD });
      expect(unknown.error).toMatchObject({
        status: 400,
        code: "invalid_credentials",
        message: "Invalid login credentials",
      });

      const good = await client.auth.signInWithPassword({ email, password: PASSWORD });
      expect(good.error).toBeNull();
      expect(good.data.user!.id).toBe(user.id);
      expect(events).toContain("SIGNED_IN");

      const me = await client.auth.getUser();
      expect(me.error).toBeNull();
      expect(me.data.user).toMatchObject({ id: user.id, email, app_metadata: { provider: "email" } });
    });

    it("issues GoTrue-shaped HS256 access tokens signed with the backend's secret", async () => {
      const { session, user, email } = await newUser(b, "claims");
      const [head, body, sig] = session.access_token.split(".");
      const secret = readFileSync(join(b.dataDir, "jwt-secret"), "utf8").trim();
      expect(createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url")).toBe(sig);
      expect(JSON.parse(Buffer.from(head, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" });

      const claims = claimsOf(session.access_token);
      expect(claims).toMatchObject({
        iss: `${b.url}/auth/v1`,
        sub: user.id,
        aud: "authenticated",
        email,
        phone: "",
        app_metadata: { provider: "email", providers: ["email"] },
        user_metadata: { email, sub: user.id },
        role: "authenticated",
        aal: "aal1",
        is_anonymous: false,
      });
      expect(claims.exp).toBe(session.expires_at);
      expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
      expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(claims.amr).toEqual([{ method: "password", timestamp: expect.any(Number) }]);
    });

    it("answers /user without a bearer token with 401 and with a forged token with 403", async () => {
      const missing = await fetch(`${b.url}/auth/v1/user`, { headers: { apikey: b.anonKey } });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ code: "no_authorization" });
      const { session } = await newUser(b, "forged");
      const forged = session.access_token.slice(0, -4) + "AAAA";
      const res = await call("/auth/v1/user", { token: forged });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: "bad_jwt" });
    });
  });

  describe("refresh tokens", () => {
    it("rotates the refresh token on each refresh and emits TOKEN_REFRESHED", async () => {
      const { client, session } = await newUser(b, "refresh");
      const events = recordEvents(client);
      const { data, error } = await client.auth.refreshSession();
      expect(error).toBeNull();
      expect(data.session!.refresh_token).not.toBe(session.refresh_token);
      expect(data.session!.expires_at).toBeGreaterThanOrEqual(session.expires_at!);
      expect(claimsOf(data.session!.access_token).session_id).toBe(claimsOf(session.access_token).session_id);
      expect(events).toContain("TOKEN_REFRESHED");
    });

    it("refuses a superseded refresh token with refresh_token_already_used and revokes the session", async () => {
      const { session } = await newUser(b, "reuse");
      const client = anonClient(b);
      const first = await client.auth.refreshSession({ refresh_token: session.refresh_token });
      const second = await client.auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
      expect(second.error).toBeNull();

      const replay = await anonClient(b).auth.refreshSession({ refresh_token: session.refresh_token });
      expect(replay.error).toMatchObject({
        status: 400,
        code: "refresh_token_already_used",
        message: "Invalid Refresh Token: Already Used",
      });
      // The replay suggests a stolen token, so even the newest token of that session stops working.
      const newest = await anonClient(b).auth.refreshSession({ refresh_token: second.data.session!.refresh_token });
      expect(newest.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
      // The session is over: endpoints that check it refuse its access tokens, as GoTrue answers.
      const token = second.data.session!.access_token;
      const me = await call("/auth/v1/user", { token });
      expect(me.status).toBe(403);
      expect(await me.json()).toMatchObject({ code: "session_not_found" });
      const out = await call("/auth/v1/logout", { method: "POST", token });
      expect(out.status).toBe(403);
      expect(await out.json()).toMatchObject({ code: "session_not_found" });
    });

    it("refuses the live token's parent once the reuse interval (0 s here) has passed", async () => {
      const { session } = await newUser(b, "lost");
      const first = await anonClient(b).auth.refreshSession({ refresh_token: session.refresh_token });
      expect(first.error).toBeNull();
      const again = await anonClient(b).auth.refreshSession({ refresh_token: session.refresh_token });
      expect(again.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
      const live = await anonClient(b).auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
      expect(live.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
    });

    it("refuses an unknown refresh token with refresh_token_not_found", async () => {
      const { error } = await anonClient(b).auth.refreshSession({ refresh_token: "no-such-token-anywhere" });
      expect(error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
    });
  });

  describe("sign-out", () => {
    it("ends every session: refresh tokens stop working and other clients are signed out by /user", async () => {
      const { client: a, email, session: sessionA } = await newUser(b, "signout");
      const other = anonClient(b);
      const otherEvents = recordEvents(other);
      const signIn = await other.auth.signInWithPassword({ email, password: PASSWORD });
      const sessionB = signIn.data.session as Session;

      expect((await a.auth.signOut()).error).toBeNull();

      const refreshA = await anonClient(b).auth.refreshSession({ refresh_token: sessionA.refresh_token });
      expect(refreshA.error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
      const raw = await call("/auth/v1/user", { token: sessionB.access_token });
      expect(raw.status).toBe(403);
      expect(await raw.json()).toMatchObject({ code: "session_not_found" });

      const me = await other.auth.getUser();
      expect(me.error?.name).toBe("AuthSessionMissingError");
      expect(otherEvents).toContain("SIGNED_OUT");
      expect((await other.auth.getSession()).data.session).toBeNull();
    });

    it("ends only the current session with scope local", async () => {
      const { client: a, email } = await newUser(b, "local");
      const other = anonClient(b);
      await other.auth.signInWithPassword({ email, password: PASSWORD });
      expect((await a.auth.signOut({ scope: "local" })).error).toBeNull();
      const me = await other.auth.getUser();
      expect(me.error).toBeNull();
      expect(me.data.user!.email).toBe(email);
    });

    it("answers 204 with no body", async () => {
      const { session } = await newUser(b, "logout204");
      const res = await call("/auth/v1/logout?scope=global", { method: "POST", token: session.access_token });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
    });
  });

  describe("password change", () => {
    it("changes the password, emits USER_UPDATED and signs out the other sessions", async () => {
      const { client, email } = await newUser(b, "change");
      const events = recordEvents(client);
      const other = anonClient(b);
      const otherSession = (await other.auth.signInWithPassword({ email, password: PASSWORD })).data.session!;

      const same = await client.auth.updateUser({ password: PASSWORD });
      expect(same.error).toMatchObject({
        status: 422,
        code: "same_password",
        message: "New password should be different from the old password.",
      });
      const weak = await client.auth.updateUser({ password: "1234" });
      expect(isAuthWeakPasswordError(weak.error)).toBe(true);

      const updated = await client.auth.updateUser({ password: "brand-new-horse-7", data: { display_name: "Bo" } });
      expect(updated.error).toBeNull();
      expect(updated.data.user!.user_metadata.display_name).toBe("Bo");
      expect(events).toContain("USER_UPDATED");

      const old = await anonClient(b).auth.signInWithPassword({ email, password: PASSWORD });
      expect(old.error).toMatchObject({ code: "invalid_credentials" });
      const fresh = await anonClient(b).auth.signInWithPassword({ email, password: "brand-new-horse-7" });
      expect(fresh.error).toBeNull();
      const stale = await anonClient(b).auth.refreshSession({ refresh_token: otherSession.refresh_token });
      expect(stale.error).toMatchObject({ code: "refresh_token_not_found" });
      expect((await client.auth.getUser()).error).toBeNull();
    });

    it("removes user_metadata keys given as null and refuses app_metadata changes", async () => {
      const { client } = await newUser(b, "meta", { display_name: "Cy", theme: "dark" });
      const { data } = await client.auth.updateUser({ data: { theme: null } });
      expect(data.user!.user_metadata).toMatchObject({ display_name: "Cy" });
      expect(data.user!.user_metadata).not.toHaveProperty("theme");
      const session = (await client.auth.getSession()).data.session!;
      const res = await call("/auth/v1/user", {
        method: "PUT",
        token: session.access_token,
        body: JSON.stringify({ app_metadata: { role: "admin" } }),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: "not_admin" });
    });

    it("checks a new address before a new password, in GoTrue's user-update order", async () => {
      const { session } = await newUser(b, "order");
      const res = await call("/auth/v1/user", {
        method: "PUT",
        token: session.access_token,
        body: JSON.stringify({ email: "not-an-address", password: "1" }),
      });
      expect([res.status, await res.json()]).toEqual([
        400,
        expect.objectContaining({
          code: "validation_failed",
          message: "Unable to validate email address: invalid format",
        }),
      ]);
    });
  });

  describe("password reset through the mailbox", () => {
    it("mails a single-use link that signs the person in for choosing a new password", async () => {
      const { email } = await newUser(b, "reset");
      const requester = anonClient(b);
      const sent = await requester.auth.resetPasswordForEmail(email, { redirectTo: APP_RESET_URL });
      expect(sent).toEqual({ data: {}, error: null });

      const [message] = await mailTo(b, email);
      expect(message).toMatchObject({ to: email, subject: "Reset Your Password" });
      expect(message.text).toContain(message.link);
      const link = new URL(message.link!);
      expect(link.origin + link.pathname).toBe(`${b.url}/auth/v1/verify`);
      expect(link.searchParams.get("type")).toBe("recovery");
      expect(link.searchParams.get("redirect_to")).toBe(APP_RESET_URL);

      const visit = await fetch(link, { redirect: "manual" });
      expect(visit.status).toBe(303);
      const location = visit.headers.get("location")!;
      expect(location.startsWith(`${APP_RESET_URL}#`)).toBe(true);
      const fragment = fragmentOf(location);
      expect([...fragment.keys()]).toEqual([
        "access_token",
        "expires_at",
        "expires_in",
        "refresh_token",
        "sb",
        "token_type",
        "type",
      ]);
      expect(fragment.get("expires_in")).toBe("3600");
      expect(fragment.get("token_type")).toBe("bearer");
      expect(fragment.get("type")).toBe("recovery");

      const page = anonClient(b);
      const restored = await page.auth.setSession({
        access_token: fragment.get("access_token")!,
        refresh_token: fragment.get("refresh_token")!,
      });
      expect(restored.error).toBeNull();
      expect(restored.data.user!.email).toBe(email);
      expect(restored.data.user!.recovery_sent_at).toBeTruthy();
      expect((await page.auth.updateUser({ password: "reset-horse-99" })).error).toBeNull();

      expect((await anonClient(b).auth.signInWithPassword({ email, password: "reset-horse-99" })).error).toBeNull();
      expect((await anonClient(b).auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({
        code: "invalid_credentials",
      });

      const second = await fetch(link, { redirect: "manual" });
      expect(second.status).toBe(303);
      const failed = second.headers.get("location")!;
      expect(failed.startsWith(`${APP_RESET_URL}#`)).toBe(true);
      expect(Object.fromEntries(fragmentOf(failed))).toEqual({
        error: "access_denied",
        error_code: "otp_expired",
        error_description: "Email link is invalid or has expired",
        sb: "",
      });
    });

    it("answers {} for an unknown address without mailing anything", async () => {
      const email = uniqueEmail("ghost");
      const res = await call("/auth/v1/recover", { method: "POST", body: JSON.stringify({ email }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect(await mailTo(b, email)).toEqual([]);
    });

    it("sends browsers only to the site or a loopback origin", async () => {
      const { email } = await newUser(b, "redirect");
      await anonClient(b).auth.resetPasswordForEmail(email, { redirectTo: "https://evil.example/steal" });
      const [message] = await mailTo(b, email);
      expect(new URL(message.link!).searchParams.get("redirect_to")).toBe(SITE_URL);

      const tampered = new URL(message.link!);
      tampered.searchParams.set("redirect_to", "https://evil.example/steal");
      const visit = await fetch(tampered, { redirect: "manual" });
      expect(visit.status).toBe(303);
      expect(visit.headers.get("location")!.startsWith(`${SITE_URL}#access_token=`)).toBe(true);
    });

    it("exchanges a link token for a session with verifyOtp, once", async () => {
      const { email } = await newUser(b, "otp");
      await anonClient(b).auth.resetPasswordForEmail(email);
      const token = new URL((await mailTo(b, email))[0].link!).searchParams.get("token")!;
      const client = anonClient(b);
      const events = recordEvents(client);
      const { data, error } = await client.auth.verifyOtp({ token_hash: token, type: "recovery" });
      expect(error).toBeNull();
      expect(data.user!.email).toBe(email);
      expect(events).toContain("PASSWORD_RECOVERY");
      const again = await anonClient(b).auth.verifyOtp({ token_hash: token, type: "recovery" });
      expect(again.error).toMatchObject({ status: 403, code: "otp_expired" });
    });
  });

  describe("no per-account lockout", () => {
    it("signs the owner in with the right password after many wrong ones from someone else", async () => {
      const { email } = await newUser(b, "guess");
      for (let i = 0; i < 12; i++) {
        const res = await call("/auth/v1/token?grant_type=password", {
          method: "POST",
          body: JSON.stringify({ email, password: `wrong-guess-${i}` }),
        });
        expect(res.status).toBe(400);
        expect((await res.json()).code).toBe("invalid_credentials");
      }
      const owner = await anonClient(b).auth.signInWithPassword({ email, password: PASSWORD });
      expect(owner.error).toBeNull();
      expect(owner.data.session).not.toBeNull();
    });
  });

  describe("text Postgres cannot store, and bounded bodies", () => {
    const signUpRaw = (body: unknown) =>
      call("/auth/v1/signup", { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
    const expectValidationFailed = async (res: Response, mentions: RegExp) => {
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("validation_failed");
      expect(body.message).toMatch(mentions);
    };

    it("refuses sign-up metadata holding a NUL or a lone surrogate, in values and keys, with 400", async () => {
      for (const data of [
        { name: "Ada\u0000" },
        { name: "\ud800" },
        { "bad\udfff": 1 },
        { list: [{ deep: "x\u0000" }] },
      ]) {
        const email = uniqueEmail("nul-meta");
        await expectValidationFailed(await signUpRaw({ email, password: PASSWORD, data }), /user metadata/);
        // Nothing was created: the address is still free.
        const ok = await anonClient(b).auth.signUp({ email, password: PASSWORD });
        expect(ok.error).toBeNull();
      }
      const viaClient = await anonClient(b).auth.signUp({
        email: uniqueEmail("nul-client"),
        password: PASSWORD,
        options: { data: { name: "a\u0000b" } },
      });
      expect(viaClient.error).toMatchObject({ status: 400, code: "validation_failed" });
    });

    it("refuses a NUL or lone surrogate in the e-mail address or password", async () => {
      await expectValidationFailed(
        await signUpRaw({ email: `${uniqueEmail("x")}\u0000`, password: PASSWORD }),
        /email/,
      );
      await expectValidationFailed(
        await signUpRaw({ email: uniqueEmail("x"), password: "long-enough\ud834" }),
        /password/,
      );
      const res = await call("/auth/v1/token?grant_type=password", {
        method: "POST",
        body: JSON.stringify({ email: "a\u0000@example.com", password: PASSWORD }),
      });
      await expectValidationFailed(res, /email/);
    });

    it("refuses such text in PUT /user metadata, leaving the account as it was", async () => {
      const { session } = await newUser(b, "nul-update", { kept: "yes" });
      const res = await call("/auth/v1/user", {
        method: "PUT",
        token: session.access_token,
        body: JSON.stringify({ data: { name: "x\u0000" }, password: "another-pass-99" }),
      });
      await expectValidationFailed(res, /user metadata/);
      const me = await (await call("/auth/v1/user", { token: session.access_token })).json();
      expect(me.user_metadata.kept).toBe("yes");
      expect(me.user_metadata.name).toBeUndefined();
    });

    it("refuses a body nested deeper than the JSON limit before parsing it, and oversized metadata", async () => {
      const deep = `{"email":"${uniqueEmail("deep")}","password":"${PASSWORD}","data":${"[".repeat(5000)}${"]".repeat(5000)}}`;
      await expectValidationFailed(await signUpRaw(deep), /nest/);
      const big = { email: uniqueEmail("big"), password: PASSWORD, data: { blob: "x".repeat(20_000) } };
      await expectValidationFailed(await signUpRaw(big), /metadata/i);
      const { session } = await newUser(b, "big-update");
      const res = await call("/auth/v1/user", {
        method: "PUT",
        token: session.access_token,
        body: JSON.stringify({ data: { blob: "y".repeat(20_000) } }),
      });
      await expectValidationFailed(res, /metadata/i);
    });
  });

  describe("wire details", () => {
    it("answers the CORS preflight of /token allowing authorization and exposing the API version", async () => {
      const res = await fetch(`${b.url}/auth/v1/token?grant_type=password`, {
        method: "OPTIONS",
        headers: {
          origin: "http://localhost:5173",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,apikey,content-type,x-client-info,x-supabase-api-version",
        },
      });
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      expect(res.headers.get("access-control-allow-headers")!.toLowerCase()).toContain("authorization");
      expect(res.headers.get("access-control-allow-methods")).toContain("POST");
      expect(res.headers.get("access-control-expose-headers")!.toLowerCase()).toContain("x-supabase-api-version");
    });

    it("sends X-Supabase-Api-Version with successes and errors alike", async () => {
      for (const res of [
        await call("/auth/v1/settings"),
        await call("/auth/v1/token?grant_type=password", { method: "POST", body: "{}" }),
        await call("/auth/v1/nowhere"),
      ]) {
        expect(res.headers.get("x-supabase-api-version")).toBe("2024-01-01");
      }
    });

    it("answers malformed, oversized and unsupported requests with 4xx codes, never 500", async () => {
      const bad = await call("/auth/v1/signup", { method: "POST", body: '{"email":' });
      expect(bad.status).toBe(400);
      expect((await bad.json()).code).toBe("bad_json");
      const notObject = await call("/auth/v1/token?grant_type=password", { method: "POST", body: "[1,2]" });
      expect(notObject.status).toBe(400);
      expect((await notObject.json()).code).toBe("bad_json");
      const wrongType = await call("/auth/v1/signup", {
        method: "POST",
        body: JSON.stringify({ email: 42, password: PASSWORD }),
      });
      expect(wrongType.status).toBe(400);
      const huge = await call("/auth/v1/signup", {
        method: "POST",
        body: JSON.stringify({ email: uniqueEmail("huge"), password: PASSWORD, data: { blob: "x".repeat(1_100_000) } }),
      });
      expect(huge.status).toBe(413);
      const grant = await call("/auth/v1/token?grant_type=magic", { method: "POST", body: "{}" });
      expect(grant.status).toBe(400);
      const method = await call("/auth/v1/signup");
      expect(method.status).toBe(405);
      const verify = await call("/auth/v1/verify?type=recovery");
      expect(verify.status).toBe(400);
      expect((await verify.json()).code).toBe("validation_failed");
    });

    it("publishes GoTrue's settings with e-mail sign-up auto-confirmed and no external providers", async () => {
      const settings = await (await call("/auth/v1/settings")).json();
      expect(settings).toMatchObject({ disable_signup: false, mailer_autoconfirm: true, saml_enabled: false });
      const enabled = Object.entries(settings.external)
        .filter(([, on]) => on)
        .map(([name]) => name);
      expect(enabled).toEqual(["email"]);
      expect(await (await call("/auth/v1/health")).json()).toMatchObject({ name: "GoTrue" });
    });
  });

  describe("development mailbox", () => {
    it("lists messages newest first as JSON, filters by recipient, and clears", async () => {
      const { email } = await newUser(b, "mbox");
      await anonClient(b).auth.resetPasswordForEmail(email);
      await call("/auth/v1/recover", { method: "POST", body: JSON.stringify({ email }) });
      const mine = await mailTo(b, email);
      // The second request within a minute is not mailed again.
      expect(mine).toHaveLength(1);
      expect(Object.keys(mine[0]).sort()).toEqual(["created_at", "id", "link", "subject", "text", "to"]);

      const all = (await (await fetch(`${b.url}/_dev/mailbox/messages`)).json()) as MailMessage[];
      expect(all.length).toBeGreaterThanOrEqual(1);
      expect(all.map((m) => m.id)).toEqual([...all.map((m) => m.id)].sort((x, y) => y - x));

      const cleared = await fetch(`${b.url}/_dev/mailbox/messages`, { method: "DELETE" });
      expect(cleared.status).toBe(204);
      expect(await (await fetch(`${b.url}/_dev/mailbox/messages`)).json()).toEqual([]);
    });

    it("grants no other web origin CORS access to the messages and their live sign-in links", async () => {
      const origin = "https://attacker.example";
      for (const path of ["/_dev/mailbox/messages", "/_dev/mailbox"]) {
        const read = await fetch(`${b.url}${path}`, { headers: { origin } });
        expect(read.status).toBe(200);
        await read.body?.cancel();
        expect(read.headers.get("access-control-allow-origin"), path).toBeNull();
        const preflight = await fetch(`${b.url}${path}`, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "DELETE" },
        });
        await preflight.body?.cancel();
        expect(preflight.headers.get("access-control-allow-origin"), path).toBeNull();
        expect(preflight.headers.get("access-control-allow-methods"), path).toBeNull();
      }
      // A foreign name pointed at this machine (DNS rebinding) would make the page same-origin.
      const rebound = await new Promise<number>((resolve, reject) => {
        const u = new URL(`${b.url}/_dev/mailbox/messages`);
        httpRequest(
          { host: u.hostname, port: u.port, path: u.pathname, headers: { host: `attacker.example:${u.port}` } },
          (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          },
        )
          .on("error", reject)
          .end();
      });
      expect(rebound).toBe(403);
      // The API itself still answers browsers on any origin.
      const api = await fetch(`${b.url}/auth/v1/settings`, { headers: { origin, apikey: b.anonKey } });
      await api.body?.cancel();
      expect(api.headers.get("access-control-allow-origin")).toBe(origin);
    });

    it("shows an accessible page with escaped content and followable links", async () => {
      const { email } = await newUser(b, "o'neil&co");
      await anonClient(b).auth.resetPasswordForEmail(email, { redirectTo: APP_RESET_URL });
      const res = await fetch(`${b.url}/_dev/mailbox`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      const html = await res.text();
      expect(html).toMatch(/<html lang="en">/);
      expect(html).toMatch(/<title>Mailbox/);
      expect(html).toMatch(/<h1>Mailbox<\/h1>/);
      expect(html).toContain("<h2");
      expect(html).not.toContain("o'neil&co");
      expect(html).toContain("o&#39;neil&amp;co");
      const link = (await mailTo(b, email))[0].link!;
      expect(html).toContain(`href="${link.replaceAll("&", "&amp;")}"`);
    });
  });
});

/** POSTs JSON to the backend from the local address `ip` (any 127.x.y.z reaches it on Linux). */
function postFrom(
  b: Backend,
  ip: string,
  path: string,
  body: unknown,
): Promise<{
  status: number;
  json: Record<string, unknown> & { code?: string; access_token?: string };
  retryAfter: string | undefined;
}> {
  const url = new URL(path, b.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: "POST",
        localAddress: ip,
        headers: { apikey: b.anonKey, authorization: `Bearer ${b.anonKey}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            json: text ? JSON.parse(text) : null,
            retryAfter: res.headers["retry-after"] as string | undefined,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("auth with the hosted rate limits (supabase/config.toml's [auth.rate_limit])", () => {
  const b = useBackend(() => startAuthBackend({ env: DEFAULT_AUTH_RATE_LIMITS }));

  it("lets one IP make 30 sign-up and sign-in requests, then answers 429 over_request_rate_limit", async () => {
    const ip = "127.0.0.11";
    // Refused requests count too, as in GoTrue (the limit is applied before the request is read).
    for (let i = 0; i < 30; i++) {
      const res = await postFrom(b, ip, "/auth/v1/signup", { email: uniqueEmail("flood"), password: "short" });
      expect(res.status).toBe(422);
    }
    const email = uniqueEmail("flood-real");
    const blocked = await postFrom(b, ip, "/auth/v1/signup", { email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual({ code: "over_request_rate_limit", message: "Request rate limit reached" });
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    const signIn = await postFrom(b, ip, "/auth/v1/token?grant_type=password", { email, password: PASSWORD });
    expect(signIn.status).toBe(429);

    // Another address is not affected, and the account the flood asked for was never made.
    const other = await postFrom(b, "127.0.0.12", "/auth/v1/token?grant_type=password", { email, password: PASSWORD });
    expect(other.status).toBe(400);
    expect(other.json.code).toBe("invalid_credentials");
  });

  it("cannot lock a person out: wrong passwords from one IP leave the owner's sign-in from another working", async () => {
    const owner = "127.0.0.13";
    const attacker = "127.0.0.14";
    const email = uniqueEmail("victim");
    expect((await postFrom(b, owner, "/auth/v1/signup", { email, password: PASSWORD })).status).toBe(200);
    // The limit is 30 per 5 minutes, refilled as time passes (one every 10 s): on a slow machine the
    // 31st guess may find a refilled slot, so the guesses go on until the first refusal, which must come
    // after 30 at the earliest and before 30 plus what the elapsed time refilled.
    const started = Date.now();
    let firstRefused = 0;
    for (let i = 1; i <= 60 && !firstRefused; i++) {
      const res = await postFrom(b, attacker, "/auth/v1/token?grant_type=password", {
        email,
        password: `guess-${i}-xx`,
      });
      if (res.status === 429) firstRefused = i;
      else expect(res.json.code).toBe("invalid_credentials");
    }
    expect(firstRefused).toBeGreaterThan(30);
    expect(firstRefused).toBeLessThanOrEqual(31 + Math.ceil((Date.now() - started) / 10_000));
    const signIn = await postFrom(b, owner, "/auth/v1/token?grant_type=password", { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.json.access_token).toBeTruthy();
  });

  it("sends at most 2 e-mails an hour over the whole project, then answers 429 over_email_send_rate_limit", async () => {
    const ip = "127.0.0.15";
    const emails = [uniqueEmail("mail-a"), uniqueEmail("mail-b"), uniqueEmail("mail-c")];
    for (const email of emails) {
      expect((await postFrom(b, ip, "/auth/v1/signup", { email, password: PASSWORD })).status).toBe(200);
    }
    expect((await postFrom(b, ip, "/auth/v1/recover", { email: emails[0] })).status).toBe(200);
    expect((await postFrom(b, ip, "/auth/v1/recover", { email: emails[1] })).status).toBe(200);
    const third = await postFrom(b, ip, "/auth/v1/recover", { email: emails[2] });
    expect(third.status).toBe(429);
    expect(third.json.code).toBe("over_email_send_rate_limit");
    expect(await mailTo(b, emails[2])).toEqual([]);
  });

  it("limits link verifications to 30 per IP", async () => {
    const ip = "127.0.0.16";
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await postFrom(b, ip, "/auth/v1/verify", { type: "recovery", token_hash: `nope-${i}` })).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 403)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe("auth with no minimum_password_length in config.toml", () => {
  let b: Backend;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pc-auth-config-"));
    writeFileSync(join(dir, "config.toml"), "[auth]\nenabled = true\n");
    b = await startAuthBackend({ env: { SUPABASE_CONFIG: join(dir, "config.toml") } });
  });
  afterAll(async () => {
    await b?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("takes GoTrue's default minimum of 6", async () => {
    expect((await anonClient(b).auth.signUp({ email: uniqueEmail("six"), password: "horse4" })).error).toBeNull();
    const five = await anonClient(b).auth.signUp({ email: uniqueEmail("five"), password: "hors4" });
    expect(isAuthWeakPasswordError(five.error)).toBe(true);
    expect(five.error!.message).toBe("Password should be at least 6 characters.");
  });
});

describe("refresh-token reuse within GoTrue's interval", () => {
  const INTERVAL_SEC = 2;
  const b = useBackend(() => startAuthBackend({ env: { REFRESH_TOKEN_REUSE_INTERVAL: String(INTERVAL_SEC) } }));
  const call = api(b);

  it("answers a just-rotated token with the session's current token, not a new branch", async () => {
    const { session } = await newUser(b, "within");
    const t1 = await anonClient(b).auth.refreshSession({ refresh_token: session.refresh_token });
    const t2 = await anonClient(b).auth.refreshSession({ refresh_token: t1.data.session!.refresh_token });
    expect(t2.error).toBeNull();
    // Both earlier tokens lead to the live one (t2), each with a fresh access token of the same session.
    for (const old of [session.refresh_token, t1.data.session!.refresh_token]) {
      const again = await anonClient(b).auth.refreshSession({ refresh_token: old });
      expect(again.error).toBeNull();
      expect(again.data.session!.refresh_token).toBe(t2.data.session!.refresh_token);
      expect(claimsOf(again.data.session!.access_token).session_id).toBe(claimsOf(session.access_token).session_id);
    }
    // The live token is still the live one and rotates normally.
    const t3 = await anonClient(b).auth.refreshSession({ refresh_token: t2.data.session!.refresh_token });
    expect(t3.error).toBeNull();
    expect(t3.data.session!.refresh_token).not.toBe(t2.data.session!.refresh_token);
  });

  it("ends the whole session when a rotated token comes back after the interval", async () => {
    const { session } = await newUser(b, "after");
    const t1 = await anonClient(b).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(t1.error).toBeNull();
    await new Promise((r) => setTimeout(r, INTERVAL_SEC * 1000 + 300));
    const replay = await anonClient(b).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
    // At once, every token of the session refuses, the live one included, and keeps refusing.
    for (const token of [t1.data.session!.refresh_token, session.refresh_token, t1.data.session!.refresh_token]) {
      const res = await anonClient(b).auth.refreshSession({ refresh_token: token });
      expect(res.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
    }
    const me = await call("/auth/v1/user", { token: t1.data.session!.access_token });
    expect(me.status).toBe(403);
    expect(await me.json()).toMatchObject({ code: "session_not_found" });
  });
});

describe("auth with e-mail confirmation required", () => {
  const b = useBackend(() => startAuthBackend({ env: { MAILER_AUTOCONFIRM: "false" } }));

  it("mails a confirmation link, refuses sign-in until it is followed, then signs in", async () => {
    const email = uniqueEmail("confirm");
    const client = anonClient(b);
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: APP_RESET_URL },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.email_confirmed_at).toBeUndefined();

    const early = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error).toMatchObject({ status: 400, code: "email_not_confirmed", message: "Email not confirmed" });

    const [message] = await mailTo(b, email);
    expect(message.subject).toBe("Confirm Your Signup");
    const visit = await fetch(message.link!, { redirect: "manual" });
    expect(visit.status).toBe(303);
    const fragment = fragmentOf(visit.headers.get("location")!);
    expect(fragment.get("type")).toBe("signup");
    expect(claimsOf(fragment.get("access_token")!).user_metadata).toMatchObject({ email_verified: true });

    const later = await anonClient(b).auth.signInWithPassword({ email, password: PASSWORD });
    expect(later.error).toBeNull();
    expect(later.data.user!.email_confirmed_at).toBeTruthy();
  });
});

const postgresIsAvailable = await postgresAvailable();

describe("auth on PostgreSQL", () => {
  const available = postgresIsAvailable;
  let b: Backend;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (!available) return;
    const db = await createDatabase("pc_auth");
    drop = db.drop;
    b = await startAuthBackend({ databaseUrl: db.url });
  });
  afterAll(async () => {
    await b?.stop();
    await drop();
  });

  it.skipIf(!available)("signs up, rotates refresh tokens, refuses a replay and resets a password", async () => {
    expect(b.database).toBe("postgres");
    const { email, session } = await newUser(b, "pg");
    const client = anonClient(b);
    const first = await client.auth.refreshSession({ refresh_token: session.refresh_token });
    await client.auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
    const replay = await anonClient(b).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toMatchObject({ code: "refresh_token_already_used" });

    await anonClient(b).auth.resetPasswordForEmail(email, { redirectTo: APP_RESET_URL });
    const visit = await fetch((await mailTo(b, email))[0].link!, { redirect: "manual" });
    const fragment = fragmentOf(visit.headers.get("location")!);
    const page = anonClient(b);
    await page.auth.setSession({
      access_token: fragment.get("access_token")!,
      refresh_token: fragment.get("refresh_token")!,
    });
    expect((await page.auth.updateUser({ password: "pg-reset-horse-1" })).error).toBeNull();
    expect((await anonClient(b).auth.signInWithPassword({ email, password: "pg-reset-horse-1" })).error).toBeNull();
  });
});
