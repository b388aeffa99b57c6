import { expect, test, type Locator, type Page } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";
import { generateButton, openGenerator, previewImage, toasts } from "./support/generator";

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

/** Presses `key` and expects the focus to land on `target`. */
async function pressTo(page: Page, key: string, target: Locator): Promise<void> {
  await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

/**
 * What has the focus, by its name, and whether a focus ring shows: an outline or a ring shadow on it, on
 * its label or on the element drawn for it (a hidden radio's card), or an outline on the box around it
 * (a details summary's collapse), three levels up at most.
 */
async function focused(page: Page): Promise<{ name: string; ring: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "", ring: false };
    const outlined = (e: Element) => {
      const style = getComputedStyle(e);
      return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1;
    };
    const ringed = (e: Element | null) => !!e && (outlined(e) || getComputedStyle(e).boxShadow !== "none");
    const own = [el, el.nextElementSibling, ...((el as HTMLInputElement).labels ?? [])];
    let around = false;
    for (let up = el.parentElement, i = 0; up && i < 3; up = up.parentElement, i++) around ||= outlined(up);
    const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
    return { name, ring: own.some(ringed) || around };
  });
}

/** Tabs (forward, or back) to the control named `name`, checking that every control met on the way shows its focus. */
async function tabToVisibly(page: Page, name: string | RegExp, max = 40, key: "Tab" | "Shift+Tab" = "Tab") {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    expect(now.ring, `"${now.name}" shows no focus ring`).toBe(true);
    if (typeof name === "string" ? now.name === name : name.test(now.name)) return;
  }
  throw new Error(`could not reach ${name} with Tab`);
}

async function expectRing(page: Page) {
  const now = await focused(page);
  expect(now.ring, `"${now.name}" shows no focus ring`).toBe(true);
}

