// The signed-in product at a phone's (390 px), a tablet's (768 px) and a desktop's (1280 px) width: each
// main page fits the width with nothing cut off (the pricing table shows every column), a notice stays on
// the screen, every dialog fits, and axe finds no violation on the pages or the open dialogs. Screenshots
// land in test-results/screens/phone/ for a person to look at.
import { expect, test, type Locator, type Page } from "./support/test";
import { animationsEnded, audit, signUp, uniqueEmail, type Finding } from "./support/app";
import { toasts } from "./support/generator";
import { generateImages, generationDialog, openHistory, openLargeView } from "./support/library";

const SIZES = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
];
const PAGES = ["/generate", "/history", "/gallery", "/pricing", "/account"];

async function settled(page: Page) {
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Loading…$|Checking/ })).toHaveCount(0);
  // Colour and layout transitions end before anything is measured or shot.
  await page.waitForTimeout(350);
}

async function shot(page: Page, name: string, fullPage = false) {
  await page.screenshot({ path: `test-results/screens/phone/${name}.png`, fullPage });
}

/**
 * Nothing on the page is wider than the window: no sideways scroll, so nothing sits off its right edge.
 * A failure names the elements that stick out.
 */
async function fitsWidth(page: Page, where: string) {
  const { overflow, culprits } = await page.evaluate(() => {
    const w = window.innerWidth;
    const out = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > w + 0.5 && el.getClientRects().length > 0)
      .slice(-4)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} → ${el.getBoundingClientRect().right}`);
    return { overflow: document.documentElement.scrollWidth - w, culprits: out };
  });
  expect(overflow, `${where} scrolls sideways: ${culprits.join("; ")}`).toBeLessThanOrEqual(0);
}

/** The box lies wholly inside the window, once every finite animation (a notice growing in) has ended. */
async function onScreen(page: Page, box: Locator, what: string) {
  await animationsEnded(page);
  const b = (await box.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect(b, `${what} has a box`).toBeTruthy();
  expect(b.x, `${what}'s left edge`).toBeGreaterThanOrEqual(0);
  expect(b.y, `${what}'s top edge`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${what}'s right edge`).toBeLessThanOrEqual(width + 0.5);
  expect(b.y + b.height, `${what}'s bottom edge`).toBeLessThanOrEqual(height + 0.5);
}

/** An open dialog's box fits the window and scrolls inside itself when its content is taller. */
async function dialogFits(page: Page, dialog: Locator, what: string) {
  await expect(dialog).toBeVisible();
  await page.waitForTimeout(350); // the opening animation
  await onScreen(page, dialog.locator(".modal-box"), what);
  const clipped = await dialog
    .locator(".modal-box")
    .evaluate((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "auto");
  expect(clipped, `${what} cuts its content off sideways`).toBe(false);
}

for (const size of SIZES) {
  test(`signed in at ${size.width} px: pages, notices and dialogs fit, and axe finds nothing`, async ({ page }) => {
    test.setTimeout(240_000);
    const w = size.width;
    await page.setViewportSize(size);
    const findings: Finding[] = [];
    await signUp(page, uniqueEmail(`phone-${w}`));

    for (const path of PAGES) {
      await page.goto(path);
      await settled(page);
      await fitsWidth(page, path);
      await shot(page, `${w}${path.replace("/", "-")}`, true);
      await audit(page, `${path} at ${w} px`, findings);
    }

    // The pricing table shows every plan's column without scrolling sideways.
    await page.goto("/pricing");
    await settled(page);
    const table = page.getByRole("table");
    await expect(table.getByRole("columnheader")).toHaveCount(4);
    const cut = await table.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth);
    expect(cut, "the comparison table is cut off").toBeLessThanOrEqual(0);
    await table.scrollIntoViewIfNeeded();
    await shot(page, `${w}-pricing-table`);
    // Nothing in a plan card sticks out of it (a price or a feature wider than a narrow card).
    const spills = await page.getByRole("region", { name: "Plans", exact: true }).evaluate((section) =>
      [...section.querySelectorAll(":scope li.card")].flatMap((card) => {
        const edge = card.getBoundingClientRect().right;
        return [...card.querySelectorAll("*")]
          .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
          .map((el) => `${el.textContent?.trim().slice(0, 30)}`);
      }),
    );
    expect(spills, "plan card content sticking out").toEqual([]);

    // A notice stays on the screen.
    const prompt = `a red fishing boat at dawn ${w}`;
    await generateImages(page, [prompt]);
    const notice = toasts(page)
      .getByText("Image generated successfully!")
      .locator("xpath=ancestor::div[contains(@class,'alert')]");
    await expect(notice).toBeVisible();
    await onScreen(page, notice, "the success notice");
    await shot(page, `${w}-generate-notice`);

    // The large view and its delete question fit; a notice over it stays on screen.
    await openHistory(page);
    const dialog = await openLargeView(page, prompt);
    await dialogFits(page, dialog, "the large view");
    await shot(page, `${w}-history-dialog`);
    await audit(page, `the large view at ${w} px`, findings);
    await dialog.getByRole("button", { name: "Publish", exact: true }).click();
    const published = toasts(page).getByText("Published to the gallery");
    await expect(published).toBeVisible();
    await onScreen(page, published.locator("xpath=ancestor::div[contains(@class,'alert')]"), "the published notice");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(dialog.getByRole("group", { name: "Confirm delete" })).toBeVisible();
    await dialogFits(page, dialog, "the large view asking to delete");
    await shot(page, `${w}-history-dialog-delete`);
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect(generationDialog(page)).toBeHidden();

    // The gallery's large view.
    await page.goto("/gallery");
    await settled(page);
    await page
      .getByRole("list", { name: "Published images" })
      .getByRole("button", { name: `Open: ${prompt}`, exact: true })
      .click();
    const shown = page.getByRole("dialog", { name: "Published image" });
    await dialogFits(page, shown, "the gallery's large view");
    await shot(page, `${w}-gallery-dialog`);
    await audit(page, `the gallery's large view at ${w} px`, findings);
    await page.keyboard.press("Escape");
    await expect(shown).toBeHidden();

    // The account page's questions.
    await page.goto("/account");
    await settled(page);
    for (const [opener, title] of [
      ["Delete account…", "Delete your account?"],
      ["Clear this device's copy", "Clear this device's copy?"],
    ]) {
      await page.getByRole("button", { name: opener, exact: true }).click();
      const question = page.getByRole("dialog", { name: title });
      await dialogFits(page, question, title);
      await shot(page, `${w}-account-${opener.split(" ")[0].toLowerCase()}`);
      await audit(page, `${title} at ${w} px`, findings);
      await question.getByRole("button", { name: "Cancel" }).click();
      await expect(question).toBeHidden();
    }

    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}
