// The installable app: a valid manifest whose icons load, a service worker in control, Chromium's own
// installability check passing, and public pages that open offline once visited.
import { chromium, expect, test, type APIRequestContext } from "./support/test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Icon = { src: string; sizes: string; type?: string; purpose?: string };

async function pngSize(request: APIRequestContext, src: string): Promise<[number, number]> {
  const res = await request.get(src);
  expect(res.status(), src).toBe(200);
  expect(res.headers()["content-type"], src).toBe("image/png");
  const png = await res.body();
  expect(png.subarray(1, 4).toString(), src).toBe("PNG");
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

test("the manifest describes an installable app whose icons load", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  const res = await request.get(href!);
  expect(res.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: expect.stringContaining("PromptCanvas"),
    short_name: "PromptCanvas",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
  });
  const icons = manifest.icons as Icon[];
  for (const [size, purpose] of [
    ["192x192", "any"],
    ["512x512", "any"],
    ["192x192", "maskable"],
    ["512x512", "maskable"],
  ]) {
    const icon = icons.find((i) => i.sizes === size && (i.purpose ?? "any").split(" ").includes(purpose));
    expect(icon, `${size} ${purpose}`).toBeTruthy();
    const [w, h] = await pngSize(request, icon!.src);
    expect(`${w}x${h}`).toBe(size);
  }
  const shortcuts = (manifest.shortcuts as { name: string; url: string }[]).map((s) => [s.name, s.url]);
  expect(shortcuts).toEqual(
    expect.arrayContaining([
      ["Generate", "/generate"],
      ["History", "/history"],
    ]),
  );
});

test("Chromium finds the app installable once the service worker controls the page", async ({
  baseURL,
  launchOptions,
  watchContext,
}) => {
  // Installability is never granted to incognito-like contexts, so this one gets a real profile.
  const profile = mkdtempSync(join(tmpdir(), "promptcanvas-install-"));
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  watchContext(context);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto("/");
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    const { url, errors } = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test("public pages visited once open offline with their content", async ({ page, context, allowOffline }) => {
  allowOffline("the journey goes offline on purpose");
  // The first page is loaded before the worker exists; the worker keeps a copy when it activates.
  await page.goto("/pricing");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await expect
    .poll(() => page.evaluate(async () => Boolean(await (await caches.open("promptcanvas-pages")).match("/pricing"))))
    .toBe(true);
  // Pages opened while the worker is in control are kept as they are served.
  await page.goto("/blog/prompt-engineering-masterclass");
  await expect(page.getByRole("heading", { level: 1, name: "Prompt Engineering Masterclass" })).toBeVisible();
  await page.goto("/styles");
  await expect(page.getByRole("heading", { level: 1, name: "Styles" })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Photorealistic preview/ })).toBeVisible();

  await context.setOffline(true);
  for (const [path, heading, text] of [
    ["/pricing", "Pricing", "Connect Supabase + Stripe to enable subscriptions."],
    ["/blog/prompt-engineering-masterclass", "Prompt Engineering Masterclass", "A structure that works"],
    ["/styles", "Styles", "Photorealistic"],
  ]) {
    const res = await page.goto(path);
    expect(res?.fromServiceWorker(), path).toBe(true);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.locator("main")).toContainText(text);
  }
  // Previews the page showed online come from the cache.
  await expect
    .poll(() =>
      page.getByRole("img", { name: /^Photorealistic preview/ }).evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);
  // A page never visited still opens: the app draws it from the precached shell.
  await page.goto("/terms");
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
  await context.setOffline(false);
});
