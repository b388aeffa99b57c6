// /status (issue 28, engine health): the figures come from the product's own records. An image made
// through the generator shows up as a call of the built-in engine with a measured time to image;
// offline the page says it did not check, and fills in when the connection returns.
import { expect, test } from "./support/test";
import { signUp, uniqueEmail } from "./support/app";
import { expectCounter, generateOne, openGenerator } from "./support/generator";

test("an image made is counted on /status with its time to image; offline the page says it did not check", async ({
  page,
  context,
  allowOffline,
}) => {
  test.setTimeout(90_000);
  allowOffline("the journey goes offline on purpose");
  await page.goto("/status");
  const builtin = page.locator('tr[data-engine="builtin"]');
  await expect(builtin.getByRole("rowheader")).toContainText("Built-in renderer");
  const callsBefore = Number(await builtin.locator("td").first().innerText());

  await signUp(page, uniqueEmail("status"));
  await openGenerator(page);
  await generateOne(page, "A lighthouse on a cliff at dusk");
  await expectCounter(page, "Done", 1);

  await page.goto("/status");
  await expect(builtin.locator("td").first()).toHaveText(String(callsBefore + 1));
  // A median time to image was measured (ms or s), not a dash.
  await expect(builtin.locator("td").nth(2)).toHaveText(/^\d+(\.\d+)? (ms|s)$/);
  await expect(page.getByTestId("status-summary")).toContainText("engine calls in the last 24 hours");

  await context.setOffline(true);
  await expect(page.getByRole("status")).toHaveText(/Not checked while offline/);
  await context.setOffline(false);
  await expect(builtin.locator("td").first()).toHaveText(String(callsBefore + 1));
});
