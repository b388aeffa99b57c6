// Issue 42, "Verified by": three reporters take an image out of the gallery for a visitor; an operator made
// by `npm run operator -- grant EMAIL` restores it from /moderation, which is a 404 to everyone else; an
// operator's unpublish reaches the owner as "Removed from the gallery: <reason>" and a mark on the History
// tile; /gallery/<id> opens signed out with its link-preview tags in the HTML the server sends, and answers
// 404 once unpublished. axe finds nothing on /moderation, /gallery/<id> and the report dialog.
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPORT_REASON_LABELS, type ReportReason } from "#shared/vocabulary/moderation.ts";
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import { accountButton, apiUrl, audit, signIn, signOut, signUp, uniqueEmail, type Finding } from "./support/app";
import { anonKey, sendGenerate, serverSession, toasts } from "./support/generator";
import {
  expectImageLoaded,
  generateImages,
  newDevice,
  openHistory,
  openLargeView,
  serviceHeaders,
} from "./support/library";
import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from "./support/test";

const run = promisify(execFile);

/**
 * This run's backend's service-role key, exactly as the backend makes it (supabase/local/config.ts: the
 * legacy format, issued at a fixed time, for ten years), from the secret in its data directory: the one
 * whose secret signed the anon key the app serves.
 */
async function projectServiceKey(page: Page): Promise<string> {
  const [head, body, signature] = (await anonKey(page)).split(".");
  const sign = (secret: string, input: string) => createHmac("sha256", secret).update(input).digest("base64url");
  const secret = readdirSync(tmpdir(), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith("promptcanvas-e2e-"))
    .map((d) => join(tmpdir(), d.name, "jwt-secret"))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, "utf8").trim())
    .find((s) => sign(s, `${head}.${body}`) === signature);
  if (!secret) throw new Error("no e2e data directory holds the secret of this backend");
  const iat = 1_700_000_000;
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const input = `${part({ alg: "HS256", typ: "JWT" })}.${part({ iss: "supabase-local", role: "service_role", iat, exp: iat + 10 * 365 * 24 * 3600 })}`;
  return `${input}.${sign(secret, input)}`;
}

/** `npm run operator -- grant EMAIL`, as the README says, with this run's backend as SUPABASE_URL and its key. */
async function grantOperator(page: Page, email: string): Promise<string> {
  const { stdout } = await run("npm", ["run", "--silent", "operator", "--", "grant", email], {
    env: { ...process.env, SUPABASE_URL: await apiUrl(page), SUPABASE_SERVICE_ROLE_KEY: await projectServiceKey(page) },
  });
  return stdout;
}

/** One published image of the owner's, made over the API and published as the server would. */
async function publishedImage(page: Page, email: string, prompt: string): Promise<string> {
  const server = await serverSession(page, email);
  const made = await sendGenerate(page.request, server, {
    request_id: crypto.randomUUID(),
    prompt,
    style: "anime",
    quality: "standard",
    aspect_ratio: "1:1",
  });
  expect(made.status(), await made.text()).toBe(200);
  const id = ((await made.json()) as { generation: { id: string } }).generation.id;
  const res = await page.request.patch(`${server.api}/rest/v1/generations?id=eq.${id}`, {
    headers: { ...(await serviceHeaders(page)), "Content-Type": "application/json", Prefer: "return=minimal" },
    data: { is_public: true },
  });
  expect(res.status(), await res.text()).toBe(204);
  return id;
}

/** A new person on a device of their own, signed in. */
async function person(browser: Browser, testInfo: TestInfo, tag: string, watch: (c: BrowserContext) => void) {
  const device = await newDevice(browser, testInfo);
  watch(device.context);
  const email = uniqueEmail(tag);
  await signUp(device.page, email);
  return { ...device, email };
}

function galleryTile(page: Page, prompt: string) {
  return page
    .getByRole("list", { name: "Published images" })
    .getByRole("button", { name: `Open: ${prompt}`, exact: true });
}

/** Reports `prompt` from its tile's menu in /gallery; the tile leaves at once and stays gone after a reload. */
async function report(page: Page, prompt: string, reason: ReportReason, note = "", findings?: Finding[]) {
  await page.goto(`/gallery?q=${encodeURIComponent(prompt)}`);
  await page.getByRole("button", { name: `Image options: ${prompt}` }).click();
  await page.getByRole("menuitem", { name: "Report" }).click();
  const dialog = page.getByRole("dialog", { name: "Report this image" });
  await dialog.getByRole("radio", { name: REPORT_REASON_LABELS[reason] }).check();
  if (note) await dialog.getByRole("textbox", { name: "Note (optional)" }).fill(note);
  if (findings) await audit(page, "the report dialog", findings);
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(toasts(page).getByText("Reported", { exact: true })).toBeVisible();
  await expect(galleryTile(page, prompt)).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("Nothing published matches that search.")).toBeVisible();
}

