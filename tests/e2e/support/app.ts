// Shared steps for the journeys: unique accounts, the local backend's address (read from the
// app's own runtime config), its development mailbox, and axe's findings on a page.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export type Finding = { where: string; rule: string; impact: string | null | undefined; targets: string[] };

/** Resolves once every finite animation on the page (a notice growing or fading in) has ended. */
export async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => a.finished.catch(() => a)),
    ),
  );
}

/**
 * Runs axe on the page as it is and adds what it finds, labelled `where`, to `findings`. Legacy mode runs
 * axe in the page itself rather than finishing each run in a new page (the app has no cross-origin
 * frames, the one thing the newer mode adds), which makes an audit about a third quicker.
 */
export async function audit(page: Page, where: string, findings: Finding[]): Promise<void> {
  // A notice fading in reads as low contrast to axe mid-fade: let every finite animation end first.
  await animationsEnded(page);
  const result = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  for (const v of result.violations) {
    findings.push({ where, rule: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) });
  }
}

export const PASSWORD = "correct-horse-battery";

let counter = 0;
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** A value the served /app-config.js sets, by its key; throws when it sets none. */
export async function appConfig(page: Page, key: "supabaseUrl" | "supabaseAnonKey"): Promise<string> {
  const res = await page.request.get("/app-config.js");
  const match = new RegExp(`"${key}":"([^"]+)"`).exec(await res.text());
  if (!match) throw new Error(`app-config.js has no ${key}`);
  return match[1];
}

export const apiUrl = (page: Page): Promise<string> => appConfig(page, "supabaseUrl");

export async function signUp(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Create account" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(accountButton(page, email)).toBeVisible();
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export function accountButton(page: Page, email: string) {
  return page.getByRole("button", { name: `Account menu for ${email}` });
}

export async function signOut(page: Page, email: string): Promise<void> {
  await accountButton(page, email).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
}

export type Mail = { id: string; to: string; subject: string; text: string; link: string; created_at: string };

/** The newest mail to `email`, waiting a little for it to arrive. */
export async function latestMail(page: Page, email: string): Promise<Mail> {
  const base = await apiUrl(page);
  for (let i = 0; i < 50; i++) {
    const res = await page.request.get(`${base}/_dev/mailbox/messages?to=${encodeURIComponent(email)}`);
    if (res.ok()) {
      const mails = (await res.json()) as Mail[];
      if (mails.length) return mails[0];
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no mail arrived for ${email}`);
}
