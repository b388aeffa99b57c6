// Nothing is broken offline: after one online visit of each route (signed in, so the signed-in pages
// draw too), every route of the route table opens offline with every picture on it loaded, no request
// failing and no uncaught error. Pictures are brought into view one by one, as a reader scrolling the
// page would, so lazy ones (the home carousel, the style grids) are asked for offline, not only the
// ones on the first screen.
import { expect, test, type Page } from "./support/test";
import { ROUTES } from "#src/app/route-table.ts";
import { signUp, uniqueEmail } from "./support/app";
import { ensureControlled } from "./support/generator";

type Broken = { route: string; src: string };

/**
 * Brings each shown <img> of the page into view and waits for it (5 s at most), in one call in the page
 * rather than a round trip an image; returns those that did not draw.
 */
async function brokenImages(page: Page, route: string): Promise<{ broken: Broken[]; checked: number }> {
  const { failed, checked } = await page.evaluate(async () => {
    const failed: string[] = [];
    let checked = 0;
    for (const el of Array.from(document.querySelectorAll("img"))) {
      // Pictures inside closed menus or collapsed panels, or gone meanwhile, are not shown, so not asked for.
      if (!el.isConnected || !el.checkVisibility()) continue;
      checked += 1;
      el.scrollIntoView({ block: "center" });
      const ok = await new Promise<boolean>((resolve) => {
        const done = () => resolve(el.complete && el.naturalWidth > 0);
        if (el.complete) return done();
        el.addEventListener("load", done, { once: true });
        el.addEventListener("error", done, { once: true });
        setTimeout(done, 5_000);
      });
      if (!ok) failed.push(el.currentSrc || el.src);
    }
    return { failed, checked };
  });
  return { broken: failed.map((src) => ({ route, src })), checked };
}

test("every route opens offline after one online visit: no broken picture, failed request or error", async ({
  page,
  context,
  allowOffline,
}) => {
  allowOffline("the journey goes offline on purpose");
  test.setTimeout(240_000);
  const failed: string[] = [];
  const errors: string[] = [];
  // The app's own files (pages, code, pictures, config) come from the service worker and must never
  // fail; and offline the app sends the backend nothing it knows will fail (src/lib/online.ts): the
  // pull, the limits, the gallery and the probes wait for the connection. Any failed request counts.
  // A load the page itself cancels (net::ERR_ABORTED: a picture replaced or unmounted while it loads, as
  // the style grid does when it opens) is not a failure to serve it; a broken picture is counted apart.
  page.on("requestfailed", (r) => {
    const why = r.failure()?.errorText ?? "?";
    if (why !== "net::ERR_ABORTED") failed.push(`${r.method()} ${r.url()} (${why})`);
  });
  page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));

  const email = uniqueEmail("offline-routes");
  await signUp(page, email);
  await ensureControlled(page);

  // One online visit of every route. Each visit waits for the network to settle, so no request is cut
  // short by the next navigation (that would be counted as failed).
  for (const route of ROUTES) {
    await page.goto(route.path, { waitUntil: "networkidle" });
    await expect(page.locator("h1").first()).toBeVisible();
  }
  expect(failed, "no request failed online").toEqual([]);

  await context.setOffline(true);
  const broken: Broken[] = [];
  let pictures = 0;
  for (const route of ROUTES) {
    const seenFailed = failed.length;
    const response = await page.goto(route.path, { waitUntil: "networkidle" });
    expect(response?.fromServiceWorker(), `${route.path} came from the service worker`).toBe(true);
    await expect(page.locator("h1").first(), `${route.path} drew its heading offline`).toBeVisible();
    // Signed in, /auth and /reset-password send the person on to the dashboard, as they do online.
    if (new URL(page.url()).pathname === route.path) {
      await expect(page).toHaveTitle(new RegExp(route.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    }
    const result = await brokenImages(page, route.path);
    broken.push(...result.broken);
    pictures += result.checked;
    await page.waitForLoadState("networkidle");
    expect(failed.slice(seenFailed), `no request failed on ${route.path}`).toEqual([]);
  }

  // The generator's full style grid: all 27 previews, none of them shown on its first screen online.
  await page.goto("/generate");
  await page.getByRole("button", { name: /show all/i }).click();
  const grid = await brokenImages(page, "/generate (all styles)");
  broken.push(...grid.broken);
  pictures += grid.checked;
  expect(grid.checked).toBeGreaterThanOrEqual(27);

  expect(broken, "broken pictures offline").toEqual([]);
  expect(failed, "failed requests offline").toEqual([]);
  expect(errors, "uncaught errors").toEqual([]);
  // The routes do show pictures: carousel (5), style cards and examples, the generator's grid.
  expect(pictures).toBeGreaterThan(60);

  // The gallery (published rows are not kept on the device) says it needs a connection, and loads
  // once the connection is back, without a reload.
  await page.goto("/gallery", { waitUntil: "networkidle" });
  await expect(page.getByText("The gallery needs a connection")).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole("status").filter({ hasText: /^\d+\+? published images?$/ })).toBeVisible();
  await expect(page.getByText("The gallery needs a connection")).toHaveCount(0);
  expect(failed, "failed requests").toEqual([]);
});

// The first page a person opens is loaded before the service worker exists; its pictures must still be
// there offline, and so must those of pages never opened online.
test("after a first visit of the home page alone, its carousel and every style preview show offline", async ({
  page,
  context,
  allowOffline,
}) => {
  allowOffline("the journey goes offline on purpose");
  // A visitor who is not signed in: the page asks the backend for nothing it cannot do without.
  await page.goto("/");
  await ensureControlled(page);
  // A load the next navigation cancels (net::ERR_ABORTED: a page's late chunks, its loads ahead) says
  // nothing of what is served offline; one that is not served fails with another error.
  const failed: string[] = [];
  page.on("requestfailed", (r) => {
    const error = r.failure()?.errorText;
    if (error !== "net::ERR_ABORTED") failed.push(`${r.method()} ${r.url()} ${error}`);
  });
  await context.setOffline(true);

  const broken: Broken[] = [];
  for (const path of ["/", "/styles-library", "/styles/anime", "/styles/photorealistic"]) {
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.locator("h1").first()).toBeVisible();
    broken.push(...(await brokenImages(page, path)).broken);
  }
  await page.goto("/");
  const carousel = page.getByRole("list", { name: "Discover styles" }).locator("img");
  await expect(carousel).toHaveCount(5);
  expect(broken).toEqual([]);
  expect(failed).toEqual([]);
  await context.setOffline(false);
});
