// The library's account side (issue 10, "Verified by"): a preference changed offline on /account
// reaches the server after reconnect; the Saved zip holds the chosen images (valid PNG files, the
// stored bytes) and their settings; deleting the account leaves no row and no object of the person,
// and their sign-in fails. The server is read over REST/Storage, never through the page.
import { readFile } from "node:fs/promises";
import { expect, test } from "./support/test";
import { strFromU8, unzipSync } from "fflate";
import { STYLES } from "#shared/vocabulary/styles.ts";
import { PERSONAL_TABLES } from "../support/personal-tables.ts";
import { PASSWORD, apiUrl, audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import {
  anonKey,
  ensureControlled,
  generateOne,
  imageInfo,
  previewImage,
  serverSession,
  toasts,
} from "./support/generator";
import {
  downloadObject,
  generateImages,
  generationDialog,
  listFolder,
  openHistory,
  openLargeView,
  ownGenerations,
  rowsOf,
  serviceHeaders,
  userHeaders,
  visitorHeaders,
} from "./support/library";

test("a preference changed offline on /account reaches the server after reconnect", async ({
  page,
  context,
  request,
  allowOffline,
}) => {
  test.setTimeout(90_000);
  allowOffline("the journey goes offline on purpose");
  const email = uniqueEmail("lib-prefs");
  await signUp(page, email);
  const server = await serverSession(page, email);
  const read = async () =>
    (await rowsOf(request, server.api, userHeaders(server), "user_preferences", server.userId))[0] ?? null;
  const before = await read();
  expect(before, "the sign-up made a preferences row").not.toBeNull();
  const style = STYLES.find((s) => s.id !== before!.default_style)!;

  await page.goto("/account");
  await ensureControlled(page);
  const form = page.getByRole("region", { name: "Preferences" });
  await expect(form.getByLabel("Default style")).toHaveValue(String(before!.default_style));

  await context.setOffline(true);
  await form.getByLabel("Default style").selectOption(style.id);
  await form.getByLabel("Default quality").selectOption("ultra");
  await form.getByLabel("Default aspect ratio").selectOption("16:9");
  await form.getByRole("button", { name: "Save preferences" }).click();
  await expect(toasts(page).getByText("Preferences updated successfully")).toBeVisible();

  // Still offline, a reload keeps the change on this device while the server has not seen it yet.
  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await expect(form.getByLabel("Default style")).toHaveValue(style.id);
  const offlineRow = await read();
  expect([offlineRow?.default_style, offlineRow?.default_quality, offlineRow?.default_aspect_ratio]).toEqual([
    before!.default_style,
    before!.default_quality,
    before!.default_aspect_ratio,
  ]);

  await context.setOffline(false);
  await expect
    .poll(
      async () => {
        const row = await read();
        return [row?.default_style, row?.default_quality, row?.default_aspect_ratio];
      },
      { timeout: 15_000 },
    )
    .toEqual([style.id, "ultra", "16:9"]);
});

test("the Saved zip holds the selected images as valid PNG files and their settings", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const email = uniqueEmail("lib-zip");
  await signUp(page, email);
  const square = "A blue teapot on a windowsill";
  const wide = "A yellow tram crossing a bridge";
  await generateImages(page, [square]);
  // The second image is wide, so each file's header size is told apart from the other's.
  await page
    .locator("label")
    .filter({ has: page.getByRole("radio", { name: /^16:9/ }) })
    .click();
  await generateOne(page, wide);
  await expect(previewImage(page, wide)).toBeVisible({ timeout: 45_000 });

  await openHistory(page);
  for (const prompt of [square, wide]) {
    const dialog = await openLargeView(page, prompt);
    await dialog.getByRole("button", { name: "Save", exact: true }).click();
    await expect(dialog.getByRole("button", { name: "Unsave", exact: true })).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(generationDialog(page)).toHaveCount(0);
  }

  await page.goto("/my-generations");
  for (const prompt of [square, wide]) await page.getByRole("checkbox", { name: `Select: ${prompt}` }).check();
  await expect(page.getByRole("toolbar", { name: "Selection" }).getByRole("status")).toHaveText("2 selected");
  const findings: Finding[] = [];
  await audit(page, "/my-generations with a selection", findings);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download zip" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^promptcanvas-saved-\d{4}-\d{2}-\d{2}\.zip$/);
  const path = testInfo.outputPath("saved.zip");
  await download.saveAs(path);
  const files = unzipSync(new Uint8Array(await readFile(path)));

  const server = await serverSession(page, email);
  const rows = await ownGenerations(page.request, server);
  expect(rows).toHaveLength(2);
  type Recipe = { file: string; id: string; prompt: string; style: string; quality: string; aspectRatio: string };
  const settings = JSON.parse(strFromU8(files["settings.json"])) as (Recipe & Record<string, unknown>)[];
  expect(settings).toHaveLength(2);
  const images = Object.keys(files).filter((n) => n !== "settings.json" && n !== "settings.csv");
  expect(images.sort()).toEqual(settings.map((s) => s.file).sort());
  expect(Object.keys(files)).toContain("settings.csv");

  for (const row of rows) {
    const recipe = settings.find((s) => s.id === row.id);
    expect(recipe, `settings.json lists ${row.prompt}`).toBeDefined();
    expect(recipe).toMatchObject({
      prompt: row.prompt,
      style: row.style,
      quality: row.quality,
      aspectRatio: row.aspect_ratio,
      width: row.width,
      height: row.height,
      seed: row.seed,
    });
    const bytes = Buffer.from(files[recipe!.file]);
    expect({ file: recipe!.file, ...imageInfo(bytes) }).toEqual({
      file: recipe!.file,
      format: "png",
      width: row.width,
      height: row.height,
    });
    // The zip carries the image as stored, not a re-encoding.
    const stored = await downloadObject(page.request, server.api, userHeaders(server), row.image_path);
    expect(stored.status).toBe(200);
    expect(bytes.equals(stored.body), `${recipe!.file} equals the stored object`).toBe(true);
  }
  expect(rows.map((r) => [r.width, r.height]).sort()).toEqual([
    [1024, 1024],
    [1536, 1024],
  ]);
  // The CSV has a header and one line per image.
  expect(strFromU8(files["settings.csv"]).trim().split("\n")).toHaveLength(3);
});

