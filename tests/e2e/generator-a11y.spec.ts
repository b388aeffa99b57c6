// axe on /generate signed in, idle and with a result (image, downloads, queue card, toast), in the
// light and the dark theme: the generator adds no accessibility violations.
import { expect, test } from "./support/test";
import { audit, signUp, uniqueEmail, type Finding } from "./support/app";
import { generateOne, openGenerator, previewImage } from "./support/generator";

for (const theme of ["light", "dark"] as const) {
  test(`axe finds no violations on /generate, idle and with a result, in the ${theme} theme`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.addInitScript((t) => localStorage.setItem("promptcanvas.theme", t), theme);
    await signUp(page, uniqueEmail(`gen-axe-${theme}`));
    await openGenerator(page);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expect(page.getByText("Ready to Create")).toBeVisible();
    const findings: Finding[] = [];
    await audit(page, "idle", findings);

    const prompt = "A quiet forest path in autumn";
    await generateOne(page, prompt);
    await expect(previewImage(page, prompt)).toBeVisible({ timeout: 30_000 });
    await audit(page, "with a result", findings);

    // A second image adds the 'Recent Generations' thumbnails.
    await generateOne(page, "A city skyline at night");
    await expect(previewImage(page, "A city skyline at night")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Recent Generations")).toBeVisible();
    await audit(page, "with recent generations", findings);

    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}
