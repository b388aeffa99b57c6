import { expect, test } from "./support/test";

test("the app shell opens offline after one visit", async ({ page, context, allowOffline }) => {
  allowOffline("the journey goes offline on purpose");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Text to Image Generator", exact: true })).toBeVisible();
  // The worker is registered at load and precaches the build.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(async () => (await caches.keys()).some((k) => k.includes("precache"))))
    .toBe(true);

  await context.setOffline(true);
  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole("heading", { level: 1, name: "Text to Image Generator", exact: true })).toBeVisible();

  // A route never opened before still opens: navigation falls back to the cached app shell, and
  // the page's code comes from the precache.
  await page.goto("/site-map");
  await expect(page.getByRole("heading", { level: 1, name: "Site Map" })).toBeVisible();
  await page.goto("/styles/photorealistic");
  await expect(page.getByRole("heading", { level: 1, name: "Photorealistic Style" })).toBeVisible();
  // The runtime config was kept, so the app still knows its backend.
  expect(await page.evaluate(() => Boolean(window.__APP_CONFIG__?.supabaseUrl))).toBe(true);
  await context.setOffline(false);
});

test("the service worker leaves backend traffic alone", async ({ page, allowFailedRequest }) => {
  allowFailedRequest(
    /^POST \S+\/auth\/v1\/token\?grant_type=password 400$/,
    "a wrong password on purpose: refused with 400",
  );
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  const api = await page.evaluate(() => window.__APP_CONFIG__!.supabaseUrl as string);
  const seen: boolean[] = [];
  page.on("response", (res) => {
    if (res.url().startsWith(api)) seen.push(res.fromServiceWorker());
  });
  // Protected pages start the session actor, which talks to /auth/v1 through the controlled page.
  await page.goto("/auth");
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password", { exact: true }).fill("wrong-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((fromSw) => !fromSw)).toBe(true);
  // Chromium sends them past the worker (its static routes): no fetch event is dispatched for them.
  const routed = await page.evaluate(
    (origin) =>
      performance
        .getEntriesByType("resource")
        .filter((e) => e.name.startsWith(origin))
        .map((e) => (e as PerformanceResourceTiming & { workerMatchedSourceType?: string }).workerMatchedSourceType),
    api,
  );
  expect(routed.length).toBeGreaterThan(0);
  expect(routed).toEqual(routed.map(() => "network"));
});

// Where the backend shares the app's origin (a reverse proxy in front of both), its paths must never
// be answered or cached as app pages: an e-mail link to /auth/v1/verify has to reach the server.
// Without the worker's backend-path denylist, these navigations would be served from the worker
// (network-first page cache, then the precached shell) and kept in the page cache.
test("the service worker never serves or caches a same-origin backend path", async ({
  page,
  context,
  allowOffline,
  allowFailedRequest,
}) => {
  allowFailedRequest(
    /^GET http:\/\/127\.0\.0\.1:\d+\/(auth|rest|storage)\/v1\/\S* 404$/,
    "backend paths asked of the app's own server on purpose: no backend shares its origin here, so they answer 404",
  );
  allowOffline("the journey goes offline on purpose");
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  const backendPaths = [
    "/auth/v1/verify?token=abc&type=signup",
    "/rest/v1/generations?select=id",
    "/storage/v1/object/x",
  ];
  for (const path of backendPaths) {
    const response = await page.goto(path);
    expect(response, path).not.toBeNull();
    expect(response!.fromServiceWorker(), path).toBe(false);
    await page.goto("/");
  }
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(cached.length).toBeGreaterThan(0);
  expect(cached.filter((p) => /^\/(auth|rest|storage|functions|realtime|graphql)\/v1(\/|$)/.test(p))).toEqual([]);

  // Offline, a backend path fails like any network request instead of drawing the cached app shell.
  await context.setOffline(true);
  await expect(page.goto(backendPaths[0])).rejects.toThrow(/ERR_INTERNET_DISCONNECTED|ERR_FAILED/);
  await context.setOffline(false);
});
