// The generator's result is where the person looks (issue point 4): at 1280×800 (preview beside the
// form) and 390×844 (stacked), after Generate the progress, then the result, is inside the viewport,
// and the focus stays on the Generate button instead of falling back to the top of the page.
import { expect, test, type Page } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";
import { generateButton, openGenerator, preview, previewImage } from "./support/generator";

/** The element's box overlaps the visible viewport below the sticky top bar. */
async function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const box = el.getBoundingClientRect();
    const top = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
    return box.bottom > top + 40 && box.top < window.innerHeight - 40;
  }, selector);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width}×${viewport.height} the progress and the result are in view after Generate`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await signUp(page, uniqueEmail(`gen-view-${viewport.width}`));
    await openGenerator(page);
    const prompt = `A harbour at dawn seen at ${viewport.width} px`;
    await page.getByLabel("Prompt", { exact: true }).fill(prompt);
    // The person scrolls down to the button, as they would to reach it after the settings.
    await generateButton(page).scrollIntoViewIfNeeded();
    await generateButton(page).click();

    const progress = preview(page).getByText("Generating Your Masterpiece");
    await expect(progress).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => inViewport(page, 'section[aria-label="Preview"]'), { timeout: 5_000 }).toBe(true);
    const box = await progress.boundingBox();
    expect(box, "progress has a box").not.toBeNull();
    expect(box!.y + box!.height).toBeGreaterThan(64);
    expect(box!.y).toBeLessThan(viewport.height);
    await expect(generateButton(page)).toBeFocused();
    await expect(preview(page).getByRole("status")).toHaveText("Generating your image");

    await expect(previewImage(page, prompt)).toBeVisible({ timeout: 30_000 });
    // The result's top (the image) is on screen, not only a sliver of it.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const box = document.querySelector('section[aria-label="Preview"] figure')!.getBoundingClientRect();
          const top = document.querySelector("header")!.getBoundingClientRect().bottom;
          return box.top >= top - 1 && box.top < window.innerHeight / 2;
        }),
      )
      .toBe(true);
    await expect(generateButton(page)).toBeFocused();
    await page.screenshot({ path: test.info().outputPath(`generated-${viewport.width}.png`) });
  });
}
