// A session ended is ended everywhere (decision 129): two browser contexts signed in as the same person
// are two devices. Deleting the account, or choosing Sign out everywhere, on device A signs device B out
// within seconds; B says so once and keeps nothing private on screen. Sign out alone ends A's session only.
import { accountButton, signIn, signUp, uniqueEmail } from "./support/app";
import { sendGenerate, serverSession, toasts } from "./support/generator";
import { historyTile, newDevice, openHistory, openLargeView } from "./support/library";
import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from "./support/test";

/** "Within seconds": from A's choice to B showing it is signed out. */
const WITHIN_MS = 5_000;

type Fixtures = { a: Page; browser: Browser; watchContext: (context: BrowserContext) => void; testInfo: TestInfo };

/**
 * Device A signs a new person up (with one generation of theirs, `prompt`, made over the API); device B, a
 * browser context of its own, signs in as them and shows that generation in History.
 */
async function twoDevices({ a, browser, watchContext, testInfo }: Fixtures, tag: string, prompt: string) {
  const email = uniqueEmail(tag);
  await signUp(a, email);
  const server = await serverSession(a, email);
  const body = { request_id: crypto.randomUUID(), prompt, style: "anime", quality: "standard", aspect_ratio: "1:1" };
  expect((await sendGenerate(a.request, server, body)).status()).toBe(200);
  const { context, page: b } = await newDevice(browser, testInfo);
  watchContext(context);
  await b.goto("/auth");
  await signIn(b, email);
  await expect(accountButton(b, email)).toBeVisible();
  await openHistory(b);
  await expect(historyTile(b, prompt)).toBeVisible({ timeout: 20_000 });
  return { email, server, context, b };
}

/** What B's IndexedDB still holds of the person's library. */
function heldGenerations(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("promptcanvas");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction("generations").objectStore("generations").count();
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result);
          };
        };
      }),
  );
}

/** B shows it is signed out and nothing of the person: no account menu, no tile, no prompt. */
async function expectSignedOutWithin(b: Page, email: string, prompt: string, since: number): Promise<void> {
  await expect(b.getByRole("link", { name: "Sign in", exact: true })).toBeVisible({ timeout: WITHIN_MS });
  expect(Date.now() - since, "B signed out within seconds").toBeLessThan(WITHIN_MS);
  await expect(accountButton(b, email)).toHaveCount(0);
  await expect(historyTile(b, prompt)).toHaveCount(0);
  await expect(b.locator("body")).not.toContainText(prompt);
  // The private pages send B to sign in, with nothing of the library drawn first.
  await b.goto("/history");
  await expect(b).toHaveURL(/\/auth/);
  await expect(b.locator("body")).not.toContainText(prompt);
}

test("an account deleted on device A signs device B out within seconds, and B keeps nothing of it", async ({
  page: a,
  browser,
  allowConsole,
  allowFailedRequest,
  watchContext,
}, testInfo) => {
  test.setTimeout(120_000);
  allowFailedRequest(/auth\/v1\/user 403$/, "B asks the server about its session: its account is gone");
  allowConsole(/status of 403/, "the refusal above, as the browser logs it");
  const prompt = "A harbour at dawn kept on two devices";
  const { email, context, b } = await twoDevices({ a, browser, watchContext, testInfo }, "gone", prompt);

  await a.goto("/account");
  await a.getByRole("button", { name: "Delete account…" }).click();
  await a
    .getByRole("dialog", { name: "Delete your account?" })
    .getByRole("button", { name: "Delete my account" })
    .click();
  await expect(toasts(a).getByText("Your account was deleted")).toBeVisible({ timeout: 20_000 });
  const deletedAt = Date.now();

  await expect(toasts(b).getByText("Your account was deleted")).toBeVisible({ timeout: WITHIN_MS });
  await expectSignedOutWithin(b, email, prompt, deletedAt);
  // A gone account's copy is removed from the device, not only hidden.
  await expect.poll(() => heldGenerations(b)).toBe(0);
  await context.close();
});

