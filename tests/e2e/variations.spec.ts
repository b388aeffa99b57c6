// Variations (issue 46.2, docs/decisions/155-variations.md): from the large view, Vary (strong) and Vary
// (subtle) queue the image's own recipe as new generations linked to it; the lineage strip of a variation
// shows its parent, which opens in the same view; a variation made offline waits for the connection and runs
// on reconnect, linked like any other. The server's rows (REST, as the person) say the same.
import { expect, test } from "./support/test";
import { audit, signUp, uniqueEmail, type Finding } from "./support/app";
import { ensureControlled, serverSession } from "./support/generator";
import {
  generateImages,
  generationDialog,
  historyTile,
  openHistory,
  openLargeView,
  ownGenerations,
} from "./support/library";

const PROMPT = "A red fox in fresh snow";

type Linked = { id: string; prompt: string; parent_id: string | null; variation: string | null; seed: number };

async function linkedRows(page: Parameters<typeof serverSession>[0], email: string): Promise<Linked[]> {
  const server = await serverSession(page, email);
  return (await ownGenerations(page.request, server)) as unknown as Linked[];
}

test("a variation shows its parent in the lineage; one made offline runs on reconnect", async ({
  page,
  context,
  allowOffline,
}, testInfo) => {
  allowOffline("the journey goes offline on purpose");
  test.setTimeout(180_000);
  const email = uniqueEmail("variations");
  await signUp(page, email);
  await generateImages(page, [PROMPT]);
  await ensureControlled(page);
  const [parent] = await linkedRows(page, email);

  // Strong, online: a new generation of the same recipe with a new seed, linked to its parent.
  await openHistory(page);
  let dialog = await openLargeView(page, PROMPT);
  const variations = dialog.getByRole("region", { name: "Variations" });
  await variations.getByRole("button", { name: "Vary (strong)" }).click();
  await expect.poll(async () => (await linkedRows(page, email)).length, { timeout: 60_000 }).toBe(2);
  const strong = (await linkedRows(page, email)).find((r) => r.id !== parent.id)!;
  expect(strong).toMatchObject({ prompt: PROMPT, parent_id: parent.id, variation: "strong" });
  expect(strong.seed).not.toBe(parent.seed);

  // The parent's strip lists its variation; walking to it, the variation's strip shows the parent.
  const lineage = variations.getByRole("navigation", { name: "Lineage" });
  await expect(lineage.getByRole("button", { name: "Variation (strong)" })).toBeVisible({ timeout: 30_000 });
  await expect(lineage.getByRole("button", { name: "This image" })).toHaveAttribute("aria-current", "true");
  await lineage.getByRole("button", { name: "Next" }).click();
  await expect(lineage.getByRole("button", { name: "Parent" })).toBeVisible();
  await expect(lineage.getByRole("button", { name: "This image" })).toHaveAttribute("aria-current", "true");
  await dialog.screenshot({ path: testInfo.outputPath("variation-lineage.png") });
  const findings: Finding[] = [];
  await audit(page, "variation lineage", findings);
  expect(findings).toEqual([]);
  await lineage.getByRole("button", { name: "Parent" }).click();
  await expect(lineage.getByRole("button", { name: "Variation (strong)" })).toBeVisible();

  // Subtle, offline: queued on the device, it waits for the connection and runs on reconnect.
  await context.setOffline(true);
  await variations.getByRole("button", { name: "Vary (subtle)" }).click();
  await expect(page.getByText("Vary (subtle) queued")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(generationDialog(page)).toBeHidden();
  await context.setOffline(false);
  await expect.poll(async () => (await linkedRows(page, email)).length, { timeout: 90_000 }).toBe(3);
  const subtle = (await linkedRows(page, email)).find((r) => r.variation === "subtle")!;
  expect(subtle).toMatchObject({ prompt: PROMPT, parent_id: parent.id, seed: parent.seed });

  // The parent's strip now holds both of its variations, in the order they were made (History lists the
  // newest first: the parent is the last of the three).
  await openHistory(page);
  await historyTile(page, PROMPT).last().click();
  dialog = generationDialog(page);
  const strip = dialog.getByRole("navigation", { name: "Lineage" }).getByRole("button", { name: /^Variation/ });
  await expect(strip).toHaveCount(2, { timeout: 30_000 });
  await expect(strip.nth(0)).toHaveAccessibleName("Variation (strong)");
  await expect(strip.nth(1)).toHaveAccessibleName("Variation (subtle)");
});
