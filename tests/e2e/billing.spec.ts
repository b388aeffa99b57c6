// Issue 45, "Verified by": on `npm start` with the Stripe stand-in, a free person buys Creator through the
// stand-in's checkout ("Pay") and the success page shows Creator; a second device of theirs sends the request
// it held at 0 left and reads what is left of 999 within seconds, without a reload; a second press of a plan button lands in the billing portal; a cancel
// there, then the stand-in's clock past the period's end, puts both devices back on Free; offline, /billing
// shows the last known plan. axe finds nothing on /billing and the payment pages.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountButton, apiUrl, audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import {
  ensureControlled,
  expectCounter,
  generateOne,
  openGenerator,
  sendGenerate,
  serverSession,
} from "./support/generator";
import { newDevice } from "./support/library";
import { expect, test, type Page, type TestInfo } from "./support/test";

/**
 * The stand-in's secret key (its controls' Bearer), from the state file in this run's data directory: the
 * one whose key this backend's stand-in accepts (other runs may have data directories beside it).
 */
async function standInKey(page: Page): Promise<string> {
  const api = await apiUrl(page);
  const keys = readdirSync(tmpdir(), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith("promptcanvas-e2e-"))
    .map((d) => join(tmpdir(), d.name, "stripe-standin.json"))
    .filter((file) => existsSync(file))
    .flatMap((file) => {
      try {
        return [(JSON.parse(readFileSync(file, "utf8")) as { secretKey: string }).secretKey];
      } catch {
        return [];
      }
    });
  for (const key of keys) {
    const answer = await page.request.get(`${api}/__stripe/clock`, { headers: { Authorization: `Bearer ${key}` } });
    if (answer.ok()) return key;
  }
  throw new Error("no e2e data directory holds the key of this backend's Stripe stand-in");
}

/** Moves the stand-in's clock on (renewals and ends fall due, their events go out) and waits for them. */
async function advanceStripeClock(page: Page, seconds: number): Promise<void> {
  const api = await apiUrl(page);
  const headers = { Authorization: `Bearer ${await standInKey(page)}` };
  const moved = await page.request.post(`${api}/__stripe/clock/advance`, { headers, data: { seconds } });
  expect(moved.ok(), await moved.text()).toBe(true);
  const flushed = await page.request.post(`${api}/__stripe/deliveries/flush`, { headers });
  expect(flushed.ok(), await flushed.text()).toBe(true);
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/** The dashboard's usage line: "<n> left · …". */
const leftToday = (page: Page, n: string) => page.getByText(new RegExp(`^${n} left`));

test("a plan bought, managed and ended through the Stripe stand-in reaches every device at once", async ({
  page,
  browser,
  allowOffline,
}, testInfo) => {
  test.setTimeout(180_000);
  const findings: Finding[] = [];
  const email = uniqueEmail("billing");
  await signUp(page, email);

  // Today's five are used up (over the API); a second device of the same person holds one more request for
  // the reset on the generator: it must hear the plan, and send that request, without a reload.
  const server = await serverSession(page, email);
  for (let i = 1; i <= 5; i++) {
    const made = await sendGenerate(page.request, server, {
      request_id: crypto.randomUUID(),
      prompt: `A lighthouse number ${i}`,
      style: "anime",
      quality: "standard",
      aspect_ratio: "1:1",
    });
    expect(made.status(), await made.text()).toBe(200);
  }
  const other = await newDevice(browser, testInfo);
  await other.page.goto("/auth");
  await signIn(other.page, email);
  await expect(accountButton(other.page, email)).toBeVisible();
  await openGenerator(other.page);
  await expect(other.page.getByRole("alert").filter({ hasText: "Daily limit reached" }).first()).toBeVisible();
  await generateOne(other.page, "A lighthouse held for the reset");
  await other.page.getByRole("button", { name: /^Hold it until the reset/ }).click();
  await expectCounter(other.page, "Queued", 1, 5_000);
  await shot(other.page, testInfo, "second-device-held");

  // Free: /billing says so, and its plan buttons are there.
  await page.goto("/billing");
  await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible();
  await expect(page.getByText("Test payments")).toBeVisible();
  await shot(page, testInfo, "billing-free");
  await audit(page, "/billing (free)", findings);

  // Creator through the stand-in's checkout.
  await page.goto("/pricing");
  await page.getByRole("button", { name: /^Choose Creator/ }).click();
  await expect(page).toHaveURL(/\/stripe\/checkout\//);
  await expect(page.getByText(/test payments/i).first()).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=/);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful" })).toBeVisible();
  await expect(page.getByText("Your plan:")).toContainText("Creator");
  await shot(page, testInfo, "payment-success");
  await audit(page, "/payment-success", findings);

  // The other device sends the held request within seconds, without a reload; its dashboard then reads
  // what is left of Creator's 999, and stays open to hear the plan's end.
  await expectCounter(other.page, "Done", 1, 15_000);
  await expect(other.page.getByText("Daily limit reached")).toHaveCount(0);
  await shot(other.page, testInfo, "second-device-released");
  await other.page.goto("/dashboard");
  await expect(leftToday(other.page, "993")).toBeVisible();
  await shot(other.page, testInfo, "second-device-creator");

  // /billing: the plan, its renewal and the invoice.
  await page.goto("/billing");
  await expect(page.getByRole("heading", { name: "Current plan: Creator" })).toBeVisible();
  await expect(page.getByText(/^Renews on /)).toBeVisible();
  await expect(page.getByRole("row", { name: /\$9\.99/ })).toBeVisible();
  await shot(page, testInfo, "billing-creator");
  await audit(page, "/billing (Creator)", findings);

  // A second press of a plan button lands in the portal, never a second checkout.
  await page.goto("/pricing");
  await page.getByRole("button", { name: /^Choose Pro/ }).click();
  await expect(page).toHaveURL(/\/stripe\/portal\//);
  await page.getByRole("button", { name: "Cancel at the period's end" }).click();
  await expect(page.getByText(/^Cancels on /)).toBeVisible();
  await page.getByRole("link", { name: "Return to PromptCanvas" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText(/^Cancels on /)).toBeVisible();
  await shot(page, testInfo, "billing-cancels");
  await audit(page, "/billing (cancelling)", findings);

  // The period ends on the stand-in's clock: both devices are back on Free, without a reload.
  await advanceStripeClock(page, 32 * 86_400);
  await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible({ timeout: 15_000 });
  await expect(other.page.getByText("of 5 generations used today")).toBeVisible({ timeout: 15_000 });
  await shot(other.page, testInfo, "second-device-free");

  // Offline, /billing shows the last known plan, labelled so.
  await ensureControlled(page);
  await page.goto("/billing");
  await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible();
  allowOffline("the billing page is opened offline on purpose");
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Current plan: Free" })).toBeVisible();
  await expect(page.getByText(/^Last known plan, as of /)).toBeVisible();
  await expect(page.getByRole("button", { name: "Needs a connection: Creator plan" })).toBeDisabled();
  await shot(page, testInfo, "billing-offline");
  await page.context().setOffline(false);

  await page.goto("/payment-canceled");
  await expect(page.getByText(/nothing was charged/)).toBeVisible();
  await shot(page, testInfo, "payment-canceled");
  await audit(page, "/payment-canceled", findings);
  await other.context.close();
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});
