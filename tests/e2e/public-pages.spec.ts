// The public site in a real browser: every public route renders its own page with no console error
// and no axe violation in both themes, fits a phone's width, and arrives prerendered (head tags,
// structured data and content in the HTML itself, readable with JavaScript off).
import { expect, test, type Page } from "./support/test";
import { accountButton, apiUrl, audit, signOut, signUp, uniqueEmail, type Finding } from "./support/app";
import { ROUTES } from "#src/app/route-table.ts";

const PUBLIC = ROUTES.filter((r) => r.access === "public");
const PROTECTED = ROUTES.filter((r) => r.access === "protected");
const NOINDEX = new Set(["/auth", "/reset-password", "/payment-success", "/payment-canceled"]);
const ORIGIN = "https://promptcanvas.app";
const CONTENT = [
  "/",
  "/pricing",
  "/styles",
  "/styles/anime",
  "/prompt-library",
  "/templates",
  "/advanced",
  "/text-effects",
  "/blog/prompt-engineering-masterclass",
  "/faq",
  "/privacy",
];

function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${page.url()}: console.error ${m.text()}`);
    // The prerendered markup must hydrate as it is, not be redrawn.
    if (m.type() === "warning" && m.text().startsWith("[hydrate]")) problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  return problems;
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Loading…$|Checking/ })).toHaveCount(0);
  // The app has taken over the prerendered markup.
  await expect(page.locator("#root[data-ssr]")).toHaveCount(0);
}

// The one walk of every public page in each theme: its own title, no console error, no axe violation;
// then the 404 page's audit.
for (const theme of ["light", "dark"] as const) {
  test(`every public page renders without console errors and passes axe (${theme} theme)`, async ({
    page,
    allowFailedRequest,
  }) => {
    test.setTimeout(300_000);
    allowFailedRequest(/^GET \S+\/no-such-page 404$/, "the 404 page is audited: an unknown address answers 404");
    await page.addInitScript((t) => localStorage.setItem("promptcanvas.theme", t), theme);
    const problems = watchConsole(page);
    const findings: Finding[] = [];
    for (const route of PUBLIC) {
      await visit(page, route.path);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await expect(page).toHaveTitle(
        route.path === "/" ? "PromptCanvas — Text to Image Generator" : `${route.title} · PromptCanvas`,
      );
      await audit(page, route.path, findings);
    }
    expect(problems, problems.join("\n")).toEqual([]);
    // The 404 answer's own console line is the fixture's to allow (above), not a problem of a page.
    await page.goto("/no-such-page");
    await expect(page.locator("main h1").first()).toBeVisible();
    await audit(page, "404", findings);
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}

test("content pages fit a 375 px phone screen without sideways scrolling", async ({ page }) => {
  test.setTimeout(120_000);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width < 500 ? 812 : 800 });
    for (const path of CONTENT) {
      await visit(page, path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: `test-results/screens/public-${width}${path === "/" ? "-home" : path.replace(/\//g, "-")}.png`,
      });
    }
  }
});

test("each public page is served as prerendered HTML with its own head", async ({ request }) => {
  for (const route of PUBLIC) {
    const res = await request.get(route.path);
    expect(res.status(), route.path).toBe(200);
    const html = await res.text();
    const title = route.path === "/" ? "PromptCanvas — Text to Image Generator" : `${route.title} · PromptCanvas`;
    expect(html, route.path).toContain(`<title>${title}</title>`);
    expect(html).toMatch(/<meta name="description" content="[^"]{40,}" \/>/);
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}${route.path}" />`);
    expect(html).toContain(`<meta property="og:title" content="${title}" />`);
    expect(html).toContain(`<meta property="og:url" content="${ORIGIN}${route.path}" />`);
    expect(html).toContain(
      `<meta name="robots" content="${NOINDEX.has(route.path) ? "noindex, nofollow" : "index, follow"}" />`,
    );
    if (route.path === "/auth" || route.path === "/reset-password") {
      expect(html, route.path).toContain('<div id="root"></div>');
    } else {
      expect(html, route.path).toContain(`data-prerendered="${route.path}"`);
      expect(html, route.path).toContain('<div id="root" data-ssr>');
      expect(html, route.path).toMatch(
        new RegExp(`<h1[^>]*>${route.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</h1>`),
      );
    }
  }
  for (const route of PROTECTED) {
    const html = await (await request.get(route.path)).text();
    expect(html, route.path).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(html, route.path).toContain('<div id="root"></div>');
  }
});

