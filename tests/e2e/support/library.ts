// Shared steps for the library journeys (issue 10): images made through the real generator, the
// History grid and its large view by their labels, a second device (a new browser context), and the
// server's own view: REST and Storage as the person, as a visitor (anon key) and as the service role,
// whose key is signed here with the local backend's JWT secret from the run's data directory (found
// by the secret that signed the anon key the app serves).
import { createHmac } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { GENERATIONS_BUCKET } from "#shared/vocabulary/rows.ts";
import { apiUrl } from "./app";
import { anonKey, dexieTasks, generateOne, openGenerator, previewImage, type ServerSession } from "./generator";

// ---- Pages -----------------------------------------------------------------------------------------

/** Makes each prompt through the generator UI (built-in engine), waiting for its image in the preview. */
export async function generateImages(page: Page, prompts: readonly string[]): Promise<void> {
  await openGenerator(page);
  for (const prompt of prompts) {
    await generateOne(page, prompt);
    await expect(previewImage(page, prompt)).toBeVisible({ timeout: 45_000 });
  }
  // The image shows as its answer arrives, a moment before its task is stored as done; a journey that
  // leaves the page then would see the task replayed (and its success notice) on the next page.
  await expect
    .poll(async () => {
      const mine = (await dexieTasks(page)).filter((t) => prompts.includes(t.prompt));
      return mine.length >= prompts.length && mine.every((t) => t.status === "done");
    })
    .toBe(true);
}

export async function openHistory(page: Page): Promise<void> {
  await page.goto("/history");
  await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeVisible();
}

/** The History tile of `prompt` (a button named "Open: <prompt>" inside the grid). */
export function historyTile(page: Page, prompt: string) {
  return page
    .getByRole("list", { name: "Your generations" })
    .getByRole("button", { name: `Open: ${prompt}`, exact: true });
}

/** The large view of a generation. */
export function generationDialog(page: Page) {
  return page.getByRole("dialog", { name: "Generation" });
}

/** Opens the large view of `prompt` from History (the page must be on /history). */
export async function openLargeView(page: Page, prompt: string) {
  await historyTile(page, prompt).click();
  const dialog = generationDialog(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * Waits until the image shows with real pixels (decoded, not a broken image). Decoded and size are read in
 * one look: a view may swap its image (a thumbnail for the full one) between two reads.
 */
export async function expectImageLoaded(img: Locator, size?: [number, number]): Promise<void> {
  await expect(img).toBeVisible();
  await expect
    .poll(
      () =>
        img.evaluate((el: HTMLImageElement) =>
          el.complete && el.naturalWidth > 0 ? [el.naturalWidth, el.naturalHeight] : "not decoded",
        ),
      { timeout: 15_000, message: "the image decoded" },
    )
    .toEqual(size ?? [expect.any(Number), expect.any(Number)]);
}

/** A second device: a new browser context with the project's address and returning-visitor storage. */
export async function newDevice(browser: Browser, testInfo: TestInfo, options: BrowserContextOptions = {}) {
  const { baseURL, storageState } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, storageState, ...options });
  return { context, page: await context.newPage() };
}

// ---- The server's view --------------------------------------------------------------------------------

export type GenerationServerRow = {
  id: string;
  user_id: string;
  prompt: string;
  style: string;
  quality: string;
  aspect_ratio: string;
  width: number;
  height: number;
  seed: number;
  image_path: string;
  is_public: boolean;
  is_saved: boolean;
};

type Headers = Record<string, string>;

export const userHeaders = (s: ServerSession): Headers => ({ apikey: s.anonKey, Authorization: `Bearer ${s.token}` });

export async function visitorHeaders(page: Page): Promise<Headers> {
  const key = await anonKey(page);
  return { apikey: key, Authorization: `Bearer ${key}` };
}

function b64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

/** The data directories e2e runs give the backend (playwright.config.ts makes one per run). */
function dataDirCandidates(): string[] {
  const made = readdirSync(tmpdir(), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith("promptcanvas-e2e-"))
    .map((d) => join(tmpdir(), d.name))
    .filter((dir) => existsSync(join(dir, "jwt-secret")));
  return process.env.E2E_DATA_DIR ? [process.env.E2E_DATA_DIR, ...made] : made;
}

