// supabase-js's session storage: IndexedDB (src/db/auth-storage.ts), so the service worker can read
// the session too. On the page it also keeps, under the key supabase-js used to fill in
// localStorage, a token-free hint ({ user, refresh_token: "" }) that the shell reads synchronously
// to know whether anyone may be signed in without loading this client (docs/decisions/016-backend-client-loads-only-when-needed.md). A full
// session found in localStorage (written before the session moved) is moved over once.
import type { KeyValueStore } from "../db/auth-storage";

type SyncStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** What the shell needs from a session: who, and that one is stored; never a token. */
export function sessionHint(sessionJson: string): string | null {
  try {
    const session = JSON.parse(sessionJson) as { user?: { id?: unknown; email?: unknown } };
    if (typeof session.user?.id !== "string") return null;
    const email = typeof session.user.email === "string" ? session.user.email : "";
    return JSON.stringify({ user: { id: session.user.id, email }, refresh_token: "", stored_in: "indexeddb" });
  } catch {
    return null;
  }
}

function isFullSession(json: string | null): json is string {
  if (!json) return false;
  try {
    const s = JSON.parse(json) as { access_token?: unknown; refresh_token?: unknown };
    return typeof s.access_token === "string" && typeof s.refresh_token === "string" && s.refresh_token !== "";
  } catch {
    return false;
  }
}

function safely(run: () => void): void {
  try {
    run();
  } catch {
    // A full or blocked localStorage only costs the hint; the session itself is in IndexedDB.
  }
}

export function hintedSessionStorage(
  store: KeyValueStore,
  sessionKey: string,
  local: SyncStorage | undefined,
): KeyValueStore {
  const writeHint = (value: string) => {
    const hint = sessionHint(value);
    safely(() => (hint ? local?.setItem(sessionKey, hint) : local?.removeItem(sessionKey)));
  };
  return {
    async getItem(key) {
      const stored = await store.getItem(key);
      if (stored !== null || key !== sessionKey || !local) return stored;
      let legacy: string | null = null;
      safely(() => (legacy = local.getItem(key)));
      if (!isFullSession(legacy)) return null;
      await store.setItem(key, legacy);
      writeHint(legacy);
      return legacy;
    },
    async setItem(key, value) {
      await store.setItem(key, value);
      if (key === sessionKey) writeHint(value);
    },
    async removeItem(key) {
      await store.removeItem(key);
      if (key === sessionKey) safely(() => local?.removeItem(key));
    },
  };
}
