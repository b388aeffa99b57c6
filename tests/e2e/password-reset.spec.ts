import { expect, test } from "./support/test";
import { accountButton, latestMail, signIn, signOut, signUp, uniqueEmail } from "./support/app";

test("reset a forgotten password through the mailbox link", async ({ page, allowFailedRequest }) => {
  allowFailedRequest(
    /^POST \S+\/auth\/v1\/token\?grant_type=password 400$/,
    "the old password on purpose: refused with 400",
  );
  const email = uniqueEmail("reset");
  await signUp(page, email);
  await signOut(page, email);

  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "a link to choose a new password is on its way" }),
  ).toBeVisible();

  const mail = await latestMail(page, email);
  expect(mail.link).toContain("/auth/v1/verify");
  await page.goto(mail.link);
  await expect(page).toHaveURL(/\/reset-password#?$/);
  await expect(page.getByText(`Choose a new password for ${email}.`)).toBeVisible();

  const newPassword = "a-brand-new-passphrase";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByRole("textbox", { name: "Confirm new password" }).fill("something-else");
  await page.getByRole("button", { name: "Update password" }).click();
  await expect(page.getByRole("alert")).toHaveText("The two passwords don't match.");
  await page.getByRole("textbox", { name: "Confirm new password" }).fill(newPassword);
  await page.getByRole("button", { name: "Update password" }).click();
  await expect(page.getByText("Your password has been updated.")).toBeVisible();

  await signOut(page, email);
  await page.goto("/auth");
  await signIn(page, email, "correct-horse-battery");
  await expect(page.getByRole("alert")).toHaveText(/don't match an account/);
  await signIn(page, email, newPassword);
  await expect(accountButton(page, email)).toBeVisible();

  // The link works once: opened again it no longer gives a session.
  await signOut(page, email);
  await page.goto(mail.link);
  await expect(page.getByRole("alert")).toContainText("Request a new link");
});