const sign = (secret: string, signingInput: string) =>
  createHmac("sha256", secret).update(signingInput).digest("base64url");

/**
 * The service role's key for this run's backend: a legacy-format JWT (role claim only) signed with the
 * secret the backend generated in its data directory (supabase/local/config.ts, "jwt-secret"). The
 * directory is the one whose secret signed the anon key this app serves, so a parallel run's backend
 * (or an old run's leftovers) is never mistaken for this one.
 */
export async function serviceHeaders(page: Page): Promise<Headers> {
  const anon = await anonKey(page);
  const [anonHead, anonBody, anonSig] = anon.split(".");
  const secret = dataDirCandidates()
    .map((dir) => {
      try {
        return readFileSync(join(dir, "jwt-secret"), "utf8").trim();
      } catch {
        return ""; // another run's directory, removed meanwhile
      }
    })
    .find((s) => s !== "" && sign(s, `${anonHead}.${anonBody}`) === anonSig);
  if (!secret) throw new Error("no e2e data directory holds the secret that signed this backend's anon key");
  const now = Math.floor(Date.now() / 1000);
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify({ iss: "supabase-local", role: "service_role", iat: now, exp: now + 3600 }));
  const key = `${head}.${body}.${sign(secret, `${head}.${body}`)}`;
  // The backend must accept it (a wrong signature is refused); the callers also check it sees rows first.
  // The gateway takes only the project's own keys as `apikey` (this token is a service-role JWT, not that
  // key), so the anon key goes there and the token in Authorization, as an operator's script would send.
  const check = await page.request.get(`${await apiUrl(page)}/rest/v1/tier_quotas?select=tier`, {
    headers: { apikey: anon, Authorization: `Bearer ${key}` },
  });
  expect(check.status(), await check.text()).toBe(200);
  return { apikey: anon, Authorization: `Bearer ${key}` };
}

/** Rows of `table` whose user_id is `userId`, as the given caller sees them. */
export async function rowsOf<T = Record<string, unknown>>(
  request: APIRequestContext,
  api: string,
  headers: Headers,
  table: string,
  userId: string,
  select = "*",
): Promise<T[]> {
  const res = await request.get(`${api}/rest/v1/${table}?select=${select}&user_id=eq.${userId}`, { headers });
  expect(res.status(), `${table}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T[];
}

export async function ownGenerations(request: APIRequestContext, s: ServerSession): Promise<GenerationServerRow[]> {
  return rowsOf<GenerationServerRow>(request, s.api, userHeaders(s), "generations", s.userId);
}

/** Downloads a stored object the way the API does for a signed-in caller or a visitor; the HTTP status and bytes. */
export async function downloadObject(request: APIRequestContext, api: string, headers: Headers, path: string) {
  const res = await request.get(`${api}/storage/v1/object/authenticated/${GENERATIONS_BUCKET}/${path}`, { headers });
  return { status: res.status(), body: res.ok() ? await res.body() : Buffer.alloc(0) };
}

/** Reads an object's 512 px thumbnail through the Storage API's image transformation; the status. */
export async function renderThumbnail(request: APIRequestContext, api: string, headers: Headers, path: string) {
  const res = await request.get(
    `${api}/storage/v1/render/image/authenticated/${GENERATIONS_BUCKET}/${path}?width=512&height=512`,
    { headers },
  );
  return res.status();
}

/** Asks for a signed URL of an object; the status (a refused caller gets no URL). */
export async function signObject(request: APIRequestContext, api: string, headers: Headers, path: string) {
  const res = await request.post(`${api}/storage/v1/object/sign/${GENERATIONS_BUCKET}/${path}`, {
    headers: { ...headers, "Content-Type": "application/json" },
    data: { expiresIn: 60 },
  });
  return res.status();
}

/** The object names in one folder of the bucket, as the caller may see them. */
export async function listFolder(
  request: APIRequestContext,
  api: string,
  headers: Headers,
  folder: string,
): Promise<string[]> {
  const res = await request.post(`${api}/storage/v1/object/list/${GENERATIONS_BUCKET}`, {
    headers: { ...headers, "Content-Type": "application/json" },
    data: { prefix: folder, limit: 1000, offset: 0 },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { name: string }[]).map((o) => o.name);
}
