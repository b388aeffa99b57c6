// Issue 42, "Verified by": a prompt the server's check refuses shows the spec's toast (Content Policy
// Violation, with the Content Policy action), draws and stores nothing, costs nothing of the day's quota,
// and its queued task fails once and is never sent again; the same words in the negative prompt are not
// checked. The prompt is written the way people dodge word lists (repeated letters, leet-speak).
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import { signUp, uniqueEmail } from "./support/app";
import {
  dexieTasks,
  expectCounter,
  generateOne,
  openGenerator,
  previewImage,
  readCounters,
  serverLimits,
  serverRows,
  serverSession,
  toasts,
} from "./support/generator";
import { expect, test } from "./support/test";

const REFUSED = "a fuuuck1ng cat on a sofa";

test("a refused prompt shows the policy toast, draws nothing, costs nothing and is not retried", async ({
  page,
  allowFailedRequest,
}) => {
  allowFailedRequest(/generate-image 4\d\d/, "the prompt check refuses this prompt on purpose");
  const email = uniqueEmail("prompt-check");
  await signUp(page, email);
  const server = await serverSession(page, email);
  const before = await serverLimits(page.request, server);

  let sends = 0;
  page.on("request", (r) => {
    if (r.url().includes("/functions/v1/generate-image") && r.method() === "POST") sends++;
  });
  await openGenerator(page);
  await generateOne(page, REFUSED);

  const notice = toasts(page);
  await expect(notice.getByText(ERROR_CATALOGUE.nsfw_content.title)).toBeVisible();
  await expect(notice.getByRole("link", { name: ERROR_CATALOGUE.nsfw_content.action!.label })).toHaveAttribute(
    "href",
    /\/content-policy$/,
  );
  await expectCounter(page, "Failed", 1);
  const failed = (await dexieTasks(page)).filter((t) => t.prompt === REFUSED);
  expect(failed.map((t) => t.status)).toEqual(["error"]);

  // Nothing drawn or stored, nothing charged; and the queue leaves it alone however long one waits.
  await page.waitForTimeout(6_000);
  expect(sends, "generate-image requests for the refused task").toBe(1);
  expect((await readCounters(page)).Failed).toBe(1);
  expect(await serverRows(page.request, server)).toEqual([]);
  const after = await serverLimits(page.request, server);
  expect(after.remaining).toBe(before.remaining);
  expect(after.generations_today).toBe(before.generations_today);

  // The negative prompt is where people write what they want to avoid: it is not checked.
  await page.getByLabel("Negative prompt").fill("fuuuck1ng clutter, blur");
  await generateOne(page, "a cat on a sofa");
  await expect(previewImage(page, "a cat on a sofa")).toBeVisible({ timeout: 30_000 });
  expect(await serverRows(page.request, server)).toHaveLength(1);
});
