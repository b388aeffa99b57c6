// The library (issue 10, "Verified by"): History search offline over what the device holds; publish
// and unpublish as a visitor sees them; a delete reaching another tab and another device within 2 s
// and removing the stored image; two people's private items kept apart in the UI and by direct URL.
// Images are made through the generator (built-in engine); no account makes more than two.
import { expect, test } from "./support/test";
import { tileSide } from "#src/features/gallery/use-published-image.ts";
import { audit, signIn, signUp, uniqueEmail, type Finding } from "./support/app";
import { ensureControlled, serverSession, toasts } from "./support/generator";
import {
  downloadObject,
  renderThumbnail,
  expectImageLoaded,
  generateImages,
  generationDialog,
  historyTile,
  listFolder,
  newDevice,
  openHistory,
  openLargeView,
  ownGenerations,
  rowsOf,
  serviceHeaders,
  signObject,
  userHeaders,
  visitorHeaders,
} from "./support/library";

test("History search works offline over this device's items, and a found item's image opens offline", async ({
  page,
  context,
  allowOffline,
}) => {
  allowOffline("the journey goes offline on purpose");
  test.setTimeout(150_000);
  await signUp(page, uniqueEmail("lib-offline"));
  const found = "A copper kettle steaming on a stove";
  const other = "A snowy forest path at night";
  await generateImages(page, [found, other]);
  await openHistory(page);
  await ensureControlled(page);
  await expect(historyTile(page, found)).toBeVisible();
  await expect(historyTile(page, other)).toBeVisible();
  // The grid with items (its rows, tiles and badges) adds no accessibility violation.
  const findings: Finding[] = [];
  await audit(page, "/history with items", findings);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);

  await context.setOffline(true);
  // Offline, the page comes from the service worker and the items from Dexie.
  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await expect(historyTile(page, other)).toBeVisible();
  await page.getByRole("searchbox", { name: "Search prompts" }).fill("kettle");
  await expect(page.getByRole("status").filter({ hasText: /generations? match/ })).toHaveText("1 generation match");
  await expect(historyTile(page, found)).toBeVisible();
  await expect(historyTile(page, other)).toHaveCount(0);

  const dialog = await openLargeView(page, found);
  const img = dialog.getByRole("img", { name: found, exact: true });
  // The bytes were cached when the image was made here: no network is needed to show them.
  await expectImageLoaded(img, [1024, 1024]);
  expect(await img.getAttribute("src")).toMatch(/^blob:/);
  await context.setOffline(false);
});

