// Collections (issue 46 point 3, decision 157), on two devices signed in as the same person: device A, offline,
// makes a collection and adds two images from History; once A reconnects, device B (open all along) shows it
// with its two images without a reload. A smart collection (style + saved) lists exactly the images its filter
// says and not the others. A rename made on B and a delete made on A reach the other device; the collection
// downloads as one zip holding its images; an image made on A with "Add new results to" naming the collection
// is counted in it on B. Both pages pass axe; screenshots at desktop and phone widths land
// in the test's output.
import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { accountButton, audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import { ensureControlled, generateWith } from "./support/generator";
import { generationDialog, historyTile, newDevice, openHistory } from "./support/library";

const SAVED_WATERCOLOR = "A heron in the reeds at dusk";
const SAVED_ANIME = "A heron over a neon harbour";
const WATERCOLOR = "A heron on a snowy branch";

const collectionList = (page: Page) => page.getByRole("list", { name: "Your collections" });
const card = (page: Page, name: string) =>
  collectionList(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name, exact: true }) });
const collectionGrid = (page: Page, name: string) => page.getByRole("list", { name: `Images in ${name}` });

/** Goes to `path` inside the app (no page load: the way a link does, which works offline). */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

async function openCollections(page: Page): Promise<void> {
  await goInApp(page, "/collections");
  await expect(page.getByRole("heading", { name: "Collections", level: 1 })).toBeVisible();
}

async function newCollection(page: Page, name: string, smart?: { style: string; saved: string }): Promise<void> {
  await page.getByRole("button", { name: smart ? "New smart collection" : "New collection", exact: true }).click();
  const form = page.getByRole("dialog", { name: smart ? "New smart collection" : "New collection" });
  await form.getByLabel("Name").fill(name);
  if (smart) {
    await form.getByRole("combobox", { name: "Style", exact: true }).selectOption({ label: smart.style });
    await form.getByRole("combobox", { name: "Saved", exact: true }).selectOption({ label: smart.saved });
  }
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form).toBeHidden();
}

/** The prompts of the tiles a collection's grid shows. */
async function tilesOf(page: Page, name: string): Promise<string[]> {
  const labels = await collectionGrid(page, name)
    .getByRole("button", { name: /^Open: / })
    .evaluateAll((els) => els.map((el) => el.getAttribute("aria-label") ?? ""));
  return labels.map((l) => l.replace(/^Open: /, "")).sort();
}

