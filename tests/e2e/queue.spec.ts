// The durable queue (issue 9, "Verified by"): a batch respects its concurrency; tasks queued offline
// survive a reload and run once on reconnect; a replayed request id is stored and charged once; with
// no page open the service worker's Background Sync sends what was queued. The server is asked over
// REST with the account's own session, so only what really reached it counts.
import { expect, test } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";
import {
  dexieTasks,
  dispatchQueueSync,
  ensureControlled,
  expectCounter,
  generateButton,
  generateOne,
  openGenerator,
  preview,
  readCounters,
  sendGenerate,
  serverLimits,
  serverRows,
  serverSession,
} from "./support/generator";

test("a batch of 4 at concurrency 2 never runs more than 2 at once and all 4 finish", async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("queue-batch");
  await signUp(page, email);
  await openGenerator(page);

  await page.getByLabel("Prompt", { exact: true }).fill("A mountain lake at sunrise");
  await page.getByLabel("Batch mode").check();
  await expect(page.getByLabel("Batch count")).toHaveValue("4");

  // Sample what the page shows (the Running counter) and what Dexie stores, every ~50 ms.
  await page.evaluate(() => {
    const w = window as unknown as { __samples: { dom: number[]; idb: number[] }; __sampler: number };
    w.__samples = { dom: [], idb: [] };
    let idb: IDBDatabase | null = null;
    const open = indexedDB.open("promptcanvas");
    open.onsuccess = () => (idb = open.result);
    w.__sampler = window.setInterval(() => {
      const dl = document.querySelector('dl[aria-label="Queue counters"]');
      const dt = [...(dl?.querySelectorAll("dt") ?? [])].find((d) => d.textContent?.trim() === "Running");
      const dd = dt?.parentElement?.querySelector("dd") ?? dt?.nextElementSibling;
      if (dd) w.__samples.dom.push(Number(dd.textContent));
      if (idb?.objectStoreNames.contains("tasks")) {
        const req = idb.transaction("tasks").objectStore("tasks").getAll();
        req.onsuccess = () =>
          // Running against the concurrency: sent and not yet drawn (a drawn task is finishing while
          // the next one is sent in its slot, decision 123).
          w.__samples.idb.push(
            req.result.filter((t: { status: string; drawnAt?: string }) => t.status === "running" && !t.drawnAt).length,
          );
      }
    }, 50);
  });

  await generateButton(page).click();
  await expect(page.getByText("Added 4 tasks to generation queue")).toBeVisible();
  // The queue card (hidden while empty) shows the default concurrency.
  await expect(page.getByLabel("Concurrency", { exact: true })).toHaveText("2");
  await expectCounter(page, "Done", 4, 60_000);

  const samples = await page.evaluate(() => {
    const w = window as unknown as { __samples: { dom: number[]; idb: number[] }; __sampler: number };
    clearInterval(w.__sampler);
    return w.__samples;
  });
  const maxDom = Math.max(...samples.dom);
  const maxIdb = Math.max(...samples.idb);
  test.info().annotations.push({
    type: "running samples",
    description: `dom max ${maxDom} of ${samples.dom.length}, dexie max ${maxIdb} of ${samples.idb.length}`,
  });
  expect(maxDom).toBeLessThanOrEqual(2);
  expect(maxIdb).toBeLessThanOrEqual(2);
  // Concurrency 2 really runs two at once.
  expect.soft(maxIdb, "two tasks were running together at some point").toBe(2);
  expect(await readCounters(page)).toEqual({ Queued: 0, Running: 0, Done: 4, Failed: 0 });
  expect((await dexieTasks(page)).map((t) => t.status)).toEqual(["done", "done", "done", "done"]);

  const server = await serverSession(page, email);
  expect((await serverRows(page.request, server)).length).toBe(4);
});

test("offline: 3 queued prompts wait, survive a reload and run once on reconnect", async ({
  page,
  context,
  allowOffline,
}) => {
  allowOffline("the journey goes offline on purpose");
  test.setTimeout(120_000);
  const email = uniqueEmail("queue-offline");
  await signUp(page, email);
  await openGenerator(page);
  await ensureControlled(page);
  await expect(page.getByLabel("Prompt", { exact: true })).toBeVisible();

  await context.setOffline(true);
  const prompts = ["Offline prompt one", "Offline prompt two", "Offline prompt three"];
  for (const p of prompts) await generateOne(page, p);
  const list = page.getByRole("list", { name: "Queued tasks" });
  await expect(list.getByRole("listitem")).toHaveCount(3);
  for (const p of prompts) {
    await expect(list.getByRole("listitem").filter({ hasText: p })).toContainText("Waiting for connection");
  }

  // Still offline, the page comes from the service worker and the queue from Dexie.
  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await expectCounter(page, "Queued", 3);
  for (const p of prompts) {
    await expect(list.getByRole("listitem").filter({ hasText: p })).toContainText("Waiting for connection");
  }

  await context.setOffline(false);
  await expectCounter(page, "Done", 3, 60_000);
  // Three images: the newest in the preview, the other two as 'Recent Generations' thumbnails.
  await expect(preview(page).getByRole("img")).toHaveCount(1);
  await expect(preview(page).getByRole("button", { name: /^Show: Offline prompt/ })).toHaveCount(2);
  expect(prompts).toContain(await preview(page).getByRole("img").getAttribute("alt"));
  const server = await serverSession(page, email);
  expect((await serverRows(page.request, server)).length).toBe(3);
  expect((await serverLimits(page.request, server)).generations_today).toBe(3);
});