/** The raw HTML the server sends for `path` (no JavaScript runs): its status and Open Graph image. */
async function rawPage(page: Page, path: string) {
  const res = await page.request.get(path);
  const html = await res.text();
  const ogImage = /<meta property="og:image" content="([^"]*)"/.exec(html)?.[1];
  const card = /<meta name="twitter:card" content="([^"]*)"/.exec(html)?.[1];
  return { status: res.status(), html, ogImage, card };
}

test("reports hold an image, an operator restores or removes it, and its link unfurls until unpublished", async ({
  page,
  browser,
  watchContext,
  allowFailedRequest,
}, testInfo) => {
  test.setTimeout(300_000);
  allowFailedRequest(
    /^GET \S+\/moderation 404$/,
    "/moderation answers 404 to everyone, operators included: no page is written for it",
  );
  allowFailedRequest(/^GET \S+\/gallery\/[0-9a-f-]{36} 404$/, "an image out of the gallery answers 404 on purpose");
  const findings: Finding[] = [];

  // The owner publishes two images.
  const ownerEmail = uniqueEmail("mod-owner");
  await signUp(page, ownerEmail);
  const held = "A lantern festival over a quiet river";
  const removed = "A storm of paper cranes over the harbour";
  const heldId = await publishedImage(page, ownerEmail, held);
  const removedId = await publishedImage(page, ownerEmail, removed);

  // A visitor opens the image's link: the server's HTML carries its preview, and the page shows it.
  const visitor = await newDevice(browser, testInfo);
  watchContext(visitor.context);
  const first = await rawPage(visitor.page, `/gallery/${heldId}`);
  expect(first.status).toBe(200);
  expect(first.ogImage).toMatch(new RegExp(`^https?://[^/]+/gallery/${heldId}/image$`));
  expect(first.card).toBe("summary_large_image");
  expect(first.html).toContain(`<meta property="og:title" content="${held} · PromptCanvas" />`);
  const picture = await visitor.page.request.get(new URL(first.ogImage!).pathname);
  expect(picture.status()).toBe(200);
  expect(picture.headers()["content-type"]).toMatch(/^image\//);
  await visitor.page.goto(`/gallery/${heldId}`);
  await expect(visitor.page.getByRole("heading", { level: 1, name: held })).toBeVisible();
  await expectImageLoaded(visitor.page.getByRole("img", { name: held }), [1024, 1024]);
  await expect(visitor.page.getByRole("link", { name: "Make one like this" })).toHaveAttribute(
    "href",
    /^\/auth\?from=/,
  );
  await expect(visitor.page.getByRole("link", { name: "Sign in to report" })).toBeVisible();
  await audit(visitor.page, "/gallery/<id>", findings);

  // Three people report it; each stops seeing it at once. After the third, the visitor no longer does.
  const reporters = [];
  for (const [i, reason] of (["violence", "hate", "violence"] as const).entries()) {
    const reporter = await person(browser, testInfo, `mod-reporter-${i}`, watchContext);
    await report(reporter.page, held, reason, i === 0 ? "Blood in the water" : "", i === 0 ? findings : undefined);
    reporters.push(reporter);
    if (i < 2) expect((await rawPage(visitor.page, `/gallery/${heldId}`)).status, `after ${i + 1} reports`).toBe(200);
  }
  await report(reporters[0].page, removed, "deception");
  // The reporter's other device: what they reported is gone there too (the server hides it for them), while
  // a visitor still finds an image one person reported.
  const second = await newDevice(browser, testInfo);
  watchContext(second.context);
  await second.page.goto("/auth");
  await signIn(second.page, reporters[0].email);
  await expect(accountButton(second.page, reporters[0].email)).toBeVisible();
  await second.page.goto(`/gallery?q=${encodeURIComponent(removed)}`);
  await expect(second.page.getByText("Nothing published matches that search.")).toBeVisible();
  await visitor.page.goto(`/gallery?q=${encodeURIComponent(removed)}`);
  await expect(galleryTile(visitor.page, removed)).toBeVisible();
  expect((await rawPage(visitor.page, `/gallery/${heldId}`)).status).toBe(404);
  expect((await visitor.page.request.get(`/gallery/${heldId}/image`)).status()).toBe(404);
  await visitor.page.goto(`/gallery?q=${encodeURIComponent("lantern festival")}`);
  await expect(visitor.page.getByText("Nothing published matches that search.")).toBeVisible();

  // Anyone else gets the not-found page at /moderation, exactly as at an unknown address.
  const unknown = await rawPage(reporters[1].page, "/no-such-page-here");
  const hidden = await rawPage(reporters[1].page, "/moderation");
  expect([hidden.status, hidden.html]).toEqual([404, unknown.html]);
  await reporters[1].page.goto("/moderation");
  await expect(reporters[1].page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(reporters[1].page).toHaveTitle("Page Not Found · PromptCanvas");

  // An operator, granted by the command, restores the held image and removes the other with a reason.
  const operator = await person(browser, testInfo, "mod-operator", watchContext);
  expect(await grantOperator(operator.page, operator.email)).toContain("is an operator");
  await signOut(operator.page, operator.email);
  await operator.page.goto("/auth");
  await signIn(operator.page, operator.email);
  await expect(accountButton(operator.page, operator.email)).toBeVisible();
  await operator.page.goto("/moderation");
  await expect(operator.page.getByRole("heading", { level: 1, name: "Moderation" })).toBeVisible();
  await expect(operator.page).toHaveTitle("Moderation · PromptCanvas");
  const heldItem = operator.page.getByRole("article", { name: held });
  await expect(heldItem).toContainText("Held: out of the gallery until reviewed");
  await expect(heldItem).toContainText(`${REPORT_REASON_LABELS.violence} (2)`);
  await expect(heldItem).toContainText("Blood in the water");
  await expect(heldItem.getByRole("img", { name: held })).toBeVisible();
  await expect(
    operator.page.getByRole("list", { name: "Images to review" }).getByRole("listitem").first(),
  ).toContainText(removed);
  await audit(operator.page, "/moderation", findings);
  await heldItem.getByRole("button", { name: "Restore" }).click();
  await expect(toasts(operator.page).getByText("Restored to the gallery")).toBeVisible();
  await expect(heldItem).toHaveCount(0);
  expect((await rawPage(visitor.page, `/gallery/${heldId}`)).status).toBe(200);

  const removedItem = operator.page.getByRole("article", { name: removed });
  await removedItem.getByRole("radio", { name: "Unpublish", exact: true }).check();
  await removedItem.getByRole("textbox", { name: "Reason the owner reads" }).fill("Presented as a real news photo");
  await removedItem.getByRole("button", { name: "Unpublish", exact: true }).click();
  await expect(toasts(operator.page).getByText("Unpublished", { exact: true })).toBeVisible();
  expect((await rawPage(visitor.page, `/gallery/${removedId}`)).status).toBe(404);

  // The owner reads why on their image (its History tile is marked); their own unpublish takes the other's
  // link down too.
  await openHistory(page);
  const removedTile = page
    .getByRole("list", { name: "Your generations" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: `Open: ${removed}`, exact: true }) });
  await expect(removedTile.getByTitle("Removed from the gallery")).toBeVisible();
  const view = await openLargeView(page, removed);
  await expect(view.getByText("Removed from the gallery: Presented as a real news photo")).toBeVisible();
  await expect(view.getByRole("button", { name: "Publish", exact: true })).toHaveAttribute("aria-disabled", "true");
  await view.getByRole("button", { name: "Close" }).click();
  const other = await openLargeView(page, held);
  await other.getByRole("button", { name: "Unpublish", exact: true }).click();
  await expect.poll(async () => (await rawPage(visitor.page, `/gallery/${heldId}`)).status).toBe(404);
  expect((await visitor.page.request.get(`/gallery/${heldId}/image`)).status()).toBe(404);
  await visitor.page.goto(`/gallery/${heldId}`);
  await expect(visitor.page.getByRole("heading", { name: "Page not found" })).toBeVisible();

  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  for (const r of [...reporters, operator]) await r.context.close();
  await visitor.context.close();
});

