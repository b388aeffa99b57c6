// A small key-value store in its own IndexedDB database for the auth session and the backend
// config, so the page and the service worker (which has no localStorage) read the same session.
// It is separate from the app's database because signing in as someone else clears that one's
// `meta` table, and the new session must survive that.
//
// Plain IndexedDB, not Dexie: a visitor's page (the public gallery) creates the backend client, and
// so opens this store, without ever opening the app's database; Dexie would be loaded and evaluated
// for three one-key requests (docs/decisions/055-nothing-repaints-or-loads-that-is-not-needed.md). The layout is the one Dexie gave it (database
// version 10, which is Dexie's version 1, one object store `kv` keyed by `key`), so a store written
// by an earlier build opens unchanged.
export type KeyValueStore = {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
};

type Entry = { key: string; value: string };

export const AUTH_DB_NAME = "promptcanvas-auth";
/** IndexedDB version of the store: Dexie's `version(1)` opened it as 10. */
const IDB_VERSION = 10;
const STORE = "kv";

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function open(name: string): Promise<IDBDatabase> {
  const request = indexedDB.open(name, IDB_VERSION);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: "key" });
  };
  return promised(request);
}

export function openAuthStorage(name: string = AUTH_DB_NAME): KeyValueStore {
  let connection: Promise<IDBDatabase> | null = null;
  // One connection, opened on first use and again after it closes: another tab deleting the database
  // (clearing this device) must not wait on it, and a failed open is tried again by the next request.
  const db = () =>
    (connection ??= open(name).then(
      (opened) => {
        opened.onversionchange = () => {
          opened.close();
          connection = null;
        };
        opened.onclose = () => {
          connection = null;
        };
        return opened;
      },
      (error: unknown) => {
        connection = null;
        throw error;
      },
    ));
  /** Runs one request in its own transaction; a write resolves once its transaction has committed. */
  const run = async <T>(mode: IDBTransactionMode, make: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const tx = (await db()).transaction(STORE, mode);
    const result = promised(make(tx.objectStore(STORE)));
    if (mode === "readonly") return result;
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
      tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
    });
    return result;
  };
  return {
    getItem: async (key) => ((await run("readonly", (s) => s.get(key))) as Entry | undefined)?.value ?? null,
    setItem: async (key, value) => {
      await run("readwrite", (s) => s.put({ key, value } satisfies Entry));
    },
    removeItem: async (key) => {
      await run("readwrite", (s) => s.delete(key));
    },
  };
}
