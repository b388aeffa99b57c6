import { expect, test } from "./support/test";
import { PASSWORD, accountButton, signIn, signOut, signUp, uniqueEmail } from "./support/app";

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
