// A person's images on every device (issue: "This image is not stored on this device yet" on a second
// browser): device B, a fresh browser context signed in as the person who generated on device A, shows
// the images in the generator, History and Saved and downloads them; its offline library keeps every
// thumbnail, the saved item's full image and the newest within the budget set on /account, so those
// open large offline; an item outside the budget says it is not on this device, and opens in the same
// view once the connection returns.
import { expect, test } from "./support/test";
import { signIn, signUp, uniqueEmail } from "./support/app";
import { preview, previewImage, serverSession, toasts } from "./support/generator";
import {
  downloadObject,
  expectImageLoaded,
  generateImages,
  generationDialog,
  historyTile,
  newDevice,
  openHistory,
  openLargeView,
  ownGenerations,
  userHeaders,
} from "./support/library";

const PROMPTS = [
  "A lighthouse on a basalt cliff at dawn",
  "A paper boat on a rain puddle",
  "A fox asleep under a birch tree",
  "A glass greenhouse in falling snow",
] as const;
const [SAVED, OUTSIDE, , NEWEST] = PROMPTS;
const NOT_ON_DEVICE = "This image is not on this device yet. It opens when you are back online.";

test("device B shows, downloads and keeps offline the images made on device A", async ({
  page,
  browser,
  allowOffline,
}, testInfo) => {
  allowOffline("the journey goes offline on purpose");
  test.setTimeout(240_000);
  const email = uniqueEmail("every-device");
  await signUp(page, email);
  await generateImages(page, PROMPTS);
  await openHistory(page);
  const dialogA = await openLargeView(page, SAVED);
  await dialogA.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toasts(page).getByText("Saved", { exact: true })).toBeVisible();
  const owner = await serverSession(page, email);
  await expect
    .poll(async () => (await ownGenerations(page.request, owner)).find((r) => r.prompt === SAVED)?.is_saved)
    .toBe(true);
  const rows = await ownGenerations(page.request, owner);
  const sizeOf = async (prompt: string) => {
    const row = rows.find((r) => r.prompt === prompt)!;
    return (await downloadObject(page.request, owner.api, userHeaders(owner), row.image_path)).body.length;
  };

  // Device B: a fresh browser context, signed in as the same person.
  const b = await newDevice(browser, testInfo);
  await b.page.goto("/auth");
  await signIn(b.page, email);
  await expect(b.page.getByRole("button", { name: `Account menu for ${email}` })).toBeVisible();

  // The generator: the newest image, its downloads, and the Recent thumbnails.
  await b.page.goto("/generate");
  await expectImageLoaded(previewImage(b.page, NEWEST));
  await expect(preview(b.page).getByText(/not (stored )?on this device/)).toHaveCount(0);
  for (const prompt of PROMPTS.slice(0, 3)) {
    await expectImageLoaded(
      preview(b.page)
        .getByRole("button", { name: `Show: ${prompt}` })
        .locator("img"),
    );
  }
  const download = b.page.waitForEvent("download");
  await preview(b.page).getByRole("button", { name: "Download PNG" }).click();
  expect((await download).suggestedFilename()).toMatch(/\.png$/);

  // History and Saved: every tile shows its picture; the large view downloads.
  await openHistory(b.page);
  for (const prompt of PROMPTS) {
    await expect(historyTile(b.page, prompt).locator("[data-tile-image]")).toHaveCount(1, { timeout: 20_000 });
  }
  const dialogB = await openLargeView(b.page, NEWEST);
  await expectImageLoaded(dialogB.getByRole("img", { name: NEWEST }));
  const fromDialog = b.page.waitForEvent("download");
  await dialogB.getByRole("button", { name: "Download JPG" }).click();
  expect((await fromDialog).suggestedFilename()).toMatch(/\.jpe?g$/);
  await b.page.keyboard.press("Escape");
  await b.page.goto("/my-generations");
  await expect(
    b.page.getByRole("button", { name: `Open: ${SAVED}`, exact: true }).locator("[data-tile-image]"),
  ).toHaveCount(1, { timeout: 20_000 });

  // A budget that holds the newest item's full image and not one more.
  const budgetMb = ((await sizeOf(NEWEST)) + Math.min(await sizeOf(OUTSIDE), await sizeOf(PROMPTS[2])) / 2) / 1e6;
  await b.page.goto("/account");
  await b.page.getByLabel("Offline budget for images not saved (MB)").fill(budgetMb.toFixed(4));
  await b.page.getByRole("button", { name: "Set budget" }).click();
  await expect(toasts(b.page).getByText("Offline budget set")).toBeVisible();
  // The value set is the one typed (the field is not editable until it shows the current budget).
  await expect(
    toasts(b.page).getByText(`${Number(budgetMb.toFixed(4)).toFixed(1)} MB for images not saved.`),
  ).toBeVisible();
  await expect(b.page.getByTestId("offline-kept")).toContainText("4 of 4 thumbnails; 2 full images", {
    timeout: 60_000,
  });
  await expect(b.page.getByTestId("offline-kept")).toContainText("1 of 1 saved");
  await b.page.screenshot({ path: testInfo.outputPath("account-offline-library.png"), fullPage: true });

  // Offline: the saved item and the newest open large; one outside the budget says so.
  await openHistory(b.page);
  await b.context.setOffline(true);
  for (const prompt of [SAVED, NEWEST]) {
    const dialog = await openLargeView(b.page, prompt);
    await expectImageLoaded(dialog.getByRole("img", { name: prompt }));
    await b.page.keyboard.press("Escape");
    await expect(generationDialog(b.page)).toHaveCount(0);
  }
  for (const prompt of PROMPTS) {
    await expect(historyTile(b.page, prompt).locator("[data-tile-image]")).toHaveCount(1);
  }
  const outside = await openLargeView(b.page, OUTSIDE);
  await expect(outside.getByRole("alert")).toHaveText(NOT_ON_DEVICE);
  await b.page.screenshot({ path: testInfo.outputPath("offline-outside-budget.png") });

  // Back online: the same view fills itself in.
  await b.context.setOffline(false);
  await expectImageLoaded(outside.getByRole("img", { name: OUTSIDE }));
  await b.context.close();
});
