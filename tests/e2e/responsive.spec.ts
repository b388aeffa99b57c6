// The shell at a phone's and a desktop's width. Screenshots land in test-results/screens/ for a
// person to look at; the assertions check what must hold at each width.
import { expect, test, type Page } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";

async function shot(page: Page, name: string) {
  // The page's own heading is drawn and colour transitions (theme switch) have finished.
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Loading…$/ })).toHaveCount(0);
  await page.waitForTimeout(350);
  await page.screenshot({ path: `test-results/screens/${name}.png` });
}

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test("the shell at 1280 px", async ({ page, allowFailedRequest }) => {
  allowFailedRequest(/^GET \S+\/missing-page 404$/, "the 404 page is shown on purpose: an unknown address answers 404");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Search the gallery" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Open navigation" })).toBeHidden();
  await expect(page.getByRole("region", { name: "Development mode" })).toContainText("127.0.0.1");
  await noHorizontalScroll(page);
  await shot(page, "1280-home");

  await page.mouse.wheel(0, 1200);
  await expect(page.getByRole("button", { name: "Scroll to top" })).toBeVisible();
  await shot(page, "1280-home-scrolled");
  await page.getByRole("button", { name: "Scroll to top" }).click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByRole("button", { name: "Scroll to top" })).toBeHidden();

  await page.getByRole("button", { name: /^Notifications/ }).click();
  await shot(page, "1280-notifications");
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await shot(page, "1280-sidebar-collapsed");
  await page.getByRole("button", { name: "Expand sidebar" }).click();

  await page.goto("/auth");
  await shot(page, "1280-auth");
  await page.goto("/missing-page");
  await shot(page, "1280-404");

  const email = uniqueEmail("wide");
  await signUp(page, email);
  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await shot(page, "1280-dashboard-account-menu");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await shot(page, "1280-dashboard-dark");
  await page.goto("/styles/anime");
  await shot(page, "1280-coming-next-dark");
});

test("the shell at 375 px", async ({ page, allowFailedRequest }) => {
  allowFailedRequest(/^GET \S+\/missing-page 404$/, "the 404 page is shown on purpose: an unknown address answers 404");
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/");
  await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeHidden();
  await expect(page.getByRole("searchbox", { name: "Search the gallery" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Open navigation" })).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, "375-home");

  await page.getByRole("button", { name: "Open navigation" }).click();
  await expect(page.getByRole("dialog", { name: "Navigation" })).toBeVisible();
  await shot(page, "375-drawer");
  await page.getByRole("dialog", { name: "Navigation" }).getByRole("link", { name: "Gallery" }).click();
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(page.getByRole("dialog", { name: "Navigation" })).toBeHidden();

  await page.getByRole("button", { name: /^Notifications/ }).click();
  await noHorizontalScroll(page);
  await shot(page, "375-notifications");
  await page.keyboard.press("Escape");

  await page.goto("/auth");
  await noHorizontalScroll(page);
  await shot(page, "375-auth");
  await page.goto("/missing-page");
  await noHorizontalScroll(page);
  await shot(page, "375-404");

  const email = uniqueEmail("narrow");
  await signUp(page, email);
  await noHorizontalScroll(page);
  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await noHorizontalScroll(page);
  await shot(page, "375-dashboard-account-menu");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await page.goto("/domain-diagnostics");
  await noHorizontalScroll(page);
  await shot(page, "375-diagnostics-dark");
});
