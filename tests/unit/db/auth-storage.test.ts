import { Dexie } from "dexie";
import { describe, expect, it, vi } from "vitest";
import { onStoreWritten, openAuthStorage } from "#src/db/auth-storage.ts";

const fresh = () => `auth-storage-${crypto.randomUUID()}`;

/** Writes a value straight into the database, as no store of it would. */
async function rawPut(name: string, key: string, value: string): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction("kv", "readwrite");
    tx.objectStore("kv").put({ key, value });
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

describe("the auth key-value store", () => {
  it("keeps, replaces and removes values, and answers null for a missing key", async () => {
    const store = openAuthStorage(fresh());
    expect(await store.getItem("session")).toBeNull();
    await store.setItem("session", "one");
    await store.setItem("config", "{}");
    expect(await store.getItem("session")).toBe("one");
    await store.setItem("session", "two");
    expect(await store.getItem("session")).toBe("two");
    await store.removeItem("session");
    expect(await store.getItem("session")).toBeNull();
    expect(await store.getItem("config")).toBe("{}");
  });

  it("shares what it holds with another store of the same database (page and service worker)", async () => {
    const name = fresh();
    await openAuthStorage(name).setItem("session", "written by the page");
    expect(await openAuthStorage(name).getItem("session")).toBe("written by the page");
  });

  it("answers what it knows from memory, and reads again what another store of the database wrote", async () => {
    const name = fresh();
    const page = openAuthStorage(name);
    const worker = openAuthStorage(name);
    await page.setItem("session", "one");
    expect(await worker.getItem("session")).toBe("one");
    await new Promise((resolve) => setTimeout(resolve, 20)); // the page's announcement has come
    expect(await worker.getItem("session")).toBe("one");
    // Known from memory now: a change behind both stores' backs (no store wrote it) is not seen...
    await rawPut(name, "session", "outside");
    expect(await worker.getItem("session")).toBe("one");
    // ...while a write by another store is announced, and the next read goes to the database again.
    await page.setItem("session", "two");
    await vi.waitFor(async () => expect(await worker.getItem("session")).toBe("two"));
    await page.removeItem("session");
    await vi.waitFor(async () => expect(await worker.getItem("session")).toBeNull());
  });

  it("tells a listener of a key each committed write of it by any store of the database, and nothing else", async () => {
    const name = fresh();
    const heard: string[] = [];
    const stop = onStoreWritten("session", () => heard.push("session"), name);
    const tab = openAuthStorage(name);
    const worker = openAuthStorage(name);
    await tab.setItem("session", "renewed by the tab");
    await vi.waitFor(() => expect(heard).toEqual(["session"]));
    await worker.setItem("config", "{}");
    await worker.setItem("session", "renewed by the worker");
    await vi.waitFor(() => expect(heard).toEqual(["session", "session"]));
    await worker.removeItem("session");
    await vi.waitFor(() => expect(heard).toHaveLength(3));
    stop();
    await tab.setItem("session", "after the listener left");
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(heard).toHaveLength(3);
  });

  it("reads a store an earlier build wrote with Dexie, and Dexie reads what it writes", async () => {
    const name = fresh();
    const earlier = new Dexie(name) as Dexie & { kv: Dexie.Table<{ key: string; value: string }, string> };
    earlier.version(1).stores({ kv: "key" });
    await earlier.kv.put({ key: "session", value: "from before" });
    earlier.close();

    const store = openAuthStorage(name);
    expect(await store.getItem("session")).toBe("from before");
    await store.setItem("config", "now");

    const again = new Dexie(name) as Dexie & { kv: Dexie.Table<{ key: string; value: string }, string> };
    again.version(1).stores({ kv: "key" });
    expect((await again.kv.get("config"))?.value).toBe("now");
    again.close();
  });

  it("gives way when the database is deleted and opens it again on the next request", async () => {
    const name = fresh();
    const store = openAuthStorage(name);
    await store.setItem("session", "x");
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("the open connection blocked the delete"));
    });
    expect(await store.getItem("session")).toBeNull();
    await store.setItem("session", "y");
    expect(await store.getItem("session")).toBe("y");
  });
});
