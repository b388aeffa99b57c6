import { expect, test, type Page } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";

async function tabTo(page: Page, name: RegExp | string, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const label = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? (el.getAttribute("aria-label") ?? el.textContent ?? "").trim() : "";
    });
    if (typeof name === "string" ? label === name : name.test(label)) return;
  }
  throw new Error(`could not reach ${name} with Tab`);
}

test.describe("keyboard only", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("skip link, sidebar, shortcut and search", async ({ page, context }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("#main")).toBeFocused();

    await page.locator("body").focus();
    await tabTo(page, "Generate");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/generate$/);
    await expect(page.getByRole("link", { name: "Generate", exact: true })).toHaveAttribute("aria-current", "page");

    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    const before = (await sidebar.boundingBox())!.width;
    await page.keyboard.press("Control+b");
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBeLessThan(before);
    const cookie = (await context.cookies()).find((c) => c.name === "sidebar_state");
    expect(cookie?.value).toBe("false");
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 120);
    await page.reload();
    await expect(page.getByRole("button", { name: "Expand sidebar" })).toBeVisible();
    await page.keyboard.press("Meta+b");
    await expect(page.getByRole("button", { name: "Collapse sidebar" })).toBeVisible();

    await page.locator("body").focus();
    await tabTo(page, "");
    await page.getByRole("searchbox", { name: "Search the gallery" }).focus();
    await page.keyboard.type("neon city");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/gallery\?q=neon%20city$/);
    await expect(page.getByText("Results for")).toContainText("neon city");
  });

  test("notifications and theme from the top bar", async ({ page }) => {
    await page.goto("/");
    await page.locator("body").focus();
    await tabTo(page, /^Notifications/);
    await page.keyboard.press("Enter");
    const panel = page.getByRole("region", { name: "Notifications" });
    await expect(panel).toBeVisible();
    await expect(page.getByRole("button", { name: "Notifications, 2 unread" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Mark all as read" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeFocused();

    await tabTo(page, "Settings");
    await tabTo(page, /^Switch to (dark|light) theme$/);
    const theme = await page.locator("html").getAttribute("data-theme");
    await page.keyboard.press("Enter");
    await expect(page.locator("html")).not.toHaveAttribute("data-theme", theme!);
  });

  test("the account menu", async ({ page }) => {
    const email = uniqueEmail("keys");
    await signUp(page, email);
    await page.goto("/");
    await page.locator("body").focus();
    await tabTo(page, `Account menu for ${email}`);
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Account" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Billing" })).toBeFocused();
    await page.keyboard.press("End");
    await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Account" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toBeHidden();
    await expect(page.getByRole("button", { name: `Account menu for ${email}` })).toBeFocused();

    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Billing" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/billing$/);

    await page.getByRole("button", { name: `Account menu for ${email}` }).focus();
    await page.keyboard.press("ArrowUp");
    await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  });

  test("the navigation drawer on a phone", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/");
    await page.locator("body").focus();
    await tabTo(page, "Open navigation");
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await expect(drawer).toBeVisible();
    await expect(page.getByRole("button", { name: "Close navigation" })).toBeFocused();
    // Focus stays inside the open drawer: backwards past its first link wraps to its last.
    await page.keyboard.press("Shift+Tab");
    await expect(drawer.getByRole("link", { name: "PromptCanvas home" })).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(drawer.getByRole("link", { name: "Upgrade" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(drawer.getByRole("link", { name: "PromptCanvas home" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("button", { name: "Open navigation" })).toBeFocused();

    await page.keyboard.press("Control+b");
    await expect(drawer).toBeVisible();
    await drawer.getByRole("link", { name: "History" }).focus();
    await page.keyboard.press("Enter");
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/auth\?from=%2Fhistory$/);
  });
});
