// Open an image to remix it (issue 28): a downloaded PNG, JPG and WebP carry their recipe, and opening
// each on /generate fills every field; an image without a recipe becomes the reference image; an image
// shared from another app (the manifest's share target, a multipart POST the service worker answers)
// lands as the reference image, offline too.
import { readFileSync } from "node:fs";
import { readRecipe } from "../../supabase/functions/_shared/recipe-metadata/recipe-file.ts";
import { expect, test, type Page } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";
import { ensureControlled, generateOne, openGenerator, previewImage, shareImage, toasts } from "./support/generator";

const PROMPT = "A red fox in the snow at dawn";
const NEGATIVE = "blurry, text";
/** The generator's fields once an image of this file's recipe is opened. */
const FILLED = { prompt: PROMPT, negative: NEGATIVE, seed: "4242", ratio: true, quality: true };

async function fields(page: Page) {
  return {
    prompt: await page.getByLabel("Prompt", { exact: true }).inputValue(),
    negative: await page.getByLabel("Negative prompt").inputValue(),
    seed: await page.getByLabel("Seed").inputValue(),
    ratio: await page.getByRole("radio", { name: /^16:9/ }).isChecked(),
    quality: await page.getByRole("radio", { name: /^High/ }).isChecked(),
  };
}

test("downloads carry their recipe, and opening each fills the generator; other images become the reference", async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, uniqueEmail("open-image"));
  await openGenerator(page);
  await page.getByLabel("Prompt", { exact: true }).fill(PROMPT);
  await page.getByLabel("Negative prompt").fill(NEGATIVE);
  await page
    .locator("label")
    .filter({ has: page.getByRole("radio", { name: /^16:9/ }) })
    .click();
  await page
    .locator("label")
    .filter({ has: page.getByRole("radio", { name: /^High/ }) })
    .click();
  await page.getByLabel("Seed").fill("4242");
  await generateOne(page, PROMPT);
  await expect(previewImage(page, PROMPT)).toBeVisible({ timeout: 30_000 });

  const files: string[] = [];
  for (const format of ["PNG", "JPG", "WebP"]) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: `Download ${format}` }).click(),
    ]);
    const path = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(path);
    // The file itself carries the recipe, read back here with the product's reader.
    const recipe = readRecipe(new Uint8Array(readFileSync(path)));
    expect(recipe).toMatchObject({
      prompt: PROMPT,
      negativePrompt: NEGATIVE,
      aspectRatio: "16:9",
      quality: "high",
      seed: 4242,
      provider: "builtin",
      width: 1536,
      height: 1024,
    });
    files.push(path);
  }

  for (const path of files) {
    await page.getByRole("button", { name: "Reset" }).click();
    expect((await fields(page)).prompt).toBe("");
    await page.getByLabel("Image to open").setInputFiles(path);
    await expect(toasts(page).getByText("Settings filled in from the image").first()).toBeVisible();
    await expect.poll(() => fields(page)).toEqual(FILLED);
  }

  // Dropped on the generator, the PNG does the same.
  await page.getByRole("button", { name: "Reset" }).click();
  const dropped = await page.evaluateHandle(
    (bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], "dropped.png", { type: "image/png" }));
      return data;
    },
    [...readFileSync(files[0])],
  );
  const form = page.getByRole("form", { name: "Generation settings" });
  await form.dispatchEvent("dragover", { dataTransfer: dropped });
  await expect(page.getByText("Drop to open this image")).toBeVisible();
  await form.dispatchEvent("drop", { dataTransfer: dropped });
  await expect.poll(() => fields(page)).toEqual(FILLED);

  // An image with no recipe (the app's own icon) becomes the reference image.
  await page.getByRole("button", { name: "Reset" }).click();
  const icon = await (await page.request.get("/icons/icon-192.png")).body();
  await page.getByLabel("Image to open").setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: icon });
  await expect(toasts(page).getByText("Added as the reference image")).toBeVisible();
  await expect(page.getByRole("img", { name: /^Reference image/ })).toBeVisible();
  expect((await fields(page)).prompt).toBe("");
});

test("an image shared from another app lands on the generator as the reference image, offline too", async ({
  page,
  context,
  allowOffline,
}) => {
  test.setTimeout(90_000);
  allowOffline("the share is made offline on purpose");
  await openGenerator(page);
  await ensureControlled(page);
  const icon = await (await page.request.get("/icons/icon-512.png")).body();
  await context.setOffline(true);
  await shareImage(page, icon, "holiday.png", "Shared from Photos");
  await expect(page.getByRole("img", { name: "Reference image: holiday.png" })).toBeVisible();
  await expect(page).toHaveURL(/\/generate$/);
  await context.setOffline(false);
});