test("delete account: sign-in fails afterwards and no row or stored image of the person remains", async ({
  page,
  allowFailedRequest,
}) => {
  test.setTimeout(120_000);
  // Signing in with the deleted account's password on purpose.
  allowFailedRequest(
    /^POST \S+\/auth\/v1\/token\?grant_type=password 400$/,
    "a wrong password on purpose: refused with 400",
  );
  const email = uniqueEmail("lib-goodbye");
  await signUp(page, email);
  const prompt = "A paper boat drifting in a puddle";
  await generateImages(page, [prompt]);
  // Published, so the public gallery would show it if anything of it survived.
  await openHistory(page);
  const dialog = await openLargeView(page, prompt);
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(dialog.getByRole("button", { name: "Unpublish", exact: true })).toBeVisible();

  const server = await serverSession(page, email);
  await expect.poll(async () => (await ownGenerations(page.request, server))[0]?.is_public).toBe(true);
  const [row] = await ownGenerations(page.request, server);
  const service = await serviceHeaders(page);
  const counts = async () => {
    const out: Record<string, number> = {};
    for (const t of PERSONAL_TABLES)
      out[t] = (await rowsOf(page.request, server.api, service, t, server.userId)).length;
    return out;
  };
  // The control: the service role sees this person's rows and object before the delete.
  const before = await counts();
  expect(before).toMatchObject({ generations: 1, user_preferences: 1, user_daily_limits: 1 });
  expect(await listFolder(page.request, server.api, service, server.userId)).toHaveLength(1);

  await page.goto("/account");
  // The server ends the session with the account: the sign-out that follows is this device's alone.
  const logouts: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/auth/v1/logout")) logouts.push(r.url());
  });
  await page.getByRole("button", { name: "Delete account…" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(confirm).toContainText(email);
  await confirm.getByRole("button", { name: "Delete my account" }).click();
  await expect(toasts(page).getByText("Your account was deleted")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  expect(logouts).toEqual([]);
  // The stored session is gone too: a reload stays signed out.
  await page.reload();
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();

  // Signing in fails, over the API and on the page.
  const api = await apiUrl(page);
  const token = await page.request.post(`${api}/auth/v1/token?grant_type=password`, {
    headers: { apikey: await anonKey(page), "Content-Type": "application/json" },
    data: { email, password: PASSWORD },
  });
  expect(token.status()).toBe(400);
  await page.goto("/auth");
  await signIn(page, email);
  await expect(page.getByRole("alert")).toHaveText(/That email and password don't match an account/);

  expect(await counts()).toEqual(Object.fromEntries(PERSONAL_TABLES.map((t) => [t, 0])));
  expect(await listFolder(page.request, server.api, service, server.userId)).toEqual([]);
  const anon = await visitorHeaders(page);
  expect((await downloadObject(page.request, api, anon, row.image_path)).status).not.toBe(200);
  await page.goto(`/gallery?q=${encodeURIComponent("puddle")}`);
  await expect(page.getByText("Nothing published matches that search.")).toBeVisible();
});
