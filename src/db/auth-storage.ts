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
// What a store has read or written is kept in memory: supabase-js reads the session before every
// request, and a read of IndexedDB waits for the page's main thread, which is busiest just as a queued
// send should go (the live lists redrawing with the image before it). Every write is announced on a
// BroadcastChannel, so the other stores of the database (other tabs, the service worker) forget that
// key and read it again; a deleted database forgets everything.
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
  /** Values known to be the stored ones (null: known absent), by key. */
  const known = new Map<string, string | null>();
  /** Counts what made a value known or unknown: a read keeps what it saw only if nothing did meanwhile. */
  let changes = 0;
  const forget = (key?: string) => {
    changes++;
    if (key === undefined) known.clear();
    else known.delete(key);
  };
  const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(`${name}:written`);
  if (channel)
    channel.onmessage = (event: MessageEvent<{ key?: unknown }>) =>
      forget(typeof event.data?.key === "string" ? event.data.key : undefined);
  // One connection, opened on first use and again after it closes: another tab deleting the database
  // (clearing this device) must not wait on it, and a failed open is tried again by the next request.
  const db = () =>
    (connection ??= open(name).then(
      (opened) => {
        opened.onversionchange = () => {
          opened.close();
          connection = null;
          forget();
        };
        opened.onclose = () => {
          connection = null;
          forget();
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
  /**
   * A write is known at once (a read after it answers it, as IndexedDB would), told to the other
   * stores once committed, and forgotten if it fails.
   */
  const write = async (key: string, value: string | null, make: (store: IDBObjectStore) => IDBRequest) => {
    changes++;
    known.set(key, value);
    try {
      await run("readwrite", make);
    } catch (error) {
      forget(key);
      throw error;
    }
    channel?.postMessage({ key });
  };
  return {
    getItem: async (key) => {
      const held = known.get(key);
      if (held !== undefined) return held;
      const before = changes;
      const value = ((await run("readonly", (s) => s.get(key))) as Entry | undefined)?.value ?? null;
      // A write meanwhile (here, or told by another store) may be newer than what this read saw.
      if (changes === before) known.set(key, value);
      return value;
    },
    setItem: (key, value) => write(key, value, (s) => s.put({ key, value } satisfies Entry)),
    removeItem: (key) => write(key, null, (s) => s.delete(key)),
  };
}

/**
 * Calls `listener` each time a store of the database (another tab's, the service worker's, or one of
 * this page's) announces that it wrote `key`, once the write has committed; returns its unsubscribe.
 */
export function onStoreWritten(key: string, listener: () => void, name: string = AUTH_DB_NAME): () => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const channel = new BroadcastChannel(`${name}:written`);
  channel.onmessage = (event: MessageEvent<{ key?: unknown }>) => {
    if (event.data?.key === key) listener();
  };
  return () => channel.close();
}
