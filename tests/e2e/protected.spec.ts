import { expect, test } from "./support/test";
import { accountButton, signIn, signOut, signUp, uniqueEmail } from "./support/app";

test("a protected page sends a visitor to /auth and returns there after sign-in", async ({ page }) => {
  const email = uniqueEmail("protected");
  await signUp(page, email);
  await signOut(page, email);

  await page.goto("/");
  await page.goto("/billing");
  await expect(page).toHaveURL(/\/auth\?from=%2Fbilling$/);
  await expect(page.getByText("Sign in to continue to /billing")).toBeVisible();

  // The protected page's entry was replaced: Back returns to the page before it.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/auth\?from=%2Fbilling$/);

  await signIn(page, email);
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await expect(accountButton(page, email)).toBeVisible();
});

test("protected pages say 'Checking session…' before deciding", async ({ page }) => {
  await page.route("**/assets/actors-*.js", async (route) => {
    // Hold the session actor's code back briefly so the checking state is observable.
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.goto("/history");
  await expect(page.getByText("Checking session…")).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?from=%2Fhistory$/);
});
