import { expect, test } from "@playwright/test";

test("the app shell opens offline after one visit", async ({ page, context }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "AI Text to Image Generator" })).toBeVisible();
  // The worker is registered at load and precaches the build.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(async () => (await caches.keys()).some((k) => k.includes("precache"))))
    .toBe(true);

  await context.setOffline(true);
  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole("heading", { level: 1, name: "AI Text to Image Generator" })).toBeVisible();

  // A route never opened before still opens: navigation falls back to the cached app shell, and
  // the page's code comes from the precache.
  await page.goto("/site-map");
  await expect(page.getByRole("heading", { level: 1, name: "Site Map" })).toBeVisible();
  await page.goto("/styles/photorealistic");
  await expect(page.getByRole("heading", { level: 1, name: "Photorealistic Style" })).toBeVisible();
  // The runtime config was kept, so the app still knows its backend.
  expect(await page.evaluate(() => Boolean(window.__APP_CONFIG__?.supabaseUrl))).toBe(true);
  await context.setOffline(false);
});

test("the service worker leaves backend traffic alone", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  const api = await page.evaluate(() => window.__APP_CONFIG__!.supabaseUrl as string);
  const seen: boolean[] = [];
  page.on("response", (res) => {
    if (res.url().startsWith(api)) seen.push(res.fromServiceWorker());
  });
  // Protected pages start the session actor, which talks to /auth/v1 through the controlled page.
  await page.goto("/auth");
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password", { exact: true }).fill("wrong-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((fromSw) => !fromSw)).toBe(true);
});
