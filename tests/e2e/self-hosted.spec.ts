// Self-hosted engines end to end: a deployment whose only engines (besides the built-in one) are an
// AUTOMATIC1111/Forge WebUI and a ComfyUI server, here the function tier's contract fakes behind recorders.
// The generator offers both in its Engine select; a batch of 4 at concurrency 2 sent to AUTOMATIC1111
// reaches the WebUI as 4 txt2img calls, never more than 2 at once, and stores 4 rows drawn by `a1111`;
// one generation sent to ComfyUI queues a graph, polls its history and reads the image from /view, and
// stores a row drawn by `comfyui`. The pictures show in the preview. It runs against servers of its own
// (support/self-hosted.ts), not the shared web server, since the engines are the deployment's settings.
import { expect, test, type Locator, type Page } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";
import {
  expectCounter,
  generateButton,
  openGenerator,
  preview,
  previewImage,
  readCounters,
  serverSession,
  type ServerSession,
} from "./support/generator";
import { startSelfHosted, type SelfHosted } from "./support/self-hosted";

const PORTS = { app: 4861, api: 54861, a1111: 4862, comfyui: 4863 };
const APP = `http://127.0.0.1:${PORTS.app}`;
const A1111 = "AUTOMATIC1111 / Forge (self-hosted)";
const COMFYUI = "ComfyUI (self-hosted)";

test.describe.configure({ mode: "serial" });
test.use({
  baseURL: APP,
  // As playwright.config.ts does for the shared server: a returning visitor, no onboarding dialog.
  storageState: {
    cookies: [],
    origins: [{ origin: APP, localStorage: [{ name: "onboarding_completed", value: "true" }] }],
  },
});

let servers: SelfHosted | undefined;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  servers = await startSelfHosted(PORTS);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await servers?.close();
});

type Row = { id: string; provider: string; prompt: string; model: string };

/** The account's generations as the server stores them, over REST with its own session. */
async function rows(page: Page, s: ServerSession): Promise<Row[]> {
  const res = await page.request.get(
    `${s.api}/rest/v1/generations?select=id,provider,prompt,model&user_id=eq.${s.userId}&order=created_at.asc`,
    { headers: { apikey: s.anonKey, Authorization: `Bearer ${s.token}` } },
  );
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Row[];
}

/** The image element has loaded a real picture (not a broken or empty one). */
async function expectLoaded(image: Locator): Promise<void> {
  await expect(image).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0 && i.naturalHeight > 0), {
      timeout: 30_000,
    })
    .toBe(true);
}

/** The most calls that were in flight together, from the recorder's arrival and answer times. */
function peakOverlap(calls: { startedAt: number; endedAt: number | null }[]): number {
  const edges = calls.flatMap((c) => [
    { at: c.startedAt, step: 1 },
    { at: c.endedAt ?? Number.POSITIVE_INFINITY, step: -1 },
  ]);
  // An answer and an arrival at the same millisecond do not overlap: ends first.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let peak = 0;
  for (const e of edges) {
    now += e.step;
    peak = Math.max(peak, now);
  }
  return peak;
}

