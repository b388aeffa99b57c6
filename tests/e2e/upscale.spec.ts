// The on-device upscale (issue 46.1, docs/decisions/154-on-device-upscale.md): from the large view, a made
// 1024² image upscaled 2× downloads at 2048² carrying its recipe; a 4× started and cancelled says so; the
// panel passes axe in each state; offline, the worker and the model come from the service worker's cache.
// On this machine (no GPU) the worker runs TensorFlow.js's WASM backend, which the app's
// Content-Security-Policy lets compile ('wasm-unsafe-eval', and nothing else of eval). The 2× upscale of a
// 1024² image took 158 s here under a load average near 28.
import { readFile } from "node:fs/promises";
import { readRecipe } from "../../supabase/functions/_shared/recipe-metadata/recipe-file.ts";
import { expect, test } from "./support/test";
import { audit, signUp, uniqueEmail, type Finding } from "./support/app";
import { ensureControlled, generateOne, imageInfo, openGenerator, previewImage } from "./support/generator";
import { openHistory, openLargeView } from "./support/library";

const PROMPT = "A lighthouse on a cliff at dusk";

test("a made image upscaled 2× on the device downloads at twice its size with its recipe; 4× can be cancelled", async ({
  page,
  context,
  allowOffline,
}, testInfo) => {
  test.setTimeout(15 * 60_000);
  await signUp(page, uniqueEmail("upscale"));
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
  expect(findings).toEqual([]);

  // Offline, a new worker (the panel closed and opened again) loads the script and the model from the
  // service worker's cache and starts.
  allowOffline("the journey goes offline on purpose");
  await context.setOffline(true);
  await dialog.getByRole("button", { name: "Upscale", exact: true }).click();
  await dialog.getByRole("button", { name: "Upscale", exact: true }).click();
  await panel.getByRole("button", { name: "Upscale 2×" }).click();
  await expect(panel.getByText(/on this device \(/)).toBeVisible({ timeout: 60_000 });
  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Upscale cancelled." })).toBeVisible({ timeout: 60_000 });
});
