// axe on /generate signed in, idle and with a result (image, downloads, queue card, toast), in the
// light and the dark theme: the generator adds no accessibility violations.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { audit, signUp, uniqueEmail, type Finding } from "./support/app";
import { generateOne, openGenerator, previewImage } from "./support/generator";

/** Waits for the newest toast titled `title` and for its entrance animation to end. */
async function toastSettled(page: Page, title: string): Promise<void> {
  const toast = page.getByRole("region", { name: "Notices" }).getByText(title).last();
  await expect(toast).toBeVisible();
  await toast.evaluate((el) =>
    Promise.all((el.closest(".alert") ?? el).getAnimations({ subtree: true }).map((a) => a.finished.catch(() => a))),
  );
}

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
    // The image shows as its answer arrives, before the task is stored; the success toast follows and
    // fades in (daisyUI's toast animation): audit once it is fully in.
    await toastSettled(page, "Image generated successfully!");
    await audit(page, "with a result", findings);

    // A second image adds the 'Recent Generations' thumbnails.
    await generateOne(page, "A city skyline at night");
    await expect(previewImage(page, "A city skyline at night")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Recent Generations")).toBeVisible();
    await toastSettled(page, "Image generated successfully!");
    await audit(page, "with recent generations", findings);

    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}
