import { describe, expect, it } from "vitest";
import type { KeyValueStore } from "#src/db/auth-storage.ts";
import { hintedSessionStorage } from "#src/api/session-storage.ts";

const KEY = "sb-127-auth-token";
const session = JSON.stringify({
  access_token: "access",
  refresh_token: "refresh",
  user: { id: "u1", email: "a@example.com" },
});

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: async (k) => data.get(k) ?? null,
    setItem: async (k, v) => void data.set(k, v),
    removeItem: async (k) => void data.delete(k),
  };
}

describe("hintedSessionStorage", () => {
  it("keeps the session in IndexedDB and only a token-free hint in localStorage", async () => {
    localStorage.clear();
    const idb = memoryStore();
    const storage = hintedSessionStorage(idb, KEY, localStorage);
    await storage.setItem(KEY, session);
    expect(idb.data.get(KEY)).toBe(session);
    const hint = JSON.parse(localStorage.getItem(KEY)!);
    expect(hint).toMatchObject({ user: { id: "u1", email: "a@example.com" }, refresh_token: "" });
    expect(localStorage.getItem(KEY)).not.toContain("access");
    await storage.removeItem(KEY);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(idb.data.has(KEY)).toBe(false);
  });

  it("moves a session stored in localStorage before over once", async () => {
    localStorage.clear();
    localStorage.setItem(KEY, session);
    const idb = memoryStore();
    const storage = hintedSessionStorage(idb, KEY, localStorage);
    expect(await storage.getItem(KEY)).toBe(session);
    expect(idb.data.get(KEY)).toBe(session);
    expect(localStorage.getItem(KEY)).not.toContain('refresh"');
    // The hint left behind is never taken for a session.
    idb.data.clear();
    expect(await storage.getItem(KEY)).toBeNull();
  });
});