test.describe("keyboard only", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("skip link, sidebar, shortcut and search", async ({ page, context }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await pressTo(page, "Enter", page.locator("#main"));

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
    await pressTo(page, "Tab", page.getByRole("button", { name: "Mark all as read" }));
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
    await pressTo(page, "ArrowDown", page.getByRole("menuitem", { name: "Account" }));
    await pressTo(page, "ArrowDown", page.getByRole("menuitem", { name: "Billing" }));
    await pressTo(page, "End", page.getByRole("menuitem", { name: "Sign out" }));
    await pressTo(page, "ArrowDown", page.getByRole("menuitem", { name: "Account" }));
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toBeHidden();
    await expect(page.getByRole("button", { name: `Account menu for ${email}` })).toBeFocused();

    await page.keyboard.press("Enter");
    await pressTo(page, "ArrowDown", page.getByRole("menuitem", { name: "Billing" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/billing$/);

    await page.getByRole("button", { name: `Account menu for ${email}` }).focus();
    await pressTo(page, "ArrowUp", page.getByRole("menuitem", { name: "Sign out" }));
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
    await pressTo(page, "Shift+Tab", drawer.getByRole("link", { name: "PromptCanvas home" }));
    await pressTo(page, "Shift+Tab", drawer.getByRole("link", { name: "Upgrade" }));
    await pressTo(page, "Tab", drawer.getByRole("link", { name: "PromptCanvas home" }));
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

  test("Ctrl+Enter generates; the history and gallery act by keyboard, every focus visible", async ({ page }) => {
    test.setTimeout(150_000);
    await signUp(page, uniqueEmail("keys-library"));
    await openGenerator(page);
    const first = "a red fishing boat at dawn";
    const second = "a lighthouse on a rocky coast";
    const field = page.getByLabel("Prompt", { exact: true });
    await field.focus();
    await page.keyboard.type(first);
    // Generate is enabled once the page is live and the prompt is not blank.
    await expect(generateButton(page)).toBeEnabled();
    await page.keyboard.press("Control+Enter");
    await expect(previewImage(page, first)).toBeVisible({ timeout: 45_000 });
    await expect(field).toBeFocused();
    await page.keyboard.press("Control+a");
    await page.keyboard.type(second);
    await page.keyboard.press("Meta+Enter");
    await expect(previewImage(page, second)).toBeVisible({ timeout: 45_000 });
    await expect(field).toHaveValue(second);
    // The style picker, the other settings and Generate itself are reached by Tab, each showing its focus.
    await tabToVisibly(page, "Watercolor");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Watercolor" })).toHaveAttribute("aria-pressed", "true");
    await tabToVisibly(page, /^Generate$/, 80);
    await tabToVisibly(page, /Reset/);
    await tabToVisibly(page, `Show: ${first}`);

    // History: the grid is one Tab stop; arrows move between tiles; Enter opens the large view.
    await page.goto("/history");
    await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: `Open: ${first}`, exact: true })).toBeVisible();
    await page.locator("body").focus();
    await tabToVisibly(page, /^Open: /, 60);
    const onTile = (await focused(page)).name;
    await page.keyboard.press("ArrowRight");
    expect((await focused(page)).name).not.toBe(onTile);
    await expectRing(page);
    await page.keyboard.press("ArrowLeft");
    expect((await focused(page)).name).toBe(onTile);
    const prompt = onTile.replace(/^Open: /, "");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Generation" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Use these settings" })).toBeFocused();
    await expectRing(page);
    await tabToVisibly(page, "Download PNG");
    const download = page.waitForEvent("download");
    await page.keyboard.press("Enter");
    expect((await download).suggestedFilename()).toMatch(/\.png$/);
    await tabToVisibly(page, /^Save$/);
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("button", { name: "Unsave" })).toHaveAttribute("aria-pressed", "true");
    await expect(dialog.getByRole("button", { name: "Unsave" })).toBeFocused();
    await tabToVisibly(page, /^Publish$/);
    await page.keyboard.press("Enter");
    await expect(toasts(page).getByText("Published to the gallery")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Unpublish" })).toBeFocused();
    await tabToVisibly(page, "Delete");
    await page.keyboard.press("Enter");
    const confirm = dialog.getByRole("group", { name: "Confirm delete" });
    await expect(confirm).toBeVisible();
    // The question takes the focus to its safe answer, and "Keep it" gives it back to Delete.
    await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await expectRing(page);
    await page.keyboard.press("Enter");
    await expect(confirm).toBeHidden();
    await expect(dialog.getByRole("button", { name: "Delete", exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: `Open: ${prompt}`, exact: true })).toBeFocused();

    // Delete for good, from the keyboard, on the other tile.
    const other = prompt === first ? second : first;
    await page.getByRole("button", { name: `Open: ${other}`, exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await tabToVisibly(page, "Delete");
    await pressTo(page, "Enter", dialog.getByRole("button", { name: "Keep it" }));
    await tabToVisibly(page, "Delete for good", 3);
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: `Open: ${other}`, exact: true })).toHaveCount(0);

    // Gallery: the published image opens and closes by keyboard; the focus comes back to its tile.
    await page.goto("/gallery");
    const tile = page.getByRole("list", { name: "Published images" }).getByRole("button", { name: `Open: ${prompt}` });
    await expect(tile).toBeVisible();
    await page
      .getByRole("searchbox", { name: /gallery/i })
      .last()
      .focus();
    await tabToVisibly(page, `Open: ${prompt}`, 60);
    await page.keyboard.press("Enter");
    const shown = page.getByRole("dialog", { name: "Published image" });
    await expect(shown).toBeVisible();
    await expect(shown.getByRole("link", { name: "Use this recipe" })).toBeFocused();
    await expectRing(page);
    // Back from the last action to the dialog's Close (forward, Tab leaves the page for the browser's bar).
    await tabToVisibly(page, "Close", 10, "Shift+Tab");
    await page.keyboard.press("Enter");
    await expect(shown).toBeHidden();
    await expect(tile).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(shown).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(shown).toBeHidden();
    await expect(tile).toBeFocused();
  });
});
