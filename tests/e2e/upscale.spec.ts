// The on-device upscale (issue 46.1, docs/decisions/154-on-device-upscale.md): from the large view, a made
// 1024² image upscaled 2× downloads at 2048² carrying its recipe; a 4× started and cancelled says so; the
// panel passes axe in each state; offline, the worker and the model come from the service worker's cache.
// Then the same upscale is kept in the library offline (decision 158): it shows in History here at once,
// reaches the server on reconnect linked to its original (upscale-2x, 2048²), and a second device signed in
// as the same person sees it in History at twice the size, its file loaded, with the lineage to its
// original. One journey for both: on this machine (no GPU) the worker runs TensorFlow.js's WASM backend,
// which the app's Content-Security-Policy lets compile ('wasm-unsafe-eval', and nothing else of eval), and
// the 2× upscale of a 1024² image took 158 s here under a load average near 28.
import { readFile } from "node:fs/promises";
import { readRecipe } from "../../supabase/functions/_shared/recipe-metadata/recipe-file.ts";
import { expect, test } from "./support/test";
import { accountButton, audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import {
  ensureControlled,
  generateOne,
  imageInfo,
  openGenerator,
  previewImage,
  serverSession,
} from "./support/generator";
import {
  expectImageLoaded,
  generationDialog,
  historyTile,
  newDevice,
  openHistory,
  openLargeView,
  ownGenerations,
} from "./support/library";

const PROMPT = "A lighthouse on a cliff at dusk";

type Linked = { id: string; parent_id: string | null; variation: string | null; width: number; height: number };

test("a made image upscaled 2× on the device downloads at twice its size with its recipe, 4× can be cancelled, and the 2× kept offline reaches History on another device, linked", async ({
  page,
  context,
  browser,
  allowOffline,
}, testInfo) => {
  test.setTimeout(16 * 60_000);
  allowOffline("the journey goes offline on purpose");
  const email = uniqueEmail("upscale");
  await signUp(page, email);
  await openGenerator(page);
  // The service worker keeps the upscale's worker and model files as they are first fetched.
  await ensureControlled(page);
  await generateOne(page, PROMPT);
  await expect(previewImage(page, PROMPT)).toBeVisible({ timeout: 30_000 });
  await openHistory(page);
  const dialog = await openLargeView(page, PROMPT);
  const findings: Finding[] = [];

  await dialog.getByRole("button", { name: "Upscale", exact: true }).click();
  const panel = dialog.getByRole("region", { name: "Upscale" });
  await expect(panel.getByRole("radio", { name: /^2× \(2048 × 2048\)/ })).toBeChecked();
  await dialog.screenshot({ path: testInfo.outputPath("upscale-idle.png") });
  await audit(page, "upscale idle", findings);

  // 4×, cancelled while it runs.
  await panel.getByRole("radio", { name: /^4×/ }).check();
  await panel.getByRole("button", { name: "Upscale 4×" }).click();
  const bar = panel.getByRole("progressbar", { name: "Upscaling 4×" });
  await expect(bar).toBeVisible();
  await expect(panel.getByText(/on this device \(/)).toBeVisible({ timeout: 60_000 });
  await dialog.screenshot({ path: testInfo.outputPath("upscale-progress.png") });
  await audit(page, "upscale progress", findings);
  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Upscale cancelled." })).toBeVisible({ timeout: 60_000 });
  await expect(bar).toBeHidden();
  await dialog.screenshot({ path: testInfo.outputPath("upscale-cancelled.png") });
  await audit(page, "upscale cancelled", findings);

  // 2×, to the end.
  await panel.getByRole("radio", { name: /^2×/ }).check();
  const started = Date.now();
  await panel.getByRole("button", { name: "Upscale 2×" }).click();
  await expect(panel.getByText(/^Ready: 2048 × 2048/)).toBeVisible({ timeout: 13 * 60_000 });
  testInfo.annotations.push({
    type: "2× of 1024² took",
    description: `${((Date.now() - started) / 1000).toFixed(0)} s`,
  });
  await dialog.screenshot({ path: testInfo.outputPath("upscale-done.png") });
  await audit(page, "upscale done", findings);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    panel.getByRole("button", { name: "Download 2× PNG" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("a-lighthouse-on-a-cliff-at-dusk-2x.png");
  const path = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(path);
  const bytes = await readFile(path);
  expect(imageInfo(bytes)).toEqual({ format: "png", width: 2048, height: 2048 });
  expect(readRecipe(new Uint8Array(bytes))).toMatchObject({
    prompt: PROMPT,
    width: 1024,
    height: 1024,
    upscale: { scale: 2 },
  });

  // Kept offline: it is in the library here at once, and is sent when the connection returns.
  await context.setOffline(true);
  await panel.getByRole("button", { name: "Keep in library" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Kept in your library" })).toBeVisible({ timeout: 30_000 });
  await dialog.screenshot({ path: testInfo.outputPath("keep-kept.png") });
  await audit(page, "upscale kept", findings);

  // Still offline, a new worker (the panel closed and opened again) loads the script and the model from the
  // service worker's cache and starts.
  await dialog.getByRole("button", { name: "Upscale", exact: true }).click();
  await dialog.getByRole("button", { name: "Upscale", exact: true }).click();
  await panel.getByRole("button", { name: "Upscale 2×" }).click();
  await expect(panel.getByText(/on this device \(/)).toBeVisible({ timeout: 60_000 });
  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Upscale cancelled." })).toBeVisible({ timeout: 60_000 });

  // Here at once: History holds the original and the kept upscale.
  await page.keyboard.press("Escape");
  await expect(historyTile(page, PROMPT)).toHaveCount(2);
  await context.setOffline(false);

  // The server has it, linked to the original at twice its size.
  const server = await serverSession(page, email);
  const rows = async () => (await ownGenerations(page.request, server)) as unknown as Linked[];
  await expect.poll(async () => (await rows()).length, { timeout: 60_000 }).toBe(2);
  const all = await rows();
  const original = all.find((r) => r.parent_id === null)!;
  const kept = all.find((r) => r.parent_id === original.id)!;
  expect(kept).toMatchObject({ variation: "upscale-2x", width: 2048, height: 2048 });

  // Another device, the same person: History shows it, its file loads at 2048², with its lineage.
  const other = await newDevice(browser, testInfo);
  await other.page.goto("/auth");
  await signIn(other.page, email);
  await expect(accountButton(other.page, email)).toBeVisible();
  await openHistory(other.page);
  await expect(historyTile(other.page, PROMPT)).toHaveCount(2, { timeout: 60_000 });
  await historyTile(other.page, PROMPT).first().click();
  const view = generationDialog(other.page);
  await expect(view.getByText("2048 × 2048")).toBeVisible();
  await expect(view.getByText("Upscale 2×, of an earlier image")).toBeVisible();
  await expectImageLoaded(view.getByRole("img", { name: PROMPT }).first(), [2048, 2048]);
  const lineage = view.getByRole("navigation", { name: "Lineage" });
  await expect(lineage.getByRole("button", { name: "Parent" })).toBeVisible({ timeout: 30_000 });
  await expect(lineage.getByRole("button", { name: "This image" })).toHaveAttribute("aria-current", "true");
  await view.screenshot({ path: testInfo.outputPath("keep-other-device.png") });
  await audit(other.page, "kept upscale on another device", findings);
  await lineage.getByRole("button", { name: "Parent" }).click();
  await expect(lineage.getByRole("button", { name: "Upscale 2×" })).toBeVisible();
  await expect(view.getByText("1024 × 1024")).toBeVisible();
  expect(findings).toEqual([]);
  await other.context.close();
});
