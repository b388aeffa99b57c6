import { expect, test, type Page } from "./support/test";

// These hosts are played over plain HTTP (a real one is served over HTTPS), where Chromium ignores the
// app's Cross-Origin-Opener-Policy header and says so on the console.
const COOP_IGNORED =
  /^The Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy/;

/**
 * Plays `host` over plain HTTP: it is served by the local app at `baseURL` (requests are answered from
 * 127.0.0.1), and the production domain is answered by a stub, so nothing leaves the machine.
 */
async function playHost(page: Page, baseURL: string, host: string): Promise<void> {
  await page.route(`http://${host}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${baseURL}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  });
  await page.route("https://promptcanvas.app/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<title>production</title><h1>production</h1>" }),
  );
}

test("a foreign host is sent to the production domain with the same path", async ({ page, baseURL, allowConsole }) => {
  allowConsole(COOP_IGNORED, "a foreign host played over plain HTTP");
  await playHost(page, baseURL!, "mirror.test");

  await page.goto("http://mirror.test/styles/anime?from=mirror");
  await expect(page).toHaveURL("https://promptcanvas.app/styles/anime?from=mirror");
});

test("127.0.0.1 stays put and shows the development banner", async ({ page }) => {
  await page.goto("/styles/anime");
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/styles\/anime$/);
  await expect(page.getByRole("region", { name: "Development mode" })).toContainText("promptcanvas.app");
});

test("a builder-platform preview host stays put and shows the development banner", async ({
  page,
  baseURL,
  allowConsole,
}) => {
  allowConsole(COOP_IGNORED, "a preview host played over plain HTTP");
  await playHost(page, baseURL!, "id-preview--e2e.lovable.app");

  await page.goto("http://id-preview--e2e.lovable.app/styles/anime");
  await expect(page.getByRole("region", { name: "Development mode" })).toContainText("promptcanvas.app");
  await expect(page).toHaveURL("http://id-preview--e2e.lovable.app/styles/anime");
});
