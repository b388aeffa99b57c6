// Shared steps for the generator journeys: the controls by their labels,
// the queue's counters as the page shows them and as Dexie stores them, the server's view of the
// account over REST (its own session, so nothing the page caches can answer for it), image headers
// read byte by byte, and the service worker's Background Sync fired through the DevTools protocol.
import { expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { buildGenerateLink } from "#src/lib/generate-link.ts";
import { PASSWORD, apiUrl, appConfig } from "./app";

export const SYNC_TAG = "promptcanvas-queue";

export async function openGenerator(page: Page): Promise<void> {
  await page.goto("/generate");
  await expect(page.getByLabel("Prompt", { exact: true })).toBeVisible();
}

export function generateButton(page: Page) {
  return page.getByRole("button", { name: /^(Generate|Queue)/ });
}

export function preview(page: Page) {
  return page.getByRole("region", { name: "Preview" });
}

/** The preview's image of `prompt` (alt text = prompt). */
export function previewImage(page: Page, prompt: string) {
  return preview(page).getByRole("img", { name: prompt, exact: true });
}

export function toasts(page: Page) {
  return page.getByRole("region", { name: "Notices" });
}

/** Fills the prompt and presses Generate (one task, batch mode off). */
export async function generateOne(page: Page, prompt: string): Promise<void> {
  await page.getByLabel("Prompt", { exact: true }).fill(prompt);
  await expect(generateButton(page)).toBeEnabled();
  await generateButton(page).click();
}

export type Counters = { Queued: number; Running: number; Done: number; Failed: number };

/** Reads the "Queue counters" list (dt label, dd value); all zero while the card is hidden. */
export async function readCounters(page: Page): Promise<Counters> {
  return page.evaluate(() => {
    const out: Record<string, number> = { Queued: 0, Running: 0, Done: 0, Failed: 0 };
    const dl = document.querySelector('dl[aria-label="Queue counters"]');
    for (const dt of dl?.querySelectorAll("dt") ?? []) {
      const dd = dt.parentElement?.querySelector("dd") ?? dt.nextElementSibling;
      out[(dt.textContent ?? "").trim()] = Number((dd?.textContent ?? "").trim());
    }
    return out as Counters;
  });
}

export async function expectCounter(page: Page, name: keyof Counters, value: number, timeout = 30_000) {
  await expect.poll(async () => (await readCounters(page))[name], { timeout }).toBe(value);
}

/** The task records Dexie holds for the page's origin (raw IndexedDB, no app code involved). */
export async function dexieTasks(page: Page): Promise<{ id: string; status: string; prompt: string }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("promptcanvas");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const idb = open.result;
          if (!idb.objectStoreNames.contains("tasks")) {
            idb.close();
            resolve([]);
            return;
          }
          const all = idb.transaction("tasks").objectStore("tasks").getAll();
          all.onsuccess = () => {
            idb.close();
            resolve(all.result.map((t: { id: string; status: string; prompt: string }) => t));
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

// ---- The server's view, over REST with the account's own session -------------------------------

export type ServerSession = { api: string; anonKey: string; token: string; userId: string };

export const anonKey = (page: Page): Promise<string> => appConfig(page, "supabaseAnonKey");

export async function serverSession(page: Page, email: string, password = PASSWORD): Promise<ServerSession> {
  const api = await apiUrl(page);
  const key = await anonKey(page);
  const res = await page.request.post(`${api}/auth/v1/token?grant_type=password`, {
    headers: { apikey: key, "Content-Type": "application/json" },
    data: { email, password },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  return { api, anonKey: key, token: body.access_token, userId: body.user.id };
}

const authHeaders = (s: ServerSession) => ({ apikey: s.anonKey, Authorization: `Bearer ${s.token}` });

export async function serverRows(request: APIRequestContext, s: ServerSession): Promise<{ id: string }[]> {
  // Only the person's own rows: published rows of other tests' people are readable too.
  const res = await request.get(`${s.api}/rest/v1/generations?select=id&user_id=eq.${s.userId}`, {
    headers: authHeaders(s),
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string }[];
}

export type ServerLimits = { generations_today: number; remaining: number; daily_limit: number; reset_at: string };

export async function serverLimits(request: APIRequestContext, s: ServerSession): Promise<ServerLimits> {
  const res = await request.post(`${s.api}/rest/v1/rpc/get_my_limits`, {
    headers: { ...authHeaders(s), "Content-Type": "application/json" },
    data: {},
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as ServerLimits | ServerLimits[];
  return Array.isArray(body) ? body[0] : body;
}

/** Sends one generate-image request as the account (the wire body of supabase/functions/generate-image). */
export async function sendGenerate(request: APIRequestContext, s: ServerSession, body: Record<string, unknown>) {
  return request.post(`${s.api}/functions/v1/generate-image`, {
    headers: { ...authHeaders(s), "Content-Type": "application/json" },
    data: body,
  });
}

// ---- Image headers -------------------------------------------------------------------------------

export type ImageInfo = { format: "png" | "jpeg" | "webp"; width: number; height: number };

/** Format and pixel size from the file's own header bytes; throws for anything else. */
export function imageInfo(b: Buffer): ImageInfo {
  const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (PNG.every((v, i) => b[i] === v)) {
    // The first chunk must be IHDR: length(4) type(4) width(4) height(4), big-endian.
    if (b.toString("latin1", 12, 16) !== "IHDR") throw new Error("PNG without IHDR first");
    return { format: "png", width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) return { format: "jpeg", ...jpegSize(b) };
  if (b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP") {
    return { format: "webp", ...webpSize(b) };
  }
  throw new Error(`not a PNG, JPEG or WebP file (starts ${b.subarray(0, 12).toString("hex")})`);
}

function jpegSize(b: Buffer): { width: number; height: number } {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) throw new Error(`JPEG: no marker at ${at}`);
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Standalone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    // SOF0 (baseline), SOF1 (extended), SOF2 (progressive): precision(1) height(2) width(2).
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image / start of scan before any frame
    at += 2 + length;
  }
  throw new Error("JPEG without a SOF0/1/2 frame header");
}

function webpSize(b: Buffer): { width: number; height: number } {
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    // Frame tag (3), start code 9d 01 2a, then 14-bit width and height (little-endian, 2 scale bits).
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) throw new Error("WebP VP8 without start code");
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (b[20] !== 0x2f) throw new Error("WebP VP8L without signature");
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  throw new Error(`WebP with unknown first chunk ${JSON.stringify(chunk)}`);
}

// ---- Service worker ------------------------------------------------------------------------------

/** Waits until a service worker controls the page (the first load installs it; a reload is controlled). */
export async function ensureControlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/**
 * Fires the worker's Background Sync event for the app's origin, as the browser would once the
 * network is back. The CDP session lives on `host` (any page of the context, e.g. about:blank).
 */
export async function dispatchQueueSync(context: BrowserContext, host: Page, origin: string): Promise<void> {
  const cdp = await context.newCDPSession(host);
  const registrationId = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no service worker registration for ${origin}`)), 10_000);
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const found = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(origin));
      if (found) {
        clearTimeout(timer);
        resolve(found.registrationId);
      }
    });
    void cdp.send("ServiceWorker.enable");
  });
  await cdp.send("ServiceWorker.dispatchSyncEvent", { origin, registrationId, tag: SYNC_TAG, lastChance: false });
  await cdp.detach();
}

/** Makes one image through a generator link carrying its recipe, and waits until its task is done. */
export async function generateWith(page: Page, link: Parameters<typeof buildGenerateLink>[0]): Promise<void> {
  await page.goto(buildGenerateLink(link));
  await expect(page.getByLabel("Prompt", { exact: true })).toHaveValue(link.prompt ?? "");
  await expect(generateButton(page)).toBeEnabled();
  await generateButton(page).click();
  await expect(previewImage(page, link.prompt ?? "")).toBeVisible({ timeout: 45_000 });
  await expect.poll(async () => (await dexieTasks(page)).find((t) => t.prompt === link.prompt)?.status).toBe("done");
}

/**
 * What the system's share sheet does with the manifest's share_target, from the app's own page: a real form
 * submission (so the redirect is a navigation too) POSTing `bytes` as the PNG `name`, and `title` when given,
 * as a multipart form to /share-target.
 */
export async function shareImage(page: Page, bytes: Buffer, name: string, title?: string): Promise<void> {
  await page.evaluate(
    ({ bytes, name, title }) => {
      const form = document.createElement("form");
      form.method = "post";
      form.enctype = "multipart/form-data";
      form.action = "/share-target";
      if (title !== undefined) {
        const titleField = document.createElement("input");
        titleField.name = "title";
        titleField.value = title;
        form.append(titleField);
      }
      const file = document.createElement("input");
      file.type = "file";
      file.name = "image";
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(bytes)], name, { type: "image/png" }));
      file.files = files.files;
      form.append(file);
      document.body.append(form);
      form.submit();
    },
    { bytes: [...bytes], name, title },
  );
}
