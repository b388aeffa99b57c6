// The generator on /generate (issue 9, "Verified by"): a built-in-engine image shown with its prompt
// as alt text and downloaded in three formats at its real size; the free tier's sixth generation (refused at once, nothing sent);
// every docs/spec.md §5 message the generator shows. Each journey signs up its own account.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "./support/test";
import { DIMENSIONS, NEGATIVE_PROMPT_MAX_CHARS, PROMPT_MAX_CHARS } from "#shared/vocabulary/generation.ts";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { TIER_DAILY_QUOTA } from "#shared/vocabulary/tiers.ts";
import { signUp, uniqueEmail } from "./support/app";
import { expectImageLoaded } from "./support/library";
import {
  expectCounter,
  generateButton,
  generateOne,
  imageInfo,
  openGenerator,
  previewImage,
  serverLimits,
  serverRows,
  serverSession,
  toasts,
} from "./support/generator";

const FORMATS = [
  { button: "Download PNG", ext: "png", format: "png" },
  { button: "Download JPG", ext: "jpg", format: "jpeg" },
  { button: "Download WebP", ext: "webp", format: "webp" },
] as const;

/** Downloads the shown image in every format and checks each file's own header. */
async function expectDownloads(page: Page, outDir: string, size: { width: number; height: number }) {
  for (const f of FORMATS) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: f.button }).click(),
    ]);
    const name = download.suggestedFilename();
    expect(name, `${f.button} file name`).toMatch(new RegExp(`^[a-z0-9-]+\\.${f.ext}$`));
    const path = `${outDir}/${name}`;
    await download.saveAs(path);
    const info = imageInfo(await readFile(path));
    expect({ button: f.button, ...info }).toEqual({ button: f.button, format: f.format, ...size });
  }
}

test("a built-in-engine image shows with its prompt and downloads as PNG, JPG and WebP at its size", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail("gen-image"));
  await openGenerator(page);
  const fromNetwork = await storageDownloads(page);

  const square = "A lighthouse on a cliff at dusk";
  await expect(page.getByRole("radio", { name: /^1:1/ })).toBeChecked();
  await generateOne(page, square);
  const img = previewImage(page, square);
  await expect(img).toBeVisible({ timeout: 30_000 });
  // The <img> has its size before its bytes: what was decoded is read once the decode is done.
  await expectImageLoaded(img, [1024, 1024]);
  await expect.soft(toasts(page).getByText("Image generated successfully!")).toBeVisible();
  await expect(page.getByRole("button", { name: "Download PNG" })).toBeEnabled();
  await expectDownloads(page, testInfo.outputPath("square"), DIMENSIONS["1:1"]);
  // The file is named from the prompt.
  const [named] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download PNG" }).click(),
  ]);
  expect(named.suggestedFilename()).toBe("a-lighthouse-on-a-cliff-at-dusk.png");

  const wide = "A harbour town at noon, wide view";
  // The radio is visually hidden inside its label card: a person clicks the card.
  await page
    .locator("label")
    .filter({ has: page.getByRole("radio", { name: /^16:9/ }) })
    .click();
  await expect(page.getByRole("radio", { name: /^16:9/ })).toBeChecked();
  await generateOne(page, wide);
  const wideImg = previewImage(page, wide);
  await expect(wideImg).toBeVisible({ timeout: 30_000 });
  await expectImageLoaded(wideImg, [1536, 1024]);
  await expectDownloads(page, testInfo.outputPath("wide"), DIMENSIONS["16:9"]);
  // Each made image came over the network once: the preview's <img>, the recent grid's and the queue's
  // fetch (which keeps the bytes) share one answer through the HTTP cache (decision 171).
  expect(fromNetwork()).toEqual(new Map([...fromNetwork()].map(([path]) => [path, 1])));
  expect(fromNetwork().size).toBe(2);
});

/**
 * Counts, by object path, the requests for signed storage URLs that went over the network: a request the
 * HTTP cache answered (or joined to one already under way) has no network answer of its own, and a
 * revalidation's 304 counts as one.
 */
async function storageDownloads(page: Page): Promise<() => Map<string, number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const paths = new Map<string, string>();
  const network = new Set<string>();
  cdp.on("Network.requestWillBeSent", (e) => {
    const path = /\/storage\/v1\/object\/sign\/([^?]+)/.exec(e.request.url)?.[1];
    if (path) paths.set(e.requestId, path);
  });
  // Sent only for what reached the network (before or after the request's other events).
  cdp.on("Network.responseReceivedExtraInfo", (e) => network.add(e.requestId));
  return () => {
    const counts = new Map<string, number>();
    for (const [id, path] of paths) counts.set(path, (counts.get(path) ?? 0) + (network.has(id) ? 1 : 0));
    return counts;
  };
}