test("/gallery asks for its first screen from an inline script and preloads no API client; the home page does neither", async ({
  request,
}) => {
  // The chunks each page names in <link rel="modulepreload">, and whether one of them is supabase-js.
  const preloadsBackendClient = async (html: string) => {
    const files = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      if ((await (await request.get(file)).text()).includes("supabase-js")) return true;
    }
    return false;
  };
  const gallery = await (await request.get("/gallery")).text();
  const home = await (await request.get("/")).text();
  expect(gallery).toContain("__GALLERY_FIRST_SCREEN__");
  expect(home).not.toContain("__GALLERY_FIRST_SCREEN__");
  expect(await preloadsBackendClient(gallery)).toBe(false);
  expect(await preloadsBackendClient(home)).toBe(false);
});

test("structured data: the free offer at 0 USD, the FAQ, blog posts and breadcrumbs", async ({ request }) => {
  const jsonLd = async (path: string) =>
    [...(await (await request.get(path)).text()).matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-LD is free-form JSON, read here by path
      (m) => JSON.parse(m[1]) as Record<string, any>,
    );
  const home = await jsonLd("/");
  expect(home.map((d) => d["@type"])).toEqual(["Organization", "WebSite", "WebApplication"]);
  expect(home[2].offers).toMatchObject({ price: "0", priceCurrency: "USD" });
  const faq = (await jsonLd("/faq")).find((d) => d["@type"] === "FAQPage")!;
  expect(faq.mainEntity.length).toBeGreaterThanOrEqual(10);
  const post = (await jsonLd("/blog/complete-guide-ai-image-generation")).find((d) => d["@type"] === "BlogPosting")!;
  expect(post.headline).toBe("The Complete Guide to AI Image Generation");
  const crumbs = (await jsonLd("/styles/photorealistic")).find((d) => d["@type"] === "BreadcrumbList")!;
  expect(crumbs.itemListElement.map((i: { name: string }) => i.name)).toEqual([
    "Home",
    "Styles",
    "Photorealistic Style",
  ]);
});

test("robots.txt and sitemap.xml list the public site", async ({ request }) => {
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("User-agent: *");
  expect(robots).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toContain("xml");
  const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(locs.sort()).toEqual(
    PUBLIC.filter((r) => !NOINDEX.has(r.path))
      .map((r) => `${ORIGIN}${r.path}`)
      .sort(),
  );
});

test("the home page reads and navigates with JavaScript turned off", async ({
  browser,
  baseURL,
  allowFailedRequest,
}) => {
  allowFailedRequest(/^GET \S+\/assets\/\S+\.js csp$/, "with JavaScript off, Chromium blocks the page's script loads");
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Text to Image Generator", exact: true })).toBeVisible();
  await expect(page.getByText("free images every day")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Discover styles" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Simple pricing" })).toBeVisible();
  await page.getByRole("link", { name: "Read all frequently asked questions" }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
  await context.close();
});

/**
 * An init script: every frame from the first until 2 s after the account control is first drawn, notes
 * whether a visible "Sign in" or the account control's placeholder (a skeleton in the top bar) was on
 * screen, and whether the account control is drawn in the last frame looked at.
 */
