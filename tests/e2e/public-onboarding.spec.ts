// The onboarding dialog for a first-time visitor: it opens about a second after the first load,
// passes axe, and once skipped or finished it never opens again.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./support/test";

// A first visit: nothing remembered in this browser.
test.use({ storageState: { cookies: [], origins: [] } });

test("opens once for a first-time visitor, and Skip keeps it closed for good", async ({ page }) => {
  await page.goto("/");
  const opened = Date.now();
  const dialog = page.getByRole("dialog", { name: "Welcome to PromptCanvas" });
  await expect(dialog).toBeVisible({ timeout: 5_000 });
  expect(Date.now() - opened).toBeGreaterThanOrEqual(700);
  const axe = await new AxeBuilder({ page }).include("dialog").analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await dialog.getByRole("button", { name: "Skip" }).click();
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem("onboarding_completed"))).toBe("true");

  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Text to Image Generator", exact: true })).toBeVisible();
  await page.waitForTimeout(2_000);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.goto("/styles");
  await page.waitForTimeout(1_500);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("Get Started walks the three steps and opens the generator with the chosen style", async ({ page }) => {
  await page.goto("/pricing");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Welcome to PromptCanvas" })).toBeVisible({ timeout: 5_000 });
  await dialog.getByRole("button", { name: "Next" }).click();
  await expect(dialog.getByRole("heading", { name: "Choose Your Style" })).toBeVisible();
  await expect(dialog).toContainText("27 styles");
  await dialog.getByText("3D Render").click();
  await dialog.getByRole("button", { name: "Next" }).click();
  await expect(dialog.getByRole("heading", { name: "Start Creating" })).toBeVisible();
  await expect(dialog).toContainText("not an AI model");
  await expect(dialog).toContainText("FLUX Schnell, Dev and Pro");
  await dialog.getByRole("button", { name: "Get Started" }).click();
  await expect(page).toHaveURL(/\/generate\?style=3d-render$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("onboarding_completed"))).toBe("true");
});

test("Escape closes it like Skip", async ({ page }) => {
  await page.goto("/faq");
  await expect(page.getByRole("dialog")).toBeVisible({ timeout: 5_000 });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("onboarding_completed"))).toBe("true");
});
