// The auth service's admin API (supabase-js `auth.admin` with the service role) and e-mail OTP and
// magic links (`signInWithOtp`, `verifyOtp`), through the real client on PGlite and PostgreSQL: paging
// with GoTrue's headers, creating, reading and updating users, links generated without mail, invitations
// and sign-in codes in the development mailbox, single use, expiry and the rate limits they count against.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailTo, codeFor } from "../support/auth-mail.ts";
import { useBackend } from "../support/backend-suite.ts";
import { type Backend, DEFAULT_AUTH_RATE_LIMITS, startBackend } from "../support/backend.ts";
import { BACKEND_TARGETS } from "../support/backend-targets.ts";
import { anonClient, keyHeaders, PASSWORD, serviceClient, uniqueEmail } from "../support/clients.ts";
import { createDatabase } from "../support/postgres.ts";

describe.each(BACKEND_TARGETS)("auth admin API and e-mail OTP on $title", ({ postgres, skip }) => {
  let b: Backend;
  let db: { url: string; drop: () => Promise<void> } | null = null;
  let direct: pg.Client | null = null;

  beforeAll(async () => {
    if (skip) return;
    if (postgres) {
      db = await createDatabase("pc_auth_admin");
      b = await startBackend({ databaseUrl: db.url });
      direct = new pg.Client({ connectionString: db.url });
      await direct.connect();
    } else {
      b = await startBackend();
    }
  }, 90_000);
  afterAll(async () => {
    await direct?.end();
    await b?.stop();
    await db?.drop();
  });

  describe("admin API", () => {
    it.skipIf(skip)("creates users with confirmation, metadata and a password that signs in", async () => {
      const admin = serviceClient(b).auth.admin;
      const email = uniqueEmail("admin-create");
      const { data, error } = await admin.createUser({
        email: email.toUpperCase(),
        password: PASSWORD,
        email_confirm: true,
        user_metadata: { display_name: "Ada" },
        app_metadata: { plan: "pro" },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({
        email,
        user_metadata: { display_name: "Ada", email_verified: true },
        app_metadata: { provider: "email", providers: ["email"], plan: "pro" },
      });
      expect(data.user!.email_confirmed_at).toBeTruthy();
      const signIn = await anonClient(b).auth.signInWithPassword({ email, password: PASSWORD });
      expect(signIn.error).toBeNull();

      const unconfirmed = uniqueEmail("admin-unconfirmed");
      const made = await admin.createUser({ email: unconfirmed, password: PASSWORD });
      expect(made.data.user!.email_confirmed_at).toBeUndefined();
      const refused = await anonClient(b).auth.signInWithPassword({ email: unconfirmed, password: PASSWORD });
      expect(refused.error).toMatchObject({ status: 400, code: "email_not_confirmed" });

      const again = await admin.createUser({ email, password: PASSWORD });
      expect(again.error).toMatchObject({ status: 422, code: "email_exists" });
      const weak = await admin.createUser({ email: uniqueEmail("admin-weak"), password: "short" });
      expect(weak.error).toMatchObject({ status: 422, code: "weak_password" });
      const noEmail = await admin.createUser({ password: PASSWORD });
      expect(noEmail.error).toMatchObject({ status: 400, code: "validation_failed" });
    });

    it.skipIf(skip)("gets and updates a user by id, merging metadata and changing the password", async () => {
      const admin = serviceClient(b).auth.admin;
      const email = uniqueEmail("admin-update");
      const { data } = await admin.createUser({ email, password: PASSWORD, user_metadata: { a: 1, b: 2 } });
      const id = data.user!.id;
      const got = await admin.getUserById(id);
      expect(got.error).toBeNull();
      expect(got.data.user).toMatchObject({ id, email, user_metadata: { a: 1, b: 2 } });

      const session = (await anonClient(b).auth.signInWithPassword({ email, password: PASSWORD })).error;
      expect(session).toMatchObject({ code: "email_not_confirmed" });
      const newEmail = uniqueEmail("admin-updated");
      const updated = await admin.updateUserById(id, {
        email: newEmail,
        email_confirm: true,
        password: "another-horse-43",
        user_metadata: { a: null, c: 3 },
        app_metadata: { role_in_app: "editor" },
      });
      expect(updated.error).toBeNull();
      expect(updated.data.user).toMatchObject({
        email: newEmail,
        user_metadata: { b: 2, c: 3, email_verified: true },
        app_metadata: { provider: "email", role_in_app: "editor" },
      });
      expect(updated.data.user!.user_metadata).not.toHaveProperty("a");
      const signIn = await anonClient(b).auth.signInWithPassword({ email: newEmail, password: "another-horse-43" });
      expect(signIn.error).toBeNull();

      const missing = await admin.getUserById("00000000-0000-4000-8000-000000000000");
      expect(missing.error).toMatchObject({ status: 404, code: "user_not_found" });
      const notUuid = await fetch(`${b.url}/auth/v1/admin/users/not-a-uuid`, {
        headers: keyHeaders(b.serviceRoleKey),
      });
      expect(notUuid.status).toBe(404);
      expect(await notUuid.json()).toMatchObject({ code: "validation_failed", message: "user_id must be an UUID" });
    });

    it.skipIf(skip)("lists users newest first in pages, with GoTrue's Link and X-Total-Count headers", async () => {
      const admin = serviceClient(b).auth.admin;
      const made: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { data } = await admin.createUser({ email: uniqueEmail(`admin-list-${i}`), password: PASSWORD });
        made.push(data.user!.id);
      }
      const res = await fetch(`${b.url}/auth/v1/admin/users?page=1&per_page=2`, {
        headers: keyHeaders(b.serviceRoleKey),
      });
      expect(res.status).toBe(200);
      const total = Number(res.headers.get("x-total-count"));
      expect(total).toBeGreaterThanOrEqual(3);
      const last = Math.ceil(total / 2);
      expect(res.headers.get("link")).toBe(
        `</admin/users?page=2&per_page=2>; rel="next", </admin/users?page=${last}&per_page=2>; rel="last"`,
      );
      const body = await res.json();
      expect(body.aud).toBe("authenticated");
      expect(body.users.map((u: { id: string }) => u.id)).toEqual([made[2], made[1]]);

      const page2 = await admin.listUsers({ page: 2, perPage: 2 });
      expect(page2.error).toBeNull();
      expect(page2.data.users[0].id).toBe(made[0]);
      expect(page2.data).toMatchObject({ total, lastPage: last });
      const all = await admin.listUsers();
      expect(all.data.users.length).toBe(Math.min(total, 50));

      const bad = await admin.listUsers({ page: 0, perPage: 2 });
      expect(bad.error).toMatchObject({ status: 400, code: "validation_failed" });
    });

    it.skipIf(skip)("refuses every admin call without the service role with 403 not_admin", async () => {
      const email = uniqueEmail("admin-not");
      const { data } = await anonClient(b).auth.signUp({ email, password: PASSWORD });
      const token = data.session!.access_token;
      const calls: [string, string][] = [
        ["GET", "/auth/v1/admin/users"],
        ["POST", "/auth/v1/admin/users"],
        ["GET", `/auth/v1/admin/users/${data.user!.id}`],
        ["PUT", `/auth/v1/admin/users/${data.user!.id}`],
        ["POST", "/auth/v1/admin/generate_link"],
        ["POST", "/auth/v1/invite"],
      ];
      for (const [method, path] of calls) {
        for (const bearer of [b.anonKey, token]) {
          const res = await fetch(`${b.url}${path}`, {
            method,
            headers: { apikey: b.anonKey, authorization: `Bearer ${bearer}`, "content-type": "application/json" },
            body: method === "GET" ? undefined : JSON.stringify({ email: uniqueEmail("x"), type: "magiclink" }),
          });
          expect(res.status, `${method} ${path}`).toBe(403);
          expect(await res.json()).toEqual({ code: "not_admin", message: "User not allowed" });
        }
      }
      const admin = anonClient(b).auth.admin;
      expect((await admin.listUsers()).error).toMatchObject({ status: 403, code: "not_admin" });
    });

    it.skipIf(skip)("generates magic link, recovery, sign-up and invite links without mailing them", async () => {
      const admin = serviceClient(b).auth.admin;
      const email = uniqueEmail("admin-link");
      await admin.createUser({ email, password: PASSWORD, email_confirm: true });
      const magic = await admin.generateLink({ type: "magiclink", email });
      expect(magic.error).toBeNull();
      expect(magic.data.user!.email).toBe(email);
      expect(magic.data.properties).toMatchObject({ verification_type: "magiclink" });
      expect(magic.data.properties!.email_otp).toMatch(/^\d{6}$/);
      const link = new URL(magic.data.properties!.action_link);
      expect(link.pathname).toBe("/auth/v1/verify");
      expect(link.searchParams.get("type")).toBe("magiclink");
      expect(link.searchParams.get("token")).toBe(magic.data.properties!.hashed_token);
      expect(await mailTo(b, email)).toEqual([]);

      const client = anonClient(b);
      const used = await client.auth.verifyOtp({ token_hash: magic.data.properties!.hashed_token, type: "magiclink" });
      expect(used.error).toBeNull();
      expect(used.data.session!.user.email).toBe(email);

      const recovery = await admin.generateLink({ type: "recovery", email });
      const byCode = await anonClient(b).auth.verifyOtp({
        email,
        token: recovery.data.properties!.email_otp,
        type: "email",
      });
      expect(byCode.error).toBeNull();
      const unknown = await admin.generateLink({ type: "recovery", email: uniqueEmail("nobody") });
      expect(unknown.error).toMatchObject({ status: 404, code: "user_not_found" });

      const fresh = uniqueEmail("admin-signup-link");
      const signup = await admin.generateLink({ type: "signup", email: fresh, password: PASSWORD });
      expect(signup.error).toBeNull();
      expect(signup.data.user!.email_confirmed_at).toBeUndefined();
      const confirmed = await anonClient(b).auth.verifyOtp({
        token_hash: signup.data.properties!.hashed_token,
        type: "signup",
      });
      expect(confirmed.error).toBeNull();
      expect(confirmed.data.user!.email_confirmed_at).toBeTruthy();
      const twice = await admin.generateLink({ type: "signup", email: fresh, password: PASSWORD });
      expect(twice.error).toMatchObject({ status: 422, code: "email_exists" });

      const invited = uniqueEmail("admin-invite-link");
      const inv = await admin.generateLink({ type: "invite", email: invited });
      expect(inv.data.properties!.verification_type).toBe("invite");
      expect(await mailTo(b, invited)).toEqual([]);
      const bad = await admin.generateLink({ type: "bogus" as "invite", email });
      expect(bad.error).toMatchObject({ status: 400, code: "validation_failed" });
    });

    it.skipIf(skip)("invites by e-mail into the dev mailbox; the invitation signs the person in once", async () => {
      const admin = serviceClient(b).auth.admin;
      const email = uniqueEmail("admin-invite");
      const { data, error } = await admin.inviteUserByEmail(email, { data: { team: "blue" } });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, user_metadata: { team: "blue" } });
      expect(data.user!.email_confirmed_at).toBeUndefined();
      const { code, link, subject } = await codeFor(b, email);
      expect(subject).toBe("You have been invited");
      expect(link.searchParams.get("type")).toBe("invite");
      const visit = await fetch(`${b.url}/auth/v1/verify?${link.searchParams.toString()}`, { redirect: "manual" });
      expect(visit.status).toBe(303);
      expect(visit.headers.get("location")).toContain("#access_token=");
      const reuse = await anonClient(b).auth.verifyOtp({ email, token: code, type: "invite" });
      expect(reuse.error).toMatchObject({ status: 403, code: "otp_expired" });
      const again = await admin.inviteUserByEmail(email);
      expect(again.error).toMatchObject({ status: 422, code: "email_exists" });
    });
  });

  describe("e-mail OTP and magic links", () => {
    it.skipIf(skip)("signs up a new address with signInWithOtp and signs in with the mailed code, once", async () => {
      const email = uniqueEmail("otp-new");
      const { error } = await anonClient(b).auth.signInWithOtp({ email, options: { data: { name: "Otto" } } });
      expect(error).toBeNull();
      const { code, link, subject } = await codeFor(b, email);
      expect(subject).toBe("Your Magic Link");
      expect(link.searchParams.get("type")).toBe("magiclink");
      const client = anonClient(b);
      const { data, error: verifyError } = await client.auth.verifyOtp({ email, token: code, type: "email" });
      expect(verifyError).toBeNull();
      expect(data.session!.user).toMatchObject({ email, user_metadata: { name: "Otto" } });
      expect((await client.auth.getUser()).data.user!.email).toBe(email);
      // The code and the link are one token: either, once.
      const again = await anonClient(b).auth.verifyOtp({ email, token: code, type: "email" });
      expect(again.error).toMatchObject({ status: 403, code: "otp_expired" });
      const visit = await fetch(`${b.url}/auth/v1/verify?${link.searchParams.toString()}`, { redirect: "manual" });
      expect(visit.headers.get("location")).toContain("error_code=otp_expired");
    });

    it.skipIf(skip)("mails an existing account a magic link that signs in through the browser redirect", async () => {
      const email = uniqueEmail("otp-link");
      await anonClient(b).auth.signUp({ email, password: PASSWORD });
      expect(
        (await anonClient(b).auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error,
      ).toBeNull();
      const { code, link } = await codeFor(b, email);
      const wrong = await anonClient(b).auth.verifyOtp({
        email,
        token: code === "000000" ? "000001" : "000000",
        type: "magiclink",
      });
      expect(wrong.error).toMatchObject({ status: 403, code: "otp_expired" });
      const visit = await fetch(`${b.url}/auth/v1/verify?${link.searchParams.toString()}`, { redirect: "manual" });
      expect(visit.status).toBe(303);
      const fragment = new URLSearchParams(visit.headers.get("location")!.split("#")[1]);
      expect(fragment.get("type")).toBe("magiclink");
      expect(fragment.get("access_token")).toBeTruthy();
      const soon = await anonClient(b).auth.signInWithOtp({ email });
      expect(soon.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    });

    it.skipIf(skip)("refuses an unknown address when shouldCreateUser is false, creating nothing", async () => {
      const email = uniqueEmail("otp-nobody");
      const { error } = await anonClient(b).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
      expect(error).toMatchObject({ status: 422, code: "otp_disabled" });
      expect(await mailTo(b, email)).toEqual([]);
      const listed = await serviceClient(b).auth.admin.listUsers({ perPage: 1000 });
      expect(listed.data.users.some((u) => u.email === email)).toBe(false);
    });

    // Skipped on PGlite: ageing the stored code needs SQL beside the running backend, and PGlite's files
    // belong to that process alone; PostgreSQL can be reached directly. The expiry rule is one code path.
    it.skipIf(skip || !postgres)("refuses a code older than an hour", async () => {
      const email = uniqueEmail("otp-old");
      await anonClient(b).auth.signInWithOtp({ email });
      const { code } = await codeFor(b, email);
      await direct!.query(
        `update auth.one_time_tokens set created_at = now() - interval '61 minutes'
          where user_id = (select id from auth.users where email = $1)`,
        [email],
      );
      const late = await anonClient(b).auth.verifyOtp({ email, token: code, type: "email" });
      expect(late.error).toMatchObject({ status: 403, code: "otp_expired" });
    });
  });
});

describe("e-mail OTP with the hosted rate limits", () => {
  const b = useBackend(() => startBackend({ env: DEFAULT_AUTH_RATE_LIMITS }), 90_000);

  it("counts OTP mails against the hourly e-mail budget and code checks against token_verifications", async () => {
    const client = anonClient(b);
    const emails = [uniqueEmail("budget-a"), uniqueEmail("budget-b"), uniqueEmail("budget-c")];
    expect((await client.auth.signInWithOtp({ email: emails[0] })).error).toBeNull();
    expect((await client.auth.signInWithOtp({ email: emails[1] })).error).toBeNull();
    const third = await client.auth.signInWithOtp({ email: emails[2] });
    expect(third.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    expect(await mailTo(b, emails[2])).toEqual([]);

    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const { error } = await anonClient(b).auth.verifyOtp({
        email: emails[0],
        token: String(100000 + i),
        type: "email",
      });
      statuses.push(error?.status ?? 200);
    }
    expect(statuses.slice(0, 30).every((s) => s === 403)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