test("the same request id sent twice is stored once and charged once", async ({ page }) => {
  const email = uniqueEmail("queue-replay");
  await signUp(page, email);
  const server = await serverSession(page, email);
  const body = {
    request_id: crypto.randomUUID(),
    prompt: "A replayed request",
    style: "photorealistic",
    quality: "standard",
    aspect_ratio: "1:1",
  };
  const first = await sendGenerate(page.request, server, body);
  expect(first.status(), await first.text()).toBe(200);
  const second = await sendGenerate(page.request, server, body);
  expect(second.status(), await second.text()).toBe(200);
  const [a, b] = [await first.json(), await second.json()];
  expect(b.generation.id).toBe(a.generation.id);
  expect(b.replayed).toBe(true);
  expect((await serverRows(page.request, server)).length).toBe(1);
  expect((await serverLimits(page.request, server)).generations_today).toBe(1);
});

test("with no page open, the service worker's sync sends what was queued offline", async ({
  page,
  context,
  allowOffline,
}) => {
  allowOffline("the journey goes offline on purpose");
  test.setTimeout(120_000);
  const email = uniqueEmail("queue-sync");
  await signUp(page, email);
  await openGenerator(page);
  await ensureControlled(page);
  const origin = new URL(page.url()).origin;
  const server = await serverSession(page, email);

  await context.setOffline(true);
  const prompts = ["Sync prompt one", "Sync prompt two"];
  for (const p of prompts) await generateOne(page, p);
  const list = page.getByRole("list", { name: "Queued tasks" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").first()).toContainText("Waiting for connection");
  // The page asked for a Background Sync (reported, not required: the CDP dispatch below fires it anyway).
  const tags = await page.evaluate(async () => {
    const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
      sync?: { getTags(): Promise<string[]> };
    };
    return reg.sync ? reg.sync.getTags() : null;
  });
  expect.soft(tags, "sync tags registered by the page").toContain("promptcanvas-queue");

  const blank = await context.newPage();
  await page.close();
  await context.setOffline(false);
  expect((await serverRows(blank.request, server)).length).toBe(0);
  await dispatchQueueSync(context, blank, origin);

  await expect
    .poll(async () => (await serverRows(blank.request, server)).length, { timeout: 45_000, intervals: [500] })
    .toBe(2);
  expect((await serverLimits(blank.request, server)).generations_today).toBe(2);

  // The worker settled the same Dexie records: a page opened now shows both done, with their images,
  // and sends nothing again.
  const sent: string[] = [];
  const again = await context.newPage();
  again.on("request", (r) => {
    if (r.url().includes("/functions/v1/generate-image")) sent.push(r.url());
  });
  await openGenerator(again);
  await expectCounter(again, "Done", 2);
  await expect(preview(again).getByRole("img")).toHaveCount(1);
  expect(prompts).toContain(await preview(again).getByRole("img").getAttribute("alt"));
  await again.waitForTimeout(1_000);
  expect(sent).toEqual([]);
  expect((await serverRows(again.request, server)).length).toBe(2);
});

test("a reload in the middle of a batch resumes it: every task done once, no duplicate row or charge", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("queue-resume");
  await signUp(page, email);
  await openGenerator(page);
  await page.getByLabel("Prompt", { exact: true }).fill("A lantern festival over a river");
  await page.getByLabel("Batch mode").check();
  await generateButton(page).click();
  await expectCounter(page, "Running", 2, 20_000);
  // Reload while two sends are in flight: their requests may already have reached the server.
  await page.reload();
  await expectCounter(page, "Done", 4, 60_000);
  expect(await readCounters(page)).toEqual({ Queued: 0, Running: 0, Done: 4, Failed: 0 });

  const server = await serverSession(page, email);
  expect((await serverRows(page.request, server)).length).toBe(4);
  expect((await serverLimits(page.request, server)).generations_today).toBe(4);
});