test("a collection made offline on A reaches B with its images; a smart one lists exactly its matches", async ({
  page,
  browser,
  allowOffline,
}, testInfo) => {
  allowOffline("device A makes its collection offline on purpose");
  test.setTimeout(300_000);
  const email = uniqueEmail("collections");
  await signUp(page, email);
  await ensureControlled(page);
  await generateWith(page, { prompt: SAVED_WATERCOLOR, style: "watercolor" });
  await generateWith(page, { prompt: SAVED_ANIME, style: "anime" });
  await generateWith(page, { prompt: WATERCOLOR, style: "watercolor" });
  await openHistory(page);
  for (const prompt of [SAVED_WATERCOLOR, SAVED_ANIME]) {
    await historyTile(page, prompt).click();
    await generationDialog(page).getByRole("button", { name: "Save", exact: true }).click();
    await expect(generationDialog(page).getByRole("button", { name: "Unsave" })).toBeVisible();
    await generationDialog(page).getByRole("button", { name: "Close" }).first().click();
  }

  const b = await newDevice(browser, testInfo);
  await b.page.goto("/auth");
  await signIn(b.page, email);
  await expect(accountButton(b.page, email)).toBeVisible();
  await b.page.goto("/collections");
  await expect(b.page.getByText("No collections yet.")).toBeVisible({ timeout: 20_000 });

  // A, offline: a collection, and two images added to it from History's selection.
  await openCollections(page);
  await page.context().setOffline(true);
  await newCollection(page, "Herons");
  await expect(card(page, "Herons")).toContainText("0 images");
  await goInApp(page, "/history");
  await page.getByRole("button", { name: "Select to compare" }).click();
  for (const prompt of [SAVED_WATERCOLOR, WATERCOLOR]) {
    await page.getByRole("checkbox", { name: `Select: ${prompt}` }).check();
  }
  await page.getByRole("toolbar", { name: "Compare" }).getByRole("button", { name: "Add to collection" }).click();
  const picker = page.getByRole("dialog", { name: "Add 2 images to collections" });
  await picker.getByRole("checkbox", { name: "Herons" }).check();
  await picker.getByRole("button", { name: "Done" }).click();
  await openCollections(page);
  await expect(card(page, "Herons")).toContainText("2 images");
  await expect(card(b.page, "Herons")).toHaveCount(0);

  // Back online, the collection and its items arrive on B, which was open all along.
  await page.context().setOffline(false);
  await expect(card(b.page, "Herons")).toContainText("2 images", { timeout: 30_000 });
  await card(b.page, "Herons").getByRole("link", { name: "Herons" }).click();
  await expect(collectionGrid(b.page, "Herons").getByRole("listitem")).toHaveCount(2);
  expect(await tilesOf(b.page, "Herons")).toEqual([SAVED_WATERCOLOR, WATERCOLOR].sort());

  // A smart collection: watercolor and saved is exactly one of the three.
  await newCollection(page, "Saved watercolours", { style: "Watercolor", saved: "Saved" });
  await expect(card(page, "Saved watercolours")).toContainText("Smart");
  await card(page, "Saved watercolours").getByRole("link", { name: "Saved watercolours" }).click();
  await expect(page.getByRole("list", { name: "Filter" }).getByRole("listitem")).toHaveText([
    "Style: Watercolor",
    "Saved",
  ]);
  await expect(collectionGrid(page, "Saved watercolours").getByRole("listitem")).toHaveCount(1);
  expect(await tilesOf(page, "Saved watercolours")).toEqual([SAVED_WATERCOLOR]);
  const findings: Finding[] = [];
  await audit(page, "smart collection", findings);
  await page.screenshot({ path: testInfo.outputPath("smart-collection.png"), fullPage: true });

  // Its words filter narrows what it shows.
  await collectionGrid(b.page, "Herons").waitFor();
  await b.page.getByRole("searchbox", { name: "Filter by words" }).fill("snowy");
  await expect(collectionGrid(b.page, "Herons").getByRole("listitem")).toHaveCount(1);
  await b.page.getByRole("searchbox", { name: "Filter by words" }).fill("");

  // The hand-made one downloads as one zip of its two images and their settings.
  await b.page.getByRole("button", { name: "Select all" }).click();
  const download = b.page.waitForEvent("download");
  await b.page.getByRole("button", { name: "Download zip" }).click();
  const zip = await download;
  expect(zip.suggestedFilename()).toMatch(/^promptcanvas-herons-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(readFileSync((await zip.path())!)));
  const settings = JSON.parse(strFromU8(files["settings.json"])) as { prompt: string; file: string }[];
  expect(settings.map((s) => s.prompt).sort()).toEqual([SAVED_WATERCOLOR, WATERCOLOR].sort());
  for (const s of settings) expect(files[s.file]?.byteLength).toBeGreaterThan(1000);
  await audit(b.page, "collection", findings);
  await b.page.screenshot({ path: testInfo.outputPath("collection.png"), fullPage: true });

  // A rename on B reaches A; a delete on A reaches B.
  await openCollections(b.page);
  await audit(b.page, "collections", findings);
  await card(b.page, "Herons").getByRole("button", { name: "Rename Herons" }).click();
  const rename = b.page.getByRole("dialog", { name: "Rename collection" });
  await rename.getByLabel("Name").fill("Grey herons");
  await rename.getByRole("button", { name: "Save" }).click();
  await openCollections(page);
  await expect(card(page, "Grey herons")).toContainText("2 images", { timeout: 30_000 });
  await card(page, "Saved watercolours").getByRole("button", { name: "Delete Saved watercolours" }).click();
  await page
    .getByRole("dialog", { name: "Delete “Saved watercolours”?" })
    .getByRole("button", { name: "Delete collection" })
    .click();
  await expect(card(b.page, "Saved watercolours")).toHaveCount(0, { timeout: 30_000 });
  await expect(card(b.page, "Grey herons")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("collections.png"), fullPage: true });

  // A's next image goes into the collection its generator names (the choice stays on the device), and B
  // counts it there.
  await page.goto("/generate");
  await page.getByLabel("Add new results to").selectOption({ label: "Grey herons" });
  await generateWith(page, { prompt: "A heron taking flight", style: "watercolor" });
  await expect(page.getByLabel("Add new results to")).toHaveValue(/.+/);
  await expect(card(b.page, "Grey herons")).toContainText("3 images", { timeout: 30_000 });

  // A phone's width.
  await b.page.setViewportSize({ width: 390, height: 844 });
  await b.page.screenshot({ path: testInfo.outputPath("collections-phone.png"), fullPage: true });
  await card(b.page, "Grey herons").getByRole("link", { name: "Grey herons" }).click();
  await expect(collectionGrid(b.page, "Grey herons").getByRole("listitem")).toHaveCount(3);
  await b.page.screenshot({ path: testInfo.outputPath("collection-phone.png"), fullPage: true });
  await audit(b.page, "collection at a phone's width", findings);

  // An unknown id says so.
  await goInApp(b.page, "/collections/00000000-0000-4000-8000-000000000000");
  await expect(b.page.getByRole("heading", { name: "Collection not found" })).toBeVisible();
  expect(findings).toEqual([]);
  await b.context.close();
});