test("an operator's suspension keeps the account from publishing until it ends", async ({
  page,
  browser,
  watchContext,
  allowFailedRequest,
}, testInfo) => {
  test.setTimeout(180_000);
  allowFailedRequest(/publish-generation 403$/, "publishing while suspended is refused on purpose");
  const ownerEmail = uniqueEmail("mod-suspended");
  await signUp(page, ownerEmail);
  const firstId = await publishedImage(page, ownerEmail, "A field of glass tulips at noon");

  // An operator made by the documented command suspends the owner for a week, unpublishing the image.
  const operator = await person(browser, testInfo, "mod-suspender", watchContext);
  expect(await grantOperator(operator.page, operator.email)).toContain(operator.email);
  const op = await serverSession(operator.page, operator.email);
  const until = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
  const suspend = await operator.page.request.post(`${op.api}/rest/v1/rpc/moderate_generation`, {
    headers: { apikey: op.anonKey, Authorization: `Bearer ${op.token}`, "Content-Type": "application/json" },
    data: {
      p_generation_id: firstId,
      p_action: "suspend",
      p_reason: "Repeated explicit images",
      p_suspend_until: until,
    },
  });
  expect(suspend.status(), await suspend.text()).toBe(200);

  // The owner makes a new image and presses Publish: refused with the catalogue's notice, and it stays private.
  const prompt = "A paper boat on a still pond";
  await generateImages(page, [prompt]);
  await openHistory(page);
  const dialog = await openLargeView(page, prompt);
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(toasts(page).getByText(ERROR_CATALOGUE.publishing_suspended.title)).toBeVisible();
  const owner = await serverSession(page, ownerEmail);
  const rows = await page.request.get(
    `${owner.api}/rest/v1/generations?select=prompt,is_public&user_id=eq.${owner.userId}&order=created_at`,
    {
      headers: { apikey: owner.anonKey, Authorization: `Bearer ${owner.token}` },
    },
  );
  expect(await rows.json()).toEqual([
    { prompt: "A field of glass tulips at noon", is_public: false },
    { prompt, is_public: false },
  ]);
});