test("with the self-hosted fakes configured, a batch of 4 at concurrency 2 runs against them end to end", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const s = servers!;
  const email = uniqueEmail("self-hosted");
  await signUp(page, email);
  await openGenerator(page);

  // The deployment offers more than one engine, so the generator shows the choice, both self-hosted ones in it.
  const engine = page.getByLabel("Engine", { exact: true });
  await expect(engine).toBeVisible({ timeout: 30_000 });
  await expect(engine.getByRole("option", { name: A1111, exact: true })).toHaveCount(1);
  await expect(engine.getByRole("option", { name: COMFYUI, exact: true })).toHaveCount(1);
  await engine.selectOption({ label: A1111 });
  await expect(engine).toHaveValue("a1111");

  // ---- A batch of 4 at concurrency 2 on AUTOMATIC1111 ----
  const batchPrompt = "A lighthouse on a basalt cliff at dusk";
  await page.getByLabel("Prompt", { exact: true }).fill(batchPrompt);
  await page.getByLabel("Batch mode").check();
  await expect(page.getByLabel("Batch count")).toHaveValue("4");
  await expect(generateButton(page)).toBeEnabled();
  await generateButton(page).click();
  await expect(page.getByText("Added 4 tasks to generation queue")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel("Concurrency", { exact: true })).toHaveText("2");
  await expectCounter(page, "Done", 4, 150_000);
  expect(await readCounters(page)).toEqual({ Queued: 0, Running: 0, Done: 4, Failed: 0 });
  await expectLoaded(previewImage(page, batchPrompt));

  const server = await serverSession(page, email);
  const batchRows = await rows(page, server);
  expect(batchRows.map((r) => [r.provider, r.prompt])).toEqual(Array(4).fill(["a1111", batchPrompt]));

  const a1111 = await s.fakeLog(s.a1111Url);
  const txt2img = a1111.requests.filter((r) => r.method === "POST" && r.path === "/sdapi/v1/txt2img");
  expect(
    a1111.requests.map((r) => `${r.method} ${r.path} ${r.status}`),
    "the WebUI saw the batch's 4 txt2img calls and nothing else",
  ).toEqual(Array(4).fill("POST /sdapi/v1/txt2img 200"));
  for (const call of txt2img) expect(String(call.body?.prompt)).toContain(batchPrompt);
  const overlap = peakOverlap(txt2img);
  test.info().annotations.push({
    type: "a1111 calls in flight",
    description: `recorder max ${a1111.maxInFlight}, from the call times ${overlap}`,
  });
  expect(a1111.maxInFlight, "never more than 2 txt2img calls at once").toBeLessThanOrEqual(2);
  expect(overlap).toBeLessThanOrEqual(2);
  // Concurrency 2 really sends two at once (each call is held 2 s by the fake).
  expect(a1111.maxInFlight, "two txt2img calls were in flight together").toBe(2);

  // ---- One generation on ComfyUI ----
  const comfyPrompt = "A paper boat drifting on a flooded street";
  await page.getByLabel("Batch mode").uncheck();
  await engine.selectOption({ label: COMFYUI });
  await expect(engine).toHaveValue("comfyui");
  await page.getByLabel("Prompt", { exact: true }).fill(comfyPrompt);
  await expect(generateButton(page)).toBeEnabled();
  await generateButton(page).click();
  await expectLoaded(previewImage(page, comfyPrompt));
  // The batch's pictures are still there, as 'Recent Generations' thumbnails.
  await expect(
    preview(page)
      .getByRole("button", { name: `Show: ${batchPrompt}` })
      .first(),
  ).toBeVisible();

  await expect.poll(async () => (await rows(page, server)).length, { timeout: 30_000 }).toBe(5);
  const comfyRows = (await rows(page, server)).filter((r) => r.prompt === comfyPrompt);
  expect(comfyRows.map((r) => r.provider)).toEqual(["comfyui"]);

  const comfy = await s.fakeLog(s.comfyuiUrl);
  const seen = comfy.requests.map((r) => `${r.method} ${r.path.replace(/[?].*$/, "")} ${r.status}`);
  const queued = comfy.requests.filter((r) => r.method === "POST" && r.path === "/prompt");
  expect(
    queued.map((r) => r.status),
    `ComfyUI saw: ${seen.join(", ")}`,
  ).toEqual([200]);
  const graph = JSON.stringify(queued[0].body?.prompt);
  expect(graph).toContain(comfyPrompt);
  expect(
    comfy.requests.filter((r) => r.method === "GET" && r.path.startsWith("/history/")).length,
    `ComfyUI saw: ${seen.join(", ")}`,
  ).toBeGreaterThanOrEqual(1);
  expect(
    comfy.requests.filter((r) => r.method === "GET" && r.path.startsWith("/view?") && r.status === 200).length,
    `ComfyUI saw: ${seen.join(", ")}`,
  ).toBe(1);
  // The ComfyUI generation went nowhere else.
  expect((await s.fakeLog(s.a1111Url)).requests.length).toBe(4);
});
