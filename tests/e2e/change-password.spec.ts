import { expect, test } from "./support/test";
import { PASSWORD, accountButton, signIn, signOut, signUp, uniqueEmail } from "./support/app";

test("changing the password asks for the current one and checks it by signing in again", async ({
  page,
  allowFailedRequest,
}) => {
  // The wrong current password, then the old password after the change.
  allowFailedRequest(
    /^POST \S+\/auth\/v1\/token\?grant_type=password 400$/,
    "a wrong password on purpose: refused with 400",
  );
  const email = uniqueEmail("change-pw");
  const next = "a-brand-new-passphrase";
  await signUp(page, email);
  await page.goto("/account");
  await page.getByRole("button", { name: "Change password" }).click();

  // A wrong current password is refused and the password stays as it was (the session too).
  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Confirm new password").fill(next);
  await page.getByRole("button", { name: "Update password" }).click();
  await expect(page.getByRole("alert")).toHaveText("Your current password is not correct.");
  await expect(accountButton(page, email)).toBeVisible();

  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Update password" }).click();
  await expect(page.getByText("Password updated")).toBeVisible();
  await expect(accountButton(page, email)).toBeVisible();

  await signOut(page, email);
  await page.goto("/auth");
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole("alert")).toHaveText(/That email and password don't match an account/);
  await signIn(page, email, next);
  await expect(accountButton(page, email)).toBeVisible();
});
