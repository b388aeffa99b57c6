// A small key-value store in its own IndexedDB database for the auth session and the backend
// config, so the page and the service worker (which has no localStorage) read the same session.
// It is separate from the app's database because signing in as someone else clears that one's
// `meta` table, and the new session must survive that.
import { Dexie, type EntityTable } from "dexie";

type Entry = { key: string; value: string };

export type KeyValueStore = {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
};

export const AUTH_DB_NAME = "promptcanvas-auth";

export function openAuthStorage(name: string = AUTH_DB_NAME): KeyValueStore {
  const db = new Dexie(name) as Dexie & { kv: EntityTable<Entry, "key"> };
  db.version(1).stores({ kv: "key" });
  return {
    getItem: async (key) => (await db.kv.get(key))?.value ?? null,
    setItem: async (key, value) => {
      await db.kv.put({ key, value });
    },
    removeItem: async (key) => {
      await db.kv.delete(key);
    },
  };
}