function watchTopBar() {
  const seen = { signIn: false, placeholder: false, account: false, done: false };
  (globalThis as unknown as { __topBar: typeof seen }).__topBar = seen;
  let accountSince = 0;
  const look = (now: number) => {
    const links = [...document.querySelectorAll("header a")] as HTMLElement[];
    const shown = (el: HTMLElement) => el.offsetParent !== null && getComputedStyle(el).visibility !== "hidden";
    if (links.some((a) => a.textContent?.trim() === "Sign in" && shown(a))) seen.signIn = true;
    if (document.querySelector("header .skeleton")) seen.placeholder = true;
    seen.account = document.querySelector('header [aria-label^="Account menu for"]') !== null;
    if (seen.account && !accountSince) accountSince = now;
    if (accountSince && now - accountSince > 2_000) seen.done = true;
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

test("a signed-in person's top bar never shows Sign in or a placeholder while a public page loads", async ({
  page,
  context,
}) => {
  const email = uniqueEmail("top-bar");
  const paths = ["/", "/pricing", "/gallery"];
  await signUp(page, email);
  for (const path of paths) {
    const fresh = await context.newPage();
    await fresh.addInitScript(watchTopBar);
    await fresh.goto(path);
    await expect(accountButton(fresh, email)).toBeVisible();
    await fresh.waitForFunction(() => (globalThis as unknown as { __topBar: { done: boolean } }).__topBar.done);
    expect(await fresh.evaluate(() => (globalThis as unknown as { __topBar: unknown }).__topBar), path).toEqual({
      signIn: false,
      placeholder: false,
      account: true,
      done: true,
    });
    await fresh.close();
  }
  // Signed out, the same pages offer Sign in at once.
  await signOut(page, email);
  await page.goto("/pricing");
  await expect(page.locator("header").getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
});

test("the hero's calls to action scroll to the generator and pricing sections", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Start creating" }).first().click();
  await expect(page).toHaveURL(/#generator$/);
  await expect(page.getByRole("heading", { name: "Try the generator" })).toBeInViewport();
  await page.getByRole("link", { name: "See pricing" }).click();
  await expect(page).toHaveURL(/#pricing$/);
  await expect(page.getByRole("heading", { name: "Simple pricing" })).toBeInViewport();
});

test("prompts, templates, styles and the advanced form open the generator filled in", async ({ page }) => {
  await page.goto("/prompts");
  const href = await page.getByRole("link", { name: /^Open in generator: Ringed planet/ }).getAttribute("href");
  const q = new URL(href!, "http://x").searchParams;
  expect(q.get("prompt")).toContain("ringed planet");
  expect(q.get("style")).toBe("digital-art");
  expect(q.get("aspect_ratio")).toBe("16:9");

  await page.goto("/templates");
  await page.getByRole("textbox", { name: "Product" }).fill("running shoes");
  const template = new URL(
    (await page.getByRole("link", { name: "Use template: Product on a studio floor" }).getAttribute("href"))!,
    "http://x",
  );
  expect(template.searchParams.get("prompt")).toBe(
    "A single running shoes on a plain studio floor, soft shadow, pastel background, centred",
  );
  expect(template.searchParams.get("negative_prompt")).toBe("text, logo, clutter, people");

  await page.goto("/advanced");
  await page.getByLabel("Prompt", { exact: true }).fill("A lighthouse at dusk");
  await page.getByLabel("Negative prompt").fill("people");
  await page.getByLabel("Style").selectOption("watercolor");
  await page.getByRole("radio", { name: /^ultra/i }).check();
  await page.getByRole("radio", { name: /^16:9/ }).check();
  await page.getByLabel("Seed").fill("1234");
  await page.getByRole("checkbox", { name: "Batch mode" }).check();
  const count = page.getByLabel(/Number of images/);
  await count.focus();
  for (let i = 0; i < 3; i++) await count.press("ArrowRight");
  await expect(count).toHaveValue("7");
  await page.getByLabel("Reference image").setInputFiles({
    name: "ref.png",
    mimeType: "image/png",
    buffer: Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
      "base64",
    ),
  });
  await expect(page.getByRole("img", { name: "Reference image: ref.png" })).toBeVisible();
  // The generator takes the stashed image out of sessionStorage as soon as it draws, which can be before
  // the test looks: what the click stores is recorded as it is stored.
  await page.evaluate(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (key === "promptcanvas.reference_image") document.documentElement.dataset.stashedReference = value;
      return setItem.call(this, key, value);
    };
  });
  await page.getByRole("link", { name: "Open in generator", exact: true }).click();
  await expect(page).toHaveURL(
    "/generate?prompt=A+lighthouse+at+dusk&negative_prompt=people&style=watercolor&quality=ultra&aspect_ratio=16%3A9&seed=1234&batch=7&reference=session",
  );
  expect(await page.evaluate(() => document.documentElement.dataset.stashedReference ?? null)).toMatch(
    /^data:image\/jpeg;base64,/,
  );
});

test("a visitor's plan button asks them to sign in first, to continue on /billing, and sends nothing to the backend", async ({
  page,
}) => {
  await page.goto("/pricing");
  await expect(page.locator("#root[data-ssr]")).toHaveCount(0);
  // The page has settled: the service worker (registered then, with its script) is not the click's doing.
  await page.evaluate(() => navigator.serviceWorker.ready);
  const api = new URL(await apiUrl(page)).origin;
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.getByRole("button", { name: /^Choose Creator/ }).click();
  await expect(page).toHaveURL(`/auth?from=${encodeURIComponent("/billing?choose=creator")}`);
  expect(requests.filter((url) => url.startsWith(api))).toEqual([]);
});

test("the text effects tool draws live and downloads a PNG", async ({ page }) => {
  await page.goto("/text-effects");
  await page.getByLabel("Text", { exact: true }).fill("Hello");
  await page.getByText("Gradient", { exact: true }).click();
  await expect(page.getByRole("img", { name: '"Hello" with the Gradient effect' })).toBeVisible();
  // Share of pixels that differ from the dark background: the lettering.
  const inked = await page.evaluate(() => {
    const canvas = document.querySelector("canvas")!;
    const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 0x0f) + Math.abs(data[i + 2] - 0x1a) > 40) n++;
    return n / (canvas.width * canvas.height);
  });
  expect(inked).toBeGreaterThan(0.05);
  expect(inked).toBeLessThan(0.8);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download PNG" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("hello-effect.png");
  const path = await download.path();
  const { readFileSync } = await import("node:fs");
  expect(readFileSync(path).subarray(1, 4).toString()).toBe("PNG");
});

