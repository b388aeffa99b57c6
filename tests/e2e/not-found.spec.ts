import { expect, test } from "./support/test";

test("an unknown path shows the 404 page with its three buttons", async ({ page, allowFailedRequest }) => {
  allowFailedRequest(
    /^GET \S+\/(this\/does-not-exist|nope|nope-again) 404$/,
    "unknown addresses on purpose: they answer 404",
  );
  expect((await page.goto("/site-map"))?.status()).toBe(200);
  // The server says what the page says: an unknown path is a 404, not a 200 with a not-found page.
  expect((await page.goto("/this/does-not-exist"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByText("/this/does-not-exist", { exact: true })).toBeVisible();
  await expect(page).toHaveTitle("Page Not Found · PromptCanvas");

  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/site-map$/);

  await page.goto("/nope");
  await page.getByRole("link", { name: "Browse Gallery" }).click();
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();

  await page.goto("/nope-again");
  await page.getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Text to Image Generator", exact: true })).toBeVisible();
});
