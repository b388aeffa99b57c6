import { expect, test, type Page } from "./support/test";
import { ROUTES } from "#src/app/route-table.ts";
import { audit, signUp, uniqueEmail, type Finding } from "./support/app";

async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Loading…$|Checking/ })).toHaveCount(0);
}

// Each theme's audits beyond the public pages (walked once, with their titles and console, in
// public-pages.spec.ts): worded failures and open menus, and every signed-in route.
for (const theme of ["light", "dark"] as const) {
  test.describe(`in the ${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem("promptcanvas.theme", t), theme);
    });

    test("axe finds no violations in worded failures and open menus", async ({ page, allowFailedRequest }) => {
      test.setTimeout(120_000);
      allowFailedRequest(
        /^POST \S+\/auth\/v1\/token\?grant_type=password 400$/,
        "a wrong password on purpose: refused with 400",
      );
      const findings: Finding[] = [];
      // Worded failures on the sign-in form.
      await visit(page, "/auth");
      await page.getByLabel("Email").fill("nobody@example.com");
      await page.getByLabel("Password", { exact: true }).fill("wrong-password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByRole("alert")).toBeVisible();
      await audit(page, "/auth with an error", findings);

      // Open states: the notifications panel and, on a phone, the navigation drawer.
      await visit(page, "/");
      await page.getByRole("button", { name: /^Notifications/ }).click();
      await audit(page, "notifications open", findings);
      await page.keyboard.press("Escape");
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByRole("button", { name: "Open navigation" }).click();
      await audit(page, "drawer open (375 px)", findings);
      expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
    });

    test("axe finds no violations on any signed-in route or the account menu", async ({ page }) => {
      test.setTimeout(120_000);
      const findings: Finding[] = [];
      const email = uniqueEmail(`axe-${theme}`);
      await signUp(page, email);
      for (const route of ROUTES.filter((r) => r.access === "protected")) {
        await visit(page, route.path);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await audit(page, `${route.path} (signed in)`, findings);
      }
      await page.getByRole("button", { name: `Account menu for ${email}` }).click();
      await audit(page, "account menu open", findings);
      expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
    });
  });
}