test("a published image is found by a visitor in /gallery and loads; unpublished it is gone for them", async ({
  page,
  browser,
  allowFailedRequest,
}, testInfo) => {
  test.setTimeout(150_000);
  allowFailedRequest(/\/assets\/\S+\.js net::ERR_FAILED$/, "the slow visitor's app code is aborted on purpose");
  const email = uniqueEmail("lib-publish");
  await signUp(page, email);
  const prompt = "A lighthouse keeper painting seashells";
  await generateImages(page, [prompt]);
  const owner = await serverSession(page, email);
  const [row] = await ownGenerations(page.request, owner);
  expect(row.is_public, "new images stay private by default").toBe(false);

  await openHistory(page);
  const dialog = await openLargeView(page, prompt);
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(toasts(page).getByText("Published to the gallery")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Unpublish", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await ownGenerations(page.request, owner))[0].is_public).toBe(true);

  const visitor = await newDevice(browser, testInfo);
  const anon = await visitorHeaders(visitor.page);
  await visitor.page.goto(`/gallery?q=${encodeURIComponent("seashells")}`);
  const tile = visitor.page
    .getByRole("list", { name: "Published images" })
    .getByRole("button", { name: `Open: ${prompt}`, exact: true });
  await expect(tile).toBeVisible();
  // The tile's image is decorative (alt=""), so it is found as an element, not by role. A tile shows a
  // thumbnail the Storage API scales to the tile's drawn size on this screen; the large view shows the
  // stored picture.
  const [tileWidth, pixelRatio] = await tile.evaluate((el) => [el.clientWidth, window.devicePixelRatio]);
  const side = tileSide(tileWidth, pixelRatio);
  expect(side, "a desktop tile at 1x asks for less than the stored 1024 px").toBeLessThan(1024);
  await expectImageLoaded(tile.locator("img"), [side, side]);
  await tile.click();
  const shown = visitor.page.getByRole("dialog", { name: "Published image" });
  await expectImageLoaded(shown.getByRole("img", { name: prompt, exact: true }), [1024, 1024]);
  // The visitor may fetch a published image through the Storage API too (the control for the check below).
  expect((await downloadObject(visitor.page.request, owner.api, anon, row.image_path)).status).toBe(200);
  expect(await renderThumbnail(visitor.page.request, owner.api, anon, row.image_path)).toBe(200);

  // A visitor whose copy of the app's code is still on its way already sees the pictures: the
  // prerendered /gallery's inline script draws the first screen's thumbnails into its placeholder tiles.
  const slow = await newDevice(browser, testInfo);
  await slow.page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await slow.page.goto("/gallery");
  await expect(slow.page.locator("[data-gallery-placeholder]").first()).toHaveCSS("background-image", /^url\("blob:/);
  await slow.context.close();
  // With the code, the page goes live over that markup (no redraw) and its tiles show the same object URLs.
  // A phone's screen (a pixel ratio of 1.75: a tile's picture needs 319 px, its bordered box 322).
  const live = await newDevice(browser, testInfo, {
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
  });
  const warnings: string[] = [];
  live.page.on("console", (m) => void (m.type() === "warning" && warnings.push(m.text())));
  // What the page shows when the service worker registers (its install downloads the whole precache).
  await live.page.addInitScript(() => {
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...args) {
      const inView = [...document.querySelectorAll('[aria-label="Published images"] li')].filter(
        (tile) => tile.getBoundingClientRect().top < window.innerHeight,
      );
      (window as { atRegistration?: object }).atRegistration = {
        inView: inView.length,
        drawn: inView.filter((tile) => tile.querySelector('img[src^="blob:"]')).length,
        placeholders: document.querySelectorAll("[data-gallery-placeholder]").length,
      };
      return register.apply(this, args);
    };
  });
  // Slow thumbnails, as on a phone's line: the document's load event comes long before the pictures.
  await live.page.route(/\/render\/image\//, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const thumbnailTypes: string[] = [];
  const thumbnailPaths: string[] = [];
  live.page.on("response", (res) => {
    if (!res.url().includes("/render/image/")) return;
    thumbnailTypes.push(res.headers()["content-type"] ?? "");
    thumbnailPaths.push(new URL(res.url()).pathname);
  });
  await live.page.goto("/gallery");
  const first = live.page.getByRole("list", { name: "Published images" }).locator("img").first();
  await expect(first).toHaveAttribute("src", /^blob:/);
  await expect(live.page.locator("[data-gallery-placeholder]")).toHaveCount(0);
  expect(warnings.filter((w) => w.includes("[hydrate]"))).toEqual([]);
  // Thumbnails come as WebP, and the service worker registers only once every tile in view shows its picture.
  expect(thumbnailTypes.length).toBeGreaterThan(0);
  expect(new Set(thumbnailTypes)).toEqual(new Set(["image/webp"]));
  // The page takes the first screen's thumbnail instead of asking again: both size it alike.
  expect(thumbnailPaths.length, `thumbnails read: ${thumbnailPaths.join(", ")}`).toBe(new Set(thumbnailPaths).size);
  await live.page.evaluate(() => navigator.serviceWorker.ready);
  const atRegistration = await live.page.evaluate(
    () => (window as { atRegistration?: { inView: number; drawn: number; placeholders: number } }).atRegistration,
  );
  expect(atRegistration?.inView).toBeGreaterThan(0);
  expect(atRegistration).toEqual({ inView: atRegistration?.inView, drawn: atRegistration?.inView, placeholders: 0 });
  await live.context.close();
  // A visitor who only looks never loads the API client: a tile below the fold, which the first screen
  // leaves alone (on a screen this low every tile is there), reads its thumbnail with plain fetch too.
  const low = await newDevice(browser, testInfo);
  await low.page.setViewportSize({ width: 1280, height: 240 });
  const scripts: Promise<{ url: string; text: string }>[] = [];
  low.page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push(
      res.text().then(
        (text) => ({ url: res.url(), text }),
        () => ({ url: res.url(), text: "" }),
      ),
    );
  });
  await low.page.goto("/gallery");
  const tiles = low.page.getByRole("list", { name: "Published images" }).getByRole("button", { name: /^Open: / });
  await expect(tiles.first()).toBeAttached();
  expect(
    await tiles.first().evaluate((el) => el.getBoundingClientRect().top >= window.innerHeight),
    "below the fold",
  ).toBe(true);
  for (const tile of await tiles.all()) {
    await tile.scrollIntoViewIfNeeded();
    await expect(tile.locator("img")).toHaveAttribute("src", /^blob:/);
  }
  const client = (await Promise.all(scripts)).filter((s) => s.text.includes("supabase-js")).map((s) => s.url);
  expect(client, "scripts holding supabase-js").toEqual([]);
  await low.context.close();

  await dialog.getByRole("button", { name: "Unpublish", exact: true }).click();
  await expect(toasts(page).getByText("Removed from the gallery")).toBeVisible();
  await expect.poll(async () => (await ownGenerations(page.request, owner))[0].is_public).toBe(false);

  await visitor.page.reload();
  await expect(visitor.page.getByText("Nothing published matches that search.")).toBeVisible();
  await expect(tile).toHaveCount(0);
  const after = await downloadObject(visitor.page.request, owner.api, anon, row.image_path);
  expect(after.status, "a visitor's download of an unpublished image").not.toBe(200);
  expect(await renderThumbnail(visitor.page.request, owner.api, anon, row.image_path), "its thumbnail").not.toBe(200);
  expect(await signObject(visitor.page.request, owner.api, anon, row.image_path), "a visitor's signed URL").not.toBe(
    200,
  );
  await visitor.context.close();
});

test("a delete in one tab is gone in another tab and on another device within 2 s, image included", async ({
  page,
  context,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const email = uniqueEmail("lib-delete");
  await signUp(page, email);
  const prompt = "A red kite over a wheat field";
  await generateImages(page, [prompt]);
  const owner = await serverSession(page, email);
  const [row] = await ownGenerations(page.request, owner);
  const service = await serviceHeaders(page);
  expect((await downloadObject(page.request, owner.api, userHeaders(owner), row.image_path)).status).toBe(200);
  expect(await listFolder(page.request, owner.api, service, owner.userId)).toHaveLength(1);

  const tab = await context.newPage();
  await openHistory(tab);
  await expect(historyTile(tab, prompt)).toBeVisible();
  const device = await newDevice(browser, testInfo);
  await device.page.goto("/auth");
  await signIn(device.page, email);
  await expect(device.page.getByRole("button", { name: `Account menu for ${email}` })).toBeVisible();
  await openHistory(device.page);
  await expect(historyTile(device.page, prompt)).toBeVisible({ timeout: 15_000 });

  await openHistory(page);
  const dialog = await openLargeView(page, prompt);
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await dialog.getByRole("button", { name: "Delete for good" }).click();
  const deletedAt = Date.now();
  await expect(toasts(page).getByText("Generation deleted")).toBeVisible();
  await expect(generationDialog(page)).toHaveCount(0);
  await expect(historyTile(page, prompt)).toHaveCount(0);

  const left = () => Math.max(100, deletedAt + 2_000 - Date.now());
  await expect(historyTile(tab, prompt)).toHaveCount(0, { timeout: left() });
  await expect(historyTile(device.page, prompt)).toHaveCount(0, { timeout: left() });
  testInfo.annotations.push({
    type: "other device saw the delete after (ms)",
    description: String(Date.now() - deletedAt),
  });

  // The stored image is gone with the row: the owner cannot download it and nothing is left in the folder.
  await expect
    .poll(async () => (await downloadObject(page.request, owner.api, userHeaders(owner), row.image_path)).status, {
      timeout: 10_000,
    })
    .not.toBe(200);
  expect(await listFolder(page.request, owner.api, service, owner.userId)).toEqual([]);
  expect(await rowsOf(page.request, owner.api, service, "generations", owner.userId, "id")).toEqual([]);
  await device.context.close();
});

test("two people never see each other's private items, in History or by the image's direct URL", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const emailA = uniqueEmail("lib-private-a");
  await signUp(page, emailA);
  const prompt = "A private greenhouse full of orchids";
  await generateImages(page, [prompt]);
  const a = await serverSession(page, emailA);
  const [row] = await ownGenerations(page.request, a);
  await openHistory(page);
  await expect(historyTile(page, prompt)).toBeVisible();
  expect((await downloadObject(page.request, a.api, userHeaders(a), row.image_path)).status).toBe(200);

  const other = await newDevice(browser, testInfo);
  const emailB = uniqueEmail("lib-private-b");
  await signUp(other.page, emailB);
  await openHistory(other.page);
  await expect(other.page.getByText("Nothing here yet.")).toBeVisible();
  await expect(other.page.getByRole("button", { name: `Open: ${prompt}` })).toHaveCount(0);
  await other.page.goto(`/gallery?q=${encodeURIComponent("orchids")}`);
  await expect(other.page.getByText("Nothing published matches that search.")).toBeVisible();

  const b = await serverSession(other.page, emailB);
  const asB = userHeaders(b);
  const direct = await downloadObject(other.page.request, b.api, asB, row.image_path);
  expect(direct.status, "B downloading A's object").not.toBe(200);
  expect(await signObject(other.page.request, b.api, asB, row.image_path), "B signing A's object").not.toBe(200);
  expect(await listFolder(other.page.request, b.api, asB, a.userId)).toEqual([]);
  const byId = await other.page.request.get(`${b.api}/rest/v1/generations?select=id&id=eq.${row.id}`, {
    headers: asB,
  });
  expect(await byId.json()).toEqual([]);
  await other.context.close();
});