test("Sign out ends device A's session alone; Sign out everywhere signs device B out within seconds", async ({
  page: a,
  browser,
  allowConsole,
  allowFailedRequest,
  watchContext,
}, testInfo) => {
  test.setTimeout(120_000);
  allowFailedRequest(/auth\/v1\/user 403$/, "B asks the server about its session: it was ended");
  allowConsole(/status of 403/, "the refusal above, as the browser logs it");
  // The catch-up that follows the ended session's closed channel may read the custom styles and collections
  // with the token that was just ended, before the page has forgotten it: the server refuses it (the local
  // backend checks the session of every token; hosted PostgREST would still answer until the token expires).
  allowFailedRequest(
    /rest\/v1\/(custom_styles|collections|collection_items)\?.* 401$/,
    "a catch-up read sent as the session ended",
  );
  allowConsole(
    /status of 401 \(Unauthorized\) \(at \S+\/rest\/v1\/(custom_styles|collections|collection_items)/,
    "the refusal above, as the browser logs it",
  );
  const prompt = "A lantern-lit alley seen from two devices";
  const { email, context, b } = await twoDevices({ a, browser, watchContext, testInfo }, "everywhere", prompt);

  // Sign out on A: A's session alone ends, and B, told of it, asks and stays signed in.
  await accountButton(a, email).click();
  await a.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(a.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  await b.waitForTimeout(2_500);
  await expect(accountButton(b, email)).toBeVisible();
  await expect(historyTile(b, prompt)).toBeVisible();

  await a.goto("/auth");
  await signIn(a, email);
  await expect(accountButton(a, email)).toBeVisible();
  await a.goto("/account");
  await a.getByRole("button", { name: "Sign out everywhere" }).click();
  const question = a.getByRole("dialog", { name: "Sign out on every device?" });
  await question.getByRole("button", { name: "Sign out everywhere" }).click();
  const chosenAt = Date.now();
  await expect(a.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();

  await expect(toasts(b).getByText("You were signed out")).toBeVisible({ timeout: WITHIN_MS });
  await expectSignedOutWithin(b, email, prompt, chosenAt);
  await context.close();
});

test("a save made offline on a device whose account was deleted meanwhile ends in one message, not two", async ({
  page: a,
  browser,
  allowConsole,
  allowFailedRequest,
  allowOffline,
  watchContext,
}, testInfo) => {
  test.setTimeout(120_000);
  allowOffline("device B is offline while the account is deleted");
  allowFailedRequest(
    /rest\/v1\/web_vitals\S* 409$/,
    "B's page-speed records, kept while offline, name an account gone",
  );
  allowConsole(/status of 409/, "the refusal above, as the browser logs it");
  allowFailedRequest(
    /rest\/v1\/generations\?\S* 401$/,
    "the save, when it leaves as B signs out, goes without a session and is refused (it waits for a sign-in)",
  );
  allowFailedRequest(
    /rest\/v1\/(custom_styles|collections|collection_items)\?\S* 401$/,
    "B's catch-up, back online, reads its custom styles and collections with the token of an account that is gone",
  );
  allowFailedRequest(
    /rest\/v1\/rpc\/get_my_limits (409|401)$|functions\/v1\/billing 401$/,
    "B, hearing its plan row go with the account, re-reads its limits and plan before it hears the account is gone " +
      "(refused as an account that is missing, or, a moment later, as a token whose session went with it)",
  );
  allowConsole(/status of 401/, "the refusal above, as the browser logs it");
  allowFailedRequest(/auth\/v1\/user 403$/, "B asks the server about its session: its account is gone");
  allowConsole(/status of 403/, "the refusal above, as the browser logs it");
  allowFailedRequest(
    /storage\/v1\/object\/sign\/generations\/\S* (400|net::ERR_BLOCKED_BY_ORB)$/,
    "B's large view, back online before it hears the account is gone, asks for an image deleted with it",
  );
  allowConsole(/status of 400/, "the refusal above, as the browser logs it");
  const prompt = "A paper boat on a rainy windowsill";
  const { email, server, context, b } = await twoDevices(
    { a, browser, watchContext, testInfo },
    "gone-offline",
    prompt,
  );

  // B loses its connection; the account is deleted meanwhile, so B never hears of it.
  await context.setOffline(true);
  const deleted = await a.request.post(`${server.api}/functions/v1/delete-account`, {
    headers: { apikey: server.anonKey, Authorization: `Bearer ${server.token}`, "Content-Type": "application/json" },
    data: {},
  });
  expect(deleted.status()).toBe(200);

  // Offline, B saves: the change is applied on the device and waits to be sent.
  const dialog = await openLargeView(b, prompt);
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toasts(b).getByText("Saved", { exact: true })).toBeVisible();

  // Back online, the save finds no row and the session no account: one message says so, and only it.
  await context.setOffline(false);
  const onlineAt = Date.now();
  await expect(toasts(b).getByText("Your account was deleted")).toBeVisible({ timeout: WITHIN_MS });
  await expect(b.getByRole("link", { name: "Sign in", exact: true })).toBeVisible({ timeout: WITHIN_MS });
  expect(Date.now() - onlineAt, "B signed out within seconds of its return").toBeLessThan(WITHIN_MS);
  // Whatever the outbox makes of the save afterwards, it adds no second notice.
  await b.waitForTimeout(1_500);
  await expect(toasts(b).getByText(/Saved|could not be applied|Failed to/)).toHaveCount(0);
  await expectSignedOutWithin(b, email, prompt, Date.now());
  await context.close();
});
