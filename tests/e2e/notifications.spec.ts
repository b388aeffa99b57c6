// Batch-done alerts (issue point 6): with notifications on and the page hidden, a batch of 3 that
// finishes gives one system notification from the service worker (registration.getNotifications()),
// sets the app badge and puts a count in the tab title; viewing History clears the count and badge.
import { expect, test } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";
import { ensureControlled, expectCounter, generateButton, openGenerator } from "./support/generator";

test.use({ permissions: ["notifications"] });

test("a batch of 3 finished while hidden: one system notification, the badge and a title count", async ({ page }) => {
  test.setTimeout(150_000);
  // The badge calls are recorded (the platform may not show a badge for a page that is not installed).
  await page.addInitScript(() => {
    const calls: (number | "clear")[] = [];
    Object.assign(window, { __badgeCalls: calls });
    Object.assign(Navigator.prototype, {
      setAppBadge: async (n?: number) => void calls.push(n ?? 0),
      clearAppBadge: async () => void calls.push("clear"),
    });
  });
  await signUp(page, uniqueEmail("notify-batch"));
  await openGenerator(page);
  await ensureControlled(page);
  await expect(page.getByLabel("Prompt", { exact: true })).toBeVisible();

  await page.getByLabel("Prompt", { exact: true }).fill("Three paper boats on a pond");
  await page.getByRole("checkbox", { name: "Batch mode" }).check();
  await page.getByRole("slider", { name: "Batch count" }).fill("3");
  await expect(generateButton(page)).toHaveText(/Queue 3 tasks/);
  // The page goes to the background (as when the person switches tabs) before the batch runs.
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await generateButton(page).click();
  await expectCounter(page, "Done", 3, 60_000);

  const notes = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body }));
    });
  await expect.poll(notes, { timeout: 10_000 }).toHaveLength(1);
  expect((await notes())[0]).toEqual({
    title: "Your 3 images are ready",
    body: "“Three paper boats on a pond”. See it in History.",
  });
  await expect.poll(() => page.title()).toMatch(/^\(1\) /);
  expect(await page.evaluate(() => (window as unknown as { __badgeCalls: unknown[] }).__badgeCalls)).toEqual([1]);
  // Still exactly one: the three tasks made one announcement.
  await page.waitForTimeout(1_000);
  expect(await notes()).toHaveLength(1);

  // Back on the page, History is where finished work is seen: the count and the badge go.
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
  });
  await page.getByRole("link", { name: "History" }).first().click();
  await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();
  await expect.poll(() => page.title()).not.toMatch(/^\(\d+\) /);
  expect(await page.evaluate(() => (window as unknown as { __badgeCalls: unknown[] }).__badgeCalls)).toEqual([
    1,
    "clear",
  ]);
});
