// The browser side of the door (decision 128): the app server's policy and hardening headers, a page of
// another site that frames the app or posts a form to its share target, and `from=` values that try to
// leave for another origin. Other sites are played by a tiny server on `localhost` (another site than
// 127.0.0.1, where the app is served).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "./support/test";
import { apiUrl, signUp, uniqueEmail } from "./support/app";
import { ensureControlled, generateOne, openGenerator, previewImage, shareImage } from "./support/generator";

let evil: Server;
let evilOrigin: string;
const evilPages = new Map<string, string>();

test.beforeAll(async () => {
  evil = createServer((req, res) => {
    const body = evilPages.get(new URL(req.url ?? "/", "http://x").pathname);
    res.writeHead(body ? 200 : 204, { "Content-Type": "text/html; charset=utf-8" }).end(body ?? "");
  });
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  evilOrigin = `http://localhost:${(evil.address() as AddressInfo).port}`;
});

test.afterAll(() => {
  evil?.close();
});

/** Every `securitypolicyviolation` a page of the context reports, kept in the page for `violations`. */
async function recordViolations(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.effectiveDirective} ${e.blockedURI} on ${location.pathname}`),
    );
  });
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);

test("every page carries the policy and hardening headers, and none of the journeys breaks the policy", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = new URL(await apiUrl(page));
  for (const path of ["/", "/gallery", "/pricing", "/auth", "/generate", "/history", "/no-such-page", "/sw.js"]) {
    const response = await page.request.get(path, { failOnStatusCode: false });
    const headers = response.headers();
    const policy = headers["content-security-policy"] ?? "";
    expect(policy, path).toContain("frame-ancestors 'none'");
    expect(policy, path).toContain(`connect-src 'self' ${api.origin} ws://${api.host}`);
    expect(/script-src ([^;]*)/.exec(policy)?.[1], path).not.toMatch(/'unsafe-(inline|eval)'|\*/);
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["cross-origin-opener-policy"], path).toBe("same-origin");
    expect(headers["permissions-policy"], path).toContain("camera=()");
    if (path !== "/sw.js") {
      // Each inline script of the page is allowed by its hash, and nothing else inline is.
      const html = await response.text();
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].length;
      expect(inline, path).toBeGreaterThan(0);
      expect(policy.match(/'sha256-/g)?.length, path).toBe(inline);
    }
  }
  expect((await page.request.get("/_headers", { failOnStatusCode: false })).status()).toBe(404);

  await recordViolations(page);
  for (const path of ["/", "/gallery", "/pricing", "/styles/anime", "/status", "/faq"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(await violations(page), path).toEqual([]);
  }
  // Signed in: the session, the generator (the function's stream, the image's signed URL, the service
  // worker), History's tiles and the account page, each under the policy.
  await signUp(page, uniqueEmail("door"));
  await openGenerator(page);
  await generateOne(page, "A lighthouse on a cliff at dusk");
  await expect(previewImage(page, "A lighthouse on a cliff at dusk")).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await ensureControlled(page);
  for (const path of ["/history", "/dashboard", "/account", "/gallery"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(await violations(page), path).toEqual([]);
  }
  expect(new URL(page.url()).origin).toBe(baseURL);
});

test("a page of another site cannot frame the app", async ({ page, baseURL, allowConsole, allowFailedRequest }) => {
  allowConsole(/^Framing '[^']*' violates .*"frame-ancestors 'none'"/, "the refusal is what this test checks");
  allowFailedRequest(/\/pricing net::ERR_BLOCKED_BY_(RESPONSE|CSP)/, "the refused frame's load");
  evilPages.set(
    "/frame",
    `<title>framer</title><iframe id="app" src="${baseURL}/pricing" width="800" height="600"></iframe>`,
  );
  await page.goto(`${evilOrigin}/frame`);
  const frame = page.frameLocator("#app");
  // The same page opened on its own draws its heading; framed, the browser shows its error page instead.
  await expect
    .poll(
      async () =>
        page
          .frames()
          .find((f) => f !== page.mainFrame())
          ?.url() ?? "",
      { timeout: 10_000 },
    )
    .toMatch(/^chrome-error:|^about:blank$/);
  await expect(frame.getByRole("heading", { level: 1 })).toHaveCount(0);
  const own = await page.context().newPage();
  await own.goto("/pricing");
  await expect(own.getByRole("heading", { level: 1 })).toBeVisible();
});

