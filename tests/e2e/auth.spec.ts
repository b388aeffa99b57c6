import { expect, test } from "./support/test";
import { PASSWORD, accountButton, signIn, signOut, signUp, uniqueEmail } from "./support/app";
import {
  dexieTasks,
  generateOne,
  openGenerator,
  previewImage,
  serverLimits,
  serverRows,
  serverSession,
} from "./support/generator";

test("sign up, sign out and sign in again", async ({ page }) => {
  const email = uniqueEmail("journey");
  await signUp(page, email);
  // With no `from`, a new account lands on the dashboard.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(accountButton(page, email)).toHaveText("J");

  await accountButton(page, email).click();
  await expect(page.getByText("Signed in as")).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Account" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Billing" })).toBeVisible();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  // The stored session is gone, so a reload stays signed out.
  await page.reload();
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(accountButton(page, email)).toBeVisible();
});

test.describe("on a device at UTC+14", () => {
  test.use({ timezoneId: "Pacific/Kiritimati" });

  test("a new account's quota day is the device's from the start: it ends at the person's midnight", async ({
    page,
  }) => {
    const email = uniqueEmail("zone");
    await signUp(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    const s = await serverSession(page, email);
    const prefs = await page.request.get(`${s.api}/rest/v1/user_preferences?select=timezone`, {
      headers: { apikey: s.anonKey, Authorization: `Bearer ${s.token}` },
    });
    expect(await prefs.json()).toEqual([{ timezone: "Pacific/Kiritimati" }]);
    // Midnight at UTC+14 is 10:00 UTC, and the reset is within the next day.
    const resetAt = new Date((await serverLimits(page.request, s)).reset_at);
    expect([resetAt.getUTCHours(), resetAt.getUTCMinutes(), resetAt.getUTCSeconds()]).toEqual([10, 0, 0]);
    expect(resetAt.getTime() - Date.now()).toBeGreaterThan(0);
    expect(resetAt.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  });
});

test("signing out from /account lands on / signed out, and /account then asks to sign in", async ({ page }) => {
  const email = uniqueEmail("account-out");
  await signUp(page, email);
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  const visited: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  // Straight to /: the page being left never sent the person to the sign-in screen on the way.
  expect(visited).toEqual(["/"]);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/auth\?from=%2Faccount$/);
});

test("a reload while signed in keeps the session", async ({ page }) => {
  const email = uniqueEmail("reload");
  await signUp(page, email);
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await expect(accountButton(page, email)).toBeVisible();
});

test("clear messages for wrong credentials, an existing account, a weak password and no network", async ({
  page,
  context,
  allowConsole,
  allowFailedRequest,
}) => {
  allowFailedRequest(
    /^POST \S+\/auth\/v1\/token\?grant_type=password 400$/,
    "a wrong password on purpose: refused with 400",
  );
  allowFailedRequest(
    /^POST \S+\/auth\/v1\/signup\S* 422$/,
    "signing up an existing account on purpose: refused with 422",
  );
  allowFailedRequest(/\/auth\/v1\/\S+ net::ERR_INTERNET_DISCONNECTED$/, "the auth routes are aborted as if offline");
  allowConsole(/^TypeError: Failed to fetch/, "supabase auth-js logs the failed fetch of the sign-in made offline");
  const email = uniqueEmail("errors");
  await signUp(page, email);
  await signOut(page, email);

  await page.goto("/auth");
  await signIn(page, email, "not-the-password");
  await expect(page.getByRole("alert")).toHaveText(/That email and password don't match an account/);

  await page.getByRole("tab", { name: "Create account" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toHaveText(/An account with this email already exists/);

  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toHaveText(/That password is too weak: use at least 8 characters/);

  await page.getByRole("tab", { name: "Sign in" }).click();
  const api = new URL((await page.evaluate(() => window.__APP_CONFIG__?.supabaseUrl)) as string);
  await context.route(`${api.origin}/auth/v1/**`, (route) => route.abort("internetdisconnected"));
  await signIn(page, email);
  await expect(page.getByRole("alert")).toHaveText(/couldn't reach the server/);
});

test("signing out in one tab signs the person's other tabs out, and signing in again signs them in", async ({
  page,
  context,
}) => {
  const email = uniqueEmail("tabs");
  await signUp(page, email);
  const other = await context.newPage();
  await other.goto("/history");
  await expect(accountButton(other, email)).toBeVisible();

  // No reload of the other tab: it follows the session both tabs share.
  await signOut(page, email);
  await expect(other.getByRole("link", { name: "Sign in", exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(accountButton(other, email)).toHaveCount(0);

  await page.goto("/auth");
  await signIn(page, email);
  await expect(accountButton(page, email)).toBeVisible();
  await expect(accountButton(other, email)).toBeVisible({ timeout: 10_000 });
});

test("a session ended elsewhere asks this device to sign in again, and the prompt queued meanwhile waits for it", async ({
  page,
  allowConsole,
  allowFailedRequest,
}) => {
  test.setTimeout(120_000);
  allowFailedRequest(/generate-image 401$/, "the send made with the ended session is refused");
  allowFailedRequest(/auth\/v1\/token\?grant_type=refresh_token 400$/, "the ended session's refresh is refused");
  allowFailedRequest(/\/rest\/v1\/\S+ 401$/, "reads made with the ended session are refused");
  allowFailedRequest(/auth\/v1\/logout\S* (401|403|404)$/, "this device's own sign-out finds the session gone");
  allowFailedRequest(
    /auth\/v1\/user 403$/,
    "the tour's completion, copied to the account as the page loads (decision 133), is refused for the ended session",
  );
  allowConsole(/status of (400|401|403|404)/, "the refusals above, as the browser logs them");
  // The database's hint that the session ended (decision 129) is lost on the way, as on a device whose
  // socket was down: the device learns of the end only when its own calls are refused.
  await page.routeWebSocket(/\/realtime\/v1\/websocket/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (!String(message).includes("session.ended")) ws.send(message);
    });
  });
  const email = uniqueEmail("ended");
  await signUp(page, email);
  await openGenerator(page);

  // Signed out everywhere from another device: the server ends every session of the account.
  const elsewhere = await serverSession(page, email);
  const out = await page.request.post(`${elsewhere.api}/auth/v1/logout?scope=global`, {
    headers: { apikey: elsewhere.anonKey, Authorization: `Bearer ${elsewhere.token}` },
  });
  expect(out.status()).toBe(204);

  // This device still holds its session; the send is refused, the renewal too, and the person is asked.
  await generateOne(page, "A lighthouse queued as the session ended");
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible({ timeout: 20_000 });
  // The refused renewal forgets the session (the link shows) just before the send settles its task back to
  // queued, waiting for a sign-in: the task is read until it has.
  await expect.poll(async () => (await dexieTasks(page)).map((t) => t.status)).toEqual(["queued"]);

  await page.goto("/auth");
  await signIn(page, email);
  await expect(accountButton(page, email)).toBeVisible();
  await openGenerator(page);
  await expect(previewImage(page, "A lighthouse queued as the session ended")).toBeVisible({ timeout: 30_000 });
  const again = await serverSession(page, email);
  expect((await serverRows(page.request, again)).length).toBe(1);
});
