// A new person's first hour on the generator, on two devices: a WebP reference image is redrawn on the
// device and drawn with (a file that cannot be read is refused at once, taking the old one with it);
// /generate first shows the saved default style, quality and ratio, never Standard first; the welcome
// tour finished on one device is not shown on the next; concurrency can be set before the first batch
// with the queue card still hidden; an identical re-run asks first. axe finds nothing on /generate.
import type { Browser, TestInfo } from "@playwright/test";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { expect, test, type Page } from "./support/test";
import { PASSWORD, audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import {
  dexieTasks,
  generateButton,
  generateOne,
  openGenerator,
  previewImage,
  serverSession,
  toasts,
} from "./support/generator";

/** A browser with nothing remembered: no onboarding flag, no session. */
async function freshDevice(browser: Browser, testInfo: TestInfo) {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    storageState: { cookies: [], origins: [] },
  });
  return { context, page: await context.newPage() };
}

/** A small WebP drawn by the browser itself (the server decodes PNG, JPEG and GIF only). */
async function webpBytes(page: Page): Promise<Buffer> {
  const bytes = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 64;
    canvas.height = 48;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#1e6fd9";
    ctx.fillRect(0, 0, 64, 48);
    ctx.fillStyle = "#f2c14e";
    ctx.fillRect(16, 12, 32, 24);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/webp", 0.9));
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  const buffer = Buffer.from(bytes);
  expect(buffer.subarray(8, 12).toString("latin1"), "the browser encoded a WebP").toBe("WEBP");
  return buffer;
}

const referenceField = (page: Page) => page.getByLabel("Reference image", { exact: true });
const referenceThumb = (page: Page) => page.getByRole("img", { name: /^Reference image: / });
const refusal = (page: Page) => page.getByRole("alert").filter({ hasText: VALIDATION_MESSAGES.notAnImage });

test("a WebP reference is redrawn on the device and drawn with; an unreadable file is refused at once", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail("first-webp"));
  await openGenerator(page);

  await referenceField(page).setInputFiles({
    name: "photo.webp",
    mimeType: "image/webp",
    buffer: await webpBytes(page),
  });
  await expect(referenceThumb(page)).toHaveAttribute("alt", "Reference image: photo.webp");
  expect(await referenceThumb(page).getAttribute("src")).toMatch(/^data:image\/jpeg;base64,/);

  const prompt = "A yellow window in a blue wall";
  await generateOne(page, prompt);
  await expect(previewImage(page, prompt)).toBeVisible({ timeout: 45_000 });
  await expect(toasts(page).getByText("Image generated successfully!").first()).toBeVisible();
  await expect(page.getByText("Connection Failed")).toHaveCount(0);

  // Bytes no browser decodes, named as a WebP: refused in the field, and the previous image goes too.
  const broken = { name: "broken.webp", mimeType: "image/webp", buffer: Buffer.from("RIFF\0\0\0\0WEBPnothing") };
  await referenceField(page).setInputFiles(broken);
  await expect(refusal(page)).toBeVisible();
  await expect(referenceThumb(page)).toHaveCount(0);

  // Reset clears the message.
  await page.getByRole("button", { name: "Reset" }).click();
  await expect(refusal(page)).toHaveCount(0);

  // So does a valid "Open an image" (a picture with no recipe becomes the reference).
  await referenceField(page).setInputFiles(broken);
  await expect(refusal(page)).toBeVisible();
  const icon = await (await page.request.get("/icons/icon-192.png")).body();
  await page.getByLabel("Image to open").setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: icon });
  await expect(referenceThumb(page)).toHaveAttribute("alt", "Reference image: icon.png");
  await expect(refusal(page)).toHaveCount(0);
});