/** A form of another site that posts `image` to the app's share target, as a share would carry it. */
function crossSiteShare(target: string, options: { sandboxed: boolean }): string {
  const form = `<form id="share" method="post" enctype="multipart/form-data" action="${target}/share-target" target="_top">
    <input name="title" value="Not from this device"><input type="file" name="image"></form>
    <script>
      const files = new DataTransfer();
      files.items.add(new File([Uint8Array.from(atob("iVBORw0KGgo="), (c) => c.charCodeAt(0))], "planted.png", { type: "image/png" }));
      document.querySelector("input[type=file]").files = files.files;
      document.getElementById("share").submit();
    </script>`;
  if (!options.sandboxed) return form;
  // A sandboxed frame has no origin: its form says Origin "null", like the device's own share.
  const srcdoc = form.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return `<iframe sandbox="allow-forms allow-scripts allow-top-navigation" srcdoc="${srcdoc}"></iframe>`;
}

/** The image waiting in IndexedDB for /generate?open=shared, by name; null when none waits. */
const waitingShare = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string | null>((resolve, reject) => {
        const open = indexedDB.open("promptcanvas");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction("meta").objectStore("meta").get("opened-image");
          get.onsuccess = () => {
            open.result.close();
            resolve((get.result?.value?.name as string | undefined) ?? null);
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );

test("a form posted to the share target from another site changes nothing", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await signUp(page, uniqueEmail("door-share"));
  await openGenerator(page);
  await ensureControlled(page);
  for (const sandboxed of [false, true]) {
    evilPages.set("/share", crossSiteShare(baseURL!, { sandboxed }));
    await page.goto(`${evilOrigin}/share`);
    await expect(page).toHaveURL(`${baseURL}/generate`);
    await expect(page.getByLabel("Prompt", { exact: true })).toBeVisible();
    expect(await waitingShare(page), sandboxed ? "sandboxed" : "cross-site").toBeNull();
    await expect(page.getByRole("img", { name: /^Reference image/ })).toHaveCount(0);
  }
  // The same post from the app's own page (what the device's share does) is taken: the test can fail.
  const icon = await (await page.request.get("/icons/icon-192.png")).body();
  await shareImage(page, icon, "own.png");
  await expect(page.getByRole("img", { name: "Reference image: own.png" })).toBeVisible();
});

test("a `from=` that tries to leave for another origin lands on a local path", async ({ page, baseURL }) => {
  await signUp(page, uniqueEmail("door-from"));
  const variants = [
    "/.//evil.test",
    "/..//evil.test",
    "//evil.test",
    "/\\evil.test",
    "/./\\evil.test",
    "/%2F%2Fevil.test",
    "https://evil.test",
    "javascript:alert(1)",
    "/\t/evil.test",
  ];
  for (const from of variants) {
    await page.goto(`/auth?from=${encodeURIComponent(from)}`);
    await expect.poll(() => new URL(page.url()).pathname, { message: from }).not.toBe("/auth");
    const landed = new URL(page.url());
    expect(landed.origin, from).toBe(baseURL);
    expect(landed.pathname, from).toMatch(/^\/(?![/\\])/);
  }
  await page.goto(`/auth?from=${encodeURIComponent("/history")}`);
  await expect(page).toHaveURL(`${baseURL}/history`);
  // The sign-in page, still drawn while History's code loads, does not send the person on again.
  await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/history`);
});
