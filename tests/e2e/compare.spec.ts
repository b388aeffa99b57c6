// Compare (issue 46, decision 156): two images made with different recipes are selected in History and
// compared: the table marks the fields that differ and only those, the slider moves from the keyboard and
// the pointer; the link reopens the same comparison on a second device signed in as the same person; and
// published, the same two are compared from the gallery by a visitor. Screenshots at desktop and phone
// widths land in test-results/screens/compare/; axe runs on each view.
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { accountButton, audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import { generateWith, serverSession } from "./support/generator";
import {
  expectImageLoaded,
  generationDialog,
  historyTile,
  newDevice,
  openHistory,
  ownGenerations,
} from "./support/library";

const PROMPT_A = "A paper boat on a quiet canal";
const PROMPT_B = "A paper boat on a stormy canal";
const SHOTS = "test-results/screens/compare";

/** The table's row of `field`, found by its header cell. */
function fieldRow(page: Page, field: string) {
  return page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${field} ?(Differs|Same)$`) }) });
}

/** The fields of the comparison on screen marked as differing, and those marked the same. */
async function expectMarks(page: Page) {
  for (const field of ["Prompt", "Style", "Seed"]) {
    await expect(fieldRow(page, field), `${field} differs`).toHaveAttribute("data-differs", "");
    await expect(fieldRow(page, field).getByText("Differs")).toBeVisible();
  }
  for (const field of ["Negative prompt", "Quality", "Aspect ratio", "Size", "Model"]) {
    await expect(fieldRow(page, field), `${field} is the same`).not.toHaveAttribute("data-differs", "");
    await expect(fieldRow(page, field).getByText("Same")).toBeVisible();
  }
  await expect(fieldRow(page, "Style").getByRole("cell")).toHaveText(["Watercolor", "Anime"]);
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test("two images with different recipes compared from History, on a second device and from the gallery", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(420_000);
  const email = uniqueEmail("compare");
  await signUp(page, email);
  await generateWith(page, { prompt: PROMPT_A, style: "watercolor", quality: "standard", seed: 11 });
  await generateWith(page, { prompt: PROMPT_B, style: "anime", quality: "standard", seed: 12 });

  // History: a tile's click still opens its large view; "Select to compare" adds the checkboxes.
  await openHistory(page);
  await historyTile(page, PROMPT_A).click();
  await expect(generationDialog(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(generationDialog(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Select to compare" }).click();
  const bar = page.getByRole("toolbar", { name: "Compare" });
  await expect(bar.getByRole("status")).toHaveText("Select 2 to 4 images to compare");
  await page.getByRole("checkbox", { name: `Select: ${PROMPT_A}` }).check();
  // The keyboard ticks the second: Space on the focused checkbox.
  await page.getByRole("checkbox", { name: `Select: ${PROMPT_B}` }).focus();
  await page.keyboard.press("Space");
  await expect(bar.getByRole("status")).toHaveText("2 selected");
  await bar.getByRole("link", { name: "Compare" }).click();

  await expect(page).toHaveURL(/\/compare\?ids=/);
  await expect(page.getByRole("heading", { name: "Compare", level: 1 })).toBeVisible();
  const link = new URL(page.url());
  // The order picked is the comparison's: A first.
  await expect(page.getByRole("figure", { name: "Image A" })).toContainText(PROMPT_A);
  await expectImageLoaded(page.getByRole("figure", { name: "Image A" }).getByRole("img"), [1024, 1024]);
  await expectImageLoaded(page.getByRole("figure", { name: "Image B" }).getByRole("img"), [1024, 1024]);
  await expectMarks(page);
  const findings: Finding[] = [];
  await audit(page, "/compare side by side", findings);
  await shoot(page, "desktop-side-by-side");

  // The slider: the keyboard moves it, and so does the pointer anywhere on the picture.
  await page.getByRole("button", { name: "Slider" }).click();
  const slider = page.getByRole("slider", { name: "Slider between A and B" });
  await expect(slider).toHaveAttribute("aria-valuetext", "50% of A shown, 50% of B");
  await slider.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
  await expect(slider).toHaveAttribute("aria-valuetext", "55% of A shown, 45% of B");
  await expect(page.locator("[data-slider-left]")).toHaveAttribute(
    "style",
    /inset\(0px 45% 0px 0px\)|inset\(0 45% 0 0\)/,
  );
  const box = (await slider.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.2, box.y + box.height / 2);
  await expect.poll(async () => Number(await slider.inputValue())).toBeLessThan(30);
  await audit(page, "/compare slider", findings);
  await shoot(page, "desktop-slider");

  // A phone's width: no sideways scroll, and the table's columns fit.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Side by side" }).click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await audit(page, "/compare at 390 px", findings);
  await shoot(page, "phone-side-by-side");
  await page.getByRole("button", { name: "Slider" }).click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shoot(page, "phone-slider");
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);

  // The link, on another device signed in as the same person: the same two, from the library there.
  const other = await newDevice(browser, testInfo);
  await other.page.goto("/auth");
  await signIn(other.page, email);
  await expect(accountButton(other.page, email)).toBeVisible();
  await other.page.goto(`${link.pathname}${link.search}`);
  await expect(other.page.getByRole("figure", { name: "Image A" })).toContainText(PROMPT_A, { timeout: 30_000 });
  await expect(other.page.getByRole("figure", { name: "Image B" })).toContainText(PROMPT_B, { timeout: 30_000 });
  await expectImageLoaded(other.page.getByRole("figure", { name: "Image B" }).getByRole("img"), [1024, 1024]);
  await expectMarks(other.page);
  await other.context.close();

  // Published, the two are compared from the gallery by a visitor.
  for (const prompt of [PROMPT_A, PROMPT_B]) {
    await page.goto("/history");
    await historyTile(page, prompt).click();
    const dialog = generationDialog(page);
    await dialog.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(dialog.getByRole("button", { name: "Unpublish", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
  }
  // Both are in the gallery once the server has published them (the image check runs first).
  const owner = await serverSession(page, email);
  await expect
    .poll(async () => (await ownGenerations(page.request, owner)).filter((r) => r.is_public).length, {
      timeout: 60_000,
    })
    .toBe(2);
  const visitor = await newDevice(browser, testInfo);
  await visitor.page.goto(`/gallery?q=${encodeURIComponent("paper boat canal")}`);
  const grid = visitor.page.getByRole("list", { name: "Published images" });
  await expect(grid.getByRole("button", { name: `Open: ${PROMPT_B}` })).toBeVisible();
  await visitor.page.getByRole("button", { name: "Select to compare" }).click();
  await grid.getByRole("checkbox", { name: `Select: ${PROMPT_A}` }).check();
  await grid.getByRole("checkbox", { name: `Select: ${PROMPT_B}` }).check();
  await visitor.page.getByRole("toolbar", { name: "Compare" }).getByRole("link", { name: "Compare" }).click();
  await expect(visitor.page.getByRole("figure", { name: "Image A" })).toContainText("Gallery");
  await expectImageLoaded(visitor.page.getByRole("figure", { name: "Image A" }).getByRole("img"), [1024, 1024]);
  await expectMarks(visitor.page);
  await visitor.context.close();
});