test("a free user with 0 left sees the spec's sentence and Upgrade Now at once, nothing is sent, and a held request waits", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("gen-quota");
  await signUp(page, email);
  await openGenerator(page);

  const quota = TIER_DAILY_QUOTA.free;
  for (let i = 1; i <= quota; i++) {
    const prompt = `Quota test image number ${i}`;
    await generateOne(page, prompt);
    await expect(previewImage(page, prompt)).toBeVisible({ timeout: 30_000 });
    await expectCounter(page, "Done", i);
  }
  const limitAlert = page.getByRole("alert").filter({ hasText: "Daily limit reached" }).first();
  await expect(limitAlert).toContainText(/\d{2}:\d{2}:\d{2}|Resetting\.\.\./, { timeout: 15_000 });

  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/functions/v1/generate-image")) sent.push(r.url());
  });
  await generateOne(page, "Quota test image number 6");
  const notice = page.getByRole("alert").filter({ hasText: VALIDATION_MESSAGES.dailyLimit });
  await expect(notice).toBeVisible({ timeout: 5_000 });
  await expect(notice.getByRole("link", { name: "Upgrade Now" })).toHaveAttribute("href", "/pricing");
  // Holding the request for the reset is offered, never done by itself.
  await expect(notice.getByRole("button", { name: /^Hold it until the reset/ })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(sent).toEqual([]);
  await expectCounter(page, "Queued", 0, 1_000);
  await expect(previewImage(page, "Quota test image number 6")).toHaveCount(0);

  // Chosen, the request is queued to wait for the reset, and still nothing is sent.
  await notice.getByRole("button", { name: /^Hold it until the reset/ }).click();
  await expect(page.getByText("Held 1 task until the daily reset")).toBeVisible({ timeout: 5_000 });
  await expectCounter(page, "Queued", 1, 5_000);
  await page.waitForTimeout(1_000);
  expect(sent).toEqual([]);

  const server = await serverSession(page, email);
  expect((await serverRows(page.request, server)).length).toBe(quota);
  const limits = await serverLimits(page.request, server);
  expect({ today: limits.generations_today, remaining: limits.remaining }).toEqual({ today: quota, remaining: 0 });
});

test.describe("docs/spec.md §5 messages", () => {
  test("blank prompt, length limits, seed and reference image", async ({ page }) => {
    await signUp(page, uniqueEmail("gen-valid"));
    await openGenerator(page);
    const prompt = page.getByLabel("Prompt", { exact: true });

    // Blank (and whitespace-only) prompts disable Generate and, once edited, say why.
    await expect(generateButton(page)).toBeDisabled();
    await prompt.fill("   ");
    await expect(generateButton(page)).toBeDisabled();
    await expect(page.getByText(VALIDATION_MESSAGES.promptRequired)).toBeVisible();

    // Typing past 500 characters: the field stops at the limit or says so; either way no longer prompt is sent.
    await prompt.fill("x".repeat(PROMPT_MAX_CHARS + 1));
    const kept = (await prompt.inputValue()).length;
    if (kept > PROMPT_MAX_CHARS) await expect(page.getByText(VALIDATION_MESSAGES.promptTooLong)).toBeVisible();
    else await expect(page.getByText("0 characters left", { exact: true })).toBeVisible();
    test.info().annotations.push({ type: "typed prompt kept", description: String(kept) });

    const negative = page.getByLabel("Negative prompt");
    await negative.fill("y".repeat(NEGATIVE_PROMPT_MAX_CHARS + 1));
    const keptNegative = (await negative.inputValue()).length;
    if (keptNegative > NEGATIVE_PROMPT_MAX_CHARS) {
      await expect(page.getByText(VALIDATION_MESSAGES.negativePromptTooLong)).toBeVisible();
    } else expect(keptNegative).toBe(NEGATIVE_PROMPT_MAX_CHARS);
    test.info().annotations.push({ type: "typed negative prompt kept", description: String(keptNegative) });

    // The seed is an integer: a fraction is refused with a message and nothing is queued.
    await prompt.fill("A seed test");
    await negative.fill("");
    await page.getByLabel("Seed").fill("12.5");
    await generateButton(page).click();
    await expect(page.getByText(/seed must be a whole number/i)).toBeVisible();
    await expect(page.getByRole("list", { name: "Queued tasks" })).toHaveCount(0);

    // A text file is not a reference image.
    await page.getByLabel("Reference image").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not an image"),
    });
    await expect(page.getByText(VALIDATION_MESSAGES.notAnImage)).toBeVisible();
  });

  test("a prompt over 500 characters from a generator link is refused with the spec's message", async ({ page }) => {
    await signUp(page, uniqueEmail("gen-long"));
    await page.goto(`/generate?prompt=${"z".repeat(PROMPT_MAX_CHARS + 20)}`);
    const prompt = page.getByLabel("Prompt", { exact: true });
    await expect(prompt).toBeVisible();
    // The link's prompt is filled in once the page has read it (it may be after the field shows).
    await expect(prompt).not.toHaveValue("");
    const length = (await prompt.inputValue()).length;
    test.info().annotations.push({ type: "link prompt length", description: String(length) });
    if (length > PROMPT_MAX_CHARS) {
      if (await generateButton(page).isEnabled()) await generateButton(page).click();
      await expect(page.getByText(VALIDATION_MESSAGES.promptTooLong)).toBeVisible();
      await expect(page.getByRole("list", { name: "Queued tasks" })).toHaveCount(0);
    } else expect(length).toBe(PROMPT_MAX_CHARS);
  });

  test("signed out, Generate asks to sign in", async ({ page }) => {
    await openGenerator(page);
    await page.getByLabel("Prompt", { exact: true }).fill("A fox in the snow");
    await generateButton(page).click();
    await expect(page.getByRole("alert").filter({ hasText: VALIDATION_MESSAGES.signInToGenerate })).toBeVisible();
  });
});
