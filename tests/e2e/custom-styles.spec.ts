// Custom styles on every device (issue 45, decision 152): a person on the premium tier (set through the
// service role, as the billing sync would) makes a style on device A with a preview from one of their
// images; device B, a second browser context signed in as the same person, shows it beside the 27 (by
// realtime while open, and a second style made on A arrives without a reload), draws with it, and offline
// still queues with it: the task runs on reconnect. The stored row names the style and the downloaded
// file's recipe says it. The picker and the editor pass axe; a person below premium is told why, with a
// link to /pricing.
import { readFileSync } from "node:fs";
import { readRecipe } from "../../supabase/functions/_shared/recipe-metadata/recipe-file.ts";
import { audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import { expect, test } from "./support/test";
import { generateButton, preview, previewImage, serverSession } from "./support/generator";
import { generateImages, newDevice, ownGenerations, rowsOf, serviceHeaders } from "./support/library";
import type { Page } from "@playwright/test";

const STYLE = { name: "Moody film", words: "35mm film, teal and orange, soft grain" };

const picker = (page: Page) => page.getByRole("group", { name: "Your styles" });

async function makeStyle(page: Page, name: string, words: string, findings?: Finding[]) {
  await picker(page).getByRole("button", { name: "New style" }).click();
  const editor = page.getByRole("dialog", { name: "New style" });
  await editor.getByLabel("Name").fill(name);
  await editor.getByLabel("Words added to the prompt").fill(words);
  await editor.getByLabel("Negative prompt").fill("text, watermark");
  await editor.getByLabel("Default ratio").selectOption("16:9");
  const previewChoice = editor.getByRole("button", { name: /as the preview$/ }).first();
  if (findings) {
    await expect(previewChoice).toBeVisible();
    await previewChoice.click();
    await audit(page, "style editor", findings);
    await page.screenshot({ path: test.info().outputPath("style-editor.png") });
  }
  await editor.getByRole("button", { name: "Save style" }).click();
  await expect(editor).toBeHidden();
}

test("a custom style made on device A draws on device B, offline too, and the file's recipe names it", async ({
  page,
  browser,
  allowOffline,
}, testInfo) => {
  allowOffline("device B goes offline on purpose");
  test.setTimeout(300_000);
  const email = uniqueEmail("custom-styles");

  await signUp(page, email);
  const owner = await serverSession(page, email);

  // Below premium the picker says what custom styles need, with the way to the plans.
  await page.goto("/generate");
  await expect(picker(page).getByRole("link", { name: "See plans" })).toHaveAttribute("href", "/pricing");

  // The premium tier, written where the billing sync writes it; the next load reads it.
  const service = await serviceHeaders(page);
  const set = await page.request.patch(`${owner.api}/rest/v1/user_daily_limits?user_id=eq.${owner.userId}`, {
    headers: { ...service, "content-type": "application/json" },
    data: { subscription_tier: "premium" },
  });
  expect(set.status(), await set.text()).toBeLessThan(300);
  await generateImages(page, ["A lighthouse on a basalt cliff at dawn"]);
  await page.reload();
  await expect(picker(page).getByRole("button", { name: "New style" })).toBeVisible({ timeout: 20_000 });

  const findings: Finding[] = [];
  await makeStyle(page, STYLE.name, STYLE.words, findings);
  const card = picker(page).getByRole("button", { name: STYLE.name, exact: true });
  await expect(card).toHaveAttribute("aria-pressed", "true");
  await audit(page, "style picker", findings);
  await picker(page).screenshot({ path: testInfo.outputPath("style-picker-a.png") });
  expect(findings).toEqual([]);
  await expect
    .poll(async () =>
      (
        await rowsOf<{ name: string; preview: string | null }>(
          page.request,
          owner.api,
          { apikey: owner.anonKey, Authorization: `Bearer ${owner.token}` },
          "custom_styles",
          owner.userId,
          "name,preview",
        )
      ).map((r) => [r.name, Boolean(r.preview)]),
    )
    .toEqual([[STYLE.name, true]]);

  // Device B: signed in as the same person, the style is there beside the 27.
  const b = await newDevice(browser, testInfo);
  await b.page.goto("/auth");
  await signIn(b.page, email);
  await expect(b.page.getByRole("button", { name: `Account menu for ${email}` })).toBeVisible();
  await b.page.goto("/generate");
  await expect(picker(b.page).getByRole("button", { name: STYLE.name, exact: true })).toBeVisible({ timeout: 20_000 });

  // A second style made on A while B is open arrives on B by realtime, without a reload.
  await makeStyle(page, "Ink wash", "sumi-e ink wash, rice paper");
  await expect(picker(b.page).getByRole("button", { name: "Ink wash", exact: true })).toBeVisible({ timeout: 15_000 });

  // B draws with the style: the row names it and its words are in the prompt drawn.
  await picker(b.page).getByRole("button", { name: STYLE.name, exact: true }).click();
  await expect(b.page.getByRole("radio", { name: /Landscape/ })).toBeChecked();
  await b.page.getByLabel("Prompt", { exact: true }).fill("A fox in the snow");
  await generateButton(b.page).click();
  const drawn = `A fox in the snow, ${STYLE.words}`;
  await expect(previewImage(b.page, drawn)).toBeVisible({ timeout: 45_000 });

  // Offline, B still queues with it; the task runs once the connection returns.
  await b.context.setOffline(true);
  await b.page.getByLabel("Prompt", { exact: true }).fill("A harbour at night");
  await generateButton(b.page).click();
  await expect(b.page.getByText("Waiting for connection").first()).toBeVisible();
  await b.page.screenshot({ path: testInfo.outputPath("device-b-offline.png") });
  await b.context.setOffline(false);
  const offlineDrawn = `A harbour at night, ${STYLE.words}`;
  await expect(previewImage(b.page, offlineDrawn)).toBeVisible({ timeout: 60_000 });
  await expect
    .poll(async () =>
      (await ownGenerations(page.request, owner))
        .filter((r) => r.prompt === drawn || r.prompt === offlineDrawn)
        .map((r) => (r as unknown as { custom_style_name: string }).custom_style_name),
    )
    .toEqual([STYLE.name, STYLE.name]);

  // The downloaded file's recipe names the custom style.
  const download = b.page.waitForEvent("download");
  await preview(b.page).getByRole("button", { name: "Download PNG" }).click();
  const file = readFileSync((await (await download).path())!);
  const recipe = readRecipe(new Uint8Array(file));
  expect(recipe?.customStyle).toBe(STYLE.name);
  expect(recipe?.prompt).toBe(offlineDrawn);
  expect(recipe?.negativePrompt).toBe("text, watermark");
  await b.page.screenshot({ path: testInfo.outputPath("device-b.png") });
  await b.context.close();
});