test("domain diagnostics reports the host, backend, service worker and storage", async ({ page }) => {
  await page.goto("/domain-diagnostics");
  const row = (name: string) =>
    page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
  await expect(row("This host")).toContainText("127.0.0.1");
  await expect(row("Production domain")).toContainText("promptcanvas.app");
  await expect(row("Backend")).toContainText("Reachable (/auth/v1/health answered HTTP 200)");
  await expect(row("Storage on this device")).toContainText(/used of .* available/);
  await expect(row("Service worker")).toContainText(/Registered|Active/);
});

test("public copy claims only what the product does", async ({ page }) => {
  await page.goto("/");
  const home = (await page.locator("main").textContent()) ?? "";
  // The ultra-high-resolution download is the on-device upscale's (issue 46.1, decision 154), said as such.
  expect(home).toMatch(/upscale 4× on your device for an ultra-high-resolution download/);
  for (const claim of [/custom dimensions/i, /under 30 seconds/i, /FLUX via Replicate/i, /10M\+/, /99\.9%/]) {
    expect(home).not.toMatch(claim);
  }
  await expect(page.getByRole("heading", { name: "Up to 1536 pixels" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("home.png"), fullPage: false });

  // A visitor's free plan button leads to sign-up, which is what it offers.
  await page.goto("/pricing");
  await expect(page.locator("#root[data-ssr]")).toHaveCount(0);
  await page.getByRole("link", { name: /^Start for free/ }).click();
  await expect(page).toHaveURL(/\/auth\?mode=sign-up$/);
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

  // Sample notifications carry no invented ages.
  await page.goto("/");
  await page.getByRole("button", { name: /^Notifications/ }).click();
  const panel = page.getByRole("region", { name: "Notifications" });
  await expect(panel).toBeVisible();
  await expect(panel).not.toContainText(/ago|Yesterday|Just now/);
  await page.screenshot({ path: test.info().outputPath("notifications.png") });
});
