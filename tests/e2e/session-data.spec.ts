import { expect, test, type Page } from "./support/test";
import { signOut, signUp, uniqueEmail } from "./support/app";

/** Row counts of the app's IndexedDB tables, read with the raw browser API. */
function counts(page: Page) {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open("promptcanvas");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const names = Array.from(db.objectStoreNames);
          const tx = db.transaction(names, "readonly");
          const result: Record<string, number> = {};
          for (const name of names) {
            const req = tx.objectStore(name).count();
            req.onsuccess = () => (result[name] = req.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(result);
          };
        };
      }),
  );
}

test("signing in loads the user's data into the browser and signing out empties it", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") problems.push(`${msg.type()}: ${msg.text()}`);
  });

  const email = uniqueEmail("data");
  await signUp(page, email);
  // The signed-in event pulls the user's limits and preferences (created for every new account).
  await expect.poll(async () => (await counts(page)).limits).toBe(1);
  await expect.poll(async () => (await counts(page)).preferences).toBe(1);

  await signOut(page, email);
  await expect.poll(async () => counts(page)).toMatchObject({ generations: 0, preferences: 0, limits: 0, meta: 0 });
  expect(problems).toEqual([]);
});
