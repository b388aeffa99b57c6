// Keep in library (issue 46.1, docs/decisions/158-keep-an-upscale-in-the-library.md): a made 1024² image
// upscaled 2× on the device is kept in the library offline; it shows in History here at once, reaches the
// server on reconnect linked to its original (upscale-2x, 2048²), and a second device signed in as the same
// person sees it in History at twice the size, its file loaded, with the lineage to its original. The
// upscale runs on WASM here (no GPU), so the journey waits minutes for it, as tests/e2e/upscale.spec.ts does.
import { expect, test } from "./support/test";
import { accountButton, audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import { generateOne, openGenerator, previewImage, serverSession } from "./support/generator";
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

test("an upscale kept in the library shows in History here and on another device at twice the size, linked", async ({
  page,
  context,
  browser,
  allowOffline,
}, testInfo) => {
  allowOffline("the upscale is kept offline on purpose");
  test.setTimeout(16 * 60_000);
  const email = uniqueEmail("keep-upscale");
  await signUp(page, email);
  await openGenerator(page);
  await generateOne(page, PROMPT);
  await expect(previewImage(page, PROMPT)).toBeVisible({ timeout: 30_000 });
  await openHistory(page);
  const dialog = await openLargeView(page, PROMPT);

  await dialog.getByRole("button", { name: "Upscale", exact: true }).click();
  const panel = dialog.getByRole("region", { name: "Upscale" });
  await panel.getByRole("button", { name: "Upscale 2×" }).click();
  await expect(panel.getByText(/^Ready: 2048 × 2048/)).toBeVisible({ timeout: 13 * 60_000 });
  // Kept offline: it is in the library here at once, and is sent when the connection returns.
  await context.setOffline(true);
  await panel.getByRole("button", { name: "Keep in library" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Kept in your library" })).toBeVisible({ timeout: 30_000 });
  await dialog.screenshot({ path: testInfo.outputPath("keep-kept.png") });
  const findings: Finding[] = [];
  await audit(page, "upscale kept", findings);
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
