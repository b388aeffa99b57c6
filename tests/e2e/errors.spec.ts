import { expect, test } from "./support/test";

// No service worker here: it would answer the chunk from its precache and the failure could not happen.
test.use({ serviceWorkers: "block" });

test("a page whose code cannot load shows the router error screen", async ({ page, allowFailedRequest }) => {
  allowFailedRequest(
    /\/assets\/site-map-page-\S+\.js net::ERR_INTERNET_DISCONNECTED$/,
    "the page's chunk is aborted on purpose",
  );
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Text to Image Generator", exact: true })).toBeVisible();
  // The prerendered page is on screen before the app takes it over; a click before that is an
  // ordinary page load, not the in-app navigation this test is about.
  await expect(page.locator("#root[data-ssr]")).toHaveCount(0);
  await page.route("**/assets/site-map-page-*.js", (route) => route.abort("internetdisconnected"));

  await page.getByRole("contentinfo").getByRole("link", { name: "Site map" }).click();
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reload" })).toBeVisible();

  // The shell around it still works: moving to another page clears the error.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Gallery" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Gallery" })).toBeVisible();
});