test("/generate first shows the saved default style, quality and ratio, and never flips to them", async ({ page }) => {
  await signUp(page, uniqueEmail("first-prefs"));
  await page.goto("/account");
  await page.getByLabel("Default style").selectOption("anime");
  await page.getByLabel("Default quality").selectOption("ultra");
  await page.getByLabel("Default aspect ratio").selectOption("16:9");
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(toasts(page).getByText("Preferences updated successfully")).toBeVisible();

  // Every frame from the first one records the quality and ratio checked while the three fields are shown.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __shown: string[] }).__shown = seen;
    const look = () => {
      const group = document.querySelector<HTMLElement>('[data-testid="saved-defaults"]');
      if (group && getComputedStyle(group).visibility === "visible") {
        const checked = [...group.querySelectorAll<HTMLInputElement>("input[type=radio]:checked")].map((r) => r.value);
        const style = group.querySelector('button[aria-pressed="true"]')?.getAttribute("aria-label") ?? "";
        const shown = [...checked, style].join(" ");
        if (seen.at(-1) !== shown) seen.push(shown);
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await page.goto("/generate");
  await expect(page.getByRole("radio", { name: /^Ultra/ })).toBeChecked();
  await page.waitForTimeout(1_500);
  const shown = await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);
  expect(shown).toEqual(["ultra 16:9 Anime"]);
});

test("the welcome tour finished on one device is not shown on the next; a new person still sees it", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("first-tour");
  const desktop = await freshDevice(browser, testInfo);
  await signUp(desktop.page, email);
  await desktop.page.goto("/generate");
  const tour = desktop.page.getByRole("dialog", { name: "Welcome to PromptCanvas" });
  await expect(tour).toBeVisible({ timeout: 5_000 });
  await tour.getByRole("button", { name: "Skip" }).click();
  await expect(tour).toBeHidden();
  // The account keeps it (GoTrue's user_metadata), read here with the person's own session.
  const session = await serverSession(desktop.page, email, PASSWORD);
  await expect
    .poll(async () => {
      const res = await desktop.page.request.get(`${session.api}/auth/v1/user`, {
        headers: { apikey: session.anonKey, Authorization: `Bearer ${session.token}` },
      });
      return ((await res.json()) as { user_metadata?: Record<string, unknown> }).user_metadata?.onboarding_completed;
    })
    .toBe(true);

  const phone = await freshDevice(browser, testInfo);
  await phone.page.goto("/auth");
  await signIn(phone.page, email);
  await expect(phone.page.getByRole("button", { name: `Account menu for ${email}` })).toBeVisible();
  await phone.page.goto("/generate");
  await expect(phone.page.getByLabel("Prompt", { exact: true })).toBeVisible();
  await phone.page.waitForTimeout(2_500);
  await expect(phone.page.getByRole("dialog")).toHaveCount(0);
  expect(await phone.page.evaluate(() => localStorage.getItem("onboarding_completed"))).toBe("true");

  // Someone who never finished it is still welcomed on their first load.
  const other = await freshDevice(browser, testInfo);
  await signUp(other.page, uniqueEmail("first-tour-new"));
  await other.page.goto("/generate");
  await expect(other.page.getByRole("dialog", { name: "Welcome to PromptCanvas" })).toBeVisible({ timeout: 5_000 });

  for (const device of [desktop, phone, other]) await device.context.close();
});

test("concurrency is set in the batch settings before the first batch, with the queue card hidden", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail("first-concurrency"));
  await openGenerator(page);
  const queueCard = page.getByRole("heading", { name: "Generation Queue" });
  await expect(queueCard).toHaveCount(0);
  await page.getByRole("checkbox", { name: "Batch mode" }).check();
  await expect(page.getByLabel("Images drawn at once", { exact: true })).toHaveText("2");
  await page.getByRole("button", { name: "Draw fewer images at once" }).click();
  await expect(page.getByLabel("Images drawn at once", { exact: true })).toHaveText("1");
  await expect(page.getByRole("button", { name: "Draw fewer images at once" })).toBeDisabled();
  await expect(queueCard).toHaveCount(0);
  const findings: Finding[] = [];
  await audit(page, "batch settings", findings);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);

  await page.getByLabel("Prompt", { exact: true }).fill("A paper boat on a pond");
  await page.getByRole("slider", { name: "Batch count" }).fill("2");
  await page.getByRole("button", { name: "Queue 2 tasks" }).click();
  await expect(queueCard).toBeVisible();
  await expect(page.getByLabel("Concurrency", { exact: true })).toHaveText("1");
});

test("an identical re-run asks first: Open it spends nothing, Generate anyway makes it again", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail("first-rerun"));
  await openGenerator(page);
  const prompt = "A lantern on a snowy bench";
  await page.getByLabel("Seed").fill("777");
  await generateOne(page, prompt);
  await expect(previewImage(page, prompt)).toBeVisible({ timeout: 45_000 });
  await expect.poll(async () => (await dexieTasks(page)).filter((t) => t.status === "done").length).toBe(1);

  await generateButton(page).click();
  const asked = page.getByRole("dialog", { name: "You already made this image" });
  await expect(asked).toBeVisible();
  const findings: Finding[] = [];
  await audit(page, "identical re-run dialog", findings);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  await asked.getByRole("button", { name: "Open it" }).click();
  await expect(asked).toHaveCount(0);
  await expect(previewImage(page, prompt)).toBeVisible();
  expect(await dexieTasks(page)).toHaveLength(1);

  await generateButton(page).click();
  await asked.getByRole("button", { name: "Generate anyway" }).click();
  await expect.poll(async () => (await dexieTasks(page)).filter((t) => t.status === "done").length).toBe(2);
});
