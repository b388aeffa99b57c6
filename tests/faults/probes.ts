// What the invariant checker reads: the device's Dexie database raw (IndexedDB, no app code) and the
// server's truth over REST and Storage with the service role's key (printed by the backend).
import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import type { Servers } from "./backend";

export type DexieTask = {
  id: string;
  userId: string;
  status: "queued" | "running" | "done" | "error";
  wait?: { reason: string; until?: string };
  error?: { code: string; message: string };
  attempts: number;
};
export type DexieGeneration = {
  id: string;
  userId: string;
  isSaved: 0 | 1;
  isPublic: 0 | 1;
  /** Set when an operator took the image out of the gallery (decision 194). */
  removedAt: string | null;
};
export type DexieOutbox = {
  id: string;
  userId: string;
  kind: string;
  status: "pending" | "conflict";
  conflict?: { notified: boolean };
  attempts: number;
  /** When it may be sent again (ISO), after a failure. */
  nextAttemptAt?: string;
  /** What it waits for instead of the network (a sign-in). */
  parkedReason?: string;
};
export type DexiePrefs = { userId: string; defaultStyle: string; defaultQuality: string; defaultAspectRatio: string };
export type DexieCollection = { id: string; userId: string; name: string };
export type DexieCollectionItem = { collectionId: string; generationId: string; userId: string };
export type DexieCustomStyle = { id: string; userId: string; name: string };
export type DexieState = {
  exists: boolean;
  tasks: DexieTask[];
  generations: DexieGeneration[];
  images: string[];
  outbox: DexieOutbox[];
  preferences: DexiePrefs[];
  collections: DexieCollection[];
  collectionItems: DexieCollectionItem[];
  customStyles: DexieCustomStyle[];
};

/** Reads the app's database without creating it (an absent database reads as empty). */
export async function readDexie(page: Page): Promise<DexieState> {
  // A string, not a function: the bench runs under tsx, whose helpers do not exist in the page.
  return page.evaluate(`(async () => {
    const empty = {
      exists: false, tasks: [], generations: [], images: [], outbox: [], preferences: [], collections: [], collectionItems: [],
      customStyles: [],
    };
    const dbs = await indexedDB.databases();
    if (!dbs.some((d) => d.name === "promptcanvas")) return empty;
    const idb = await new Promise((resolve, reject) => {
      const open = indexedDB.open("promptcanvas");
      open.onupgradeneeded = () => open.transaction && open.transaction.abort();
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => ((open.error && open.error.name) === "AbortError" ? resolve(null) : reject(open.error));
      open.onblocked = () => resolve(null);
    });
    if (!idb) return empty;
    const all = (store) =>
      new Promise((resolve, reject) => {
        if (!idb.objectStoreNames.contains(store)) return resolve([]);
        const req = idb.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const keys = (store) =>
      new Promise((resolve, reject) => {
        if (!idb.objectStoreNames.contains(store)) return resolve([]);
        const req = idb.transaction(store).objectStore(store).getAllKeys();
        req.onsuccess = () => resolve(req.result.map(String));
        req.onerror = () => reject(req.error);
      });
    try {
      const [tasks, generations, images, outbox, preferences, collections, collectionItems, customStyles] = await Promise.all([
        all("tasks"),
        all("generations"),
        keys("images"),
        all("outbox"),
        all("preferences"),
        all("collections"),
        all("collectionItems"),
        all("customStyles"),
      ]);
      return {
        exists: true,
        tasks: tasks,
        generations: generations.map((g) => ({
          id: g.id,
          userId: g.userId,
          isSaved: g.isSaved,
          isPublic: g.isPublic,
          removedAt: g.removedAt ?? null,
        })),
        images,
        outbox: outbox,
        preferences: preferences,
        collections: collections.map((c) => ({ id: c.id, userId: c.userId, name: c.name })),
        collectionItems: collectionItems.map((i) => ({
          collectionId: i.collectionId,
          generationId: i.generationId,
          userId: i.userId,
        })),
        customStyles: customStyles.map((c) => ({ id: c.id, userId: c.userId, name: c.name })),
      };
    } finally {
      idb.close();
    }
  })()`) as Promise<DexieState>;
}

export type ServerRow = {
  id: string;
  is_saved: boolean;
  is_public: boolean;
  image_path: string;
  removed_at: string | null;
};
export type ServerPrefs = { default_style: string; default_quality: string; default_aspect_ratio: string };
export type ServerState = {
  rows: ServerRow[];
  generationsToday: number;
  dailyLimit: number;
  reservations: number;
  /** The request ids of the open reservations. */
  reservationIds: string[];
  objects: string[];
  prefs: ServerPrefs | null;
  /** The person's collections (decision 157) as `id:name`, and their items as `collection:generation`. */
  collections: string[];
  collectionItems: string[];
  /** The person's custom styles (decision 152) as `id:name`. */
  customStyles: string[];
};

export function serviceHeaders(s: Servers): Record<string, string> {
  return { apikey: s.serviceKey, Authorization: `Bearer ${s.serviceKey}`, "Content-Type": "application/json" };
}

async function getJson<T>(s: Servers, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${s.apiUrl}${path}`, {
    ...init,
    headers: { ...serviceHeaders(s), ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The ids of the user's rows now (one request). */
export async function readRowIds(s: Servers, userId: string): Promise<string[]> {
  const rows = await getJson<{ id: string }[]>(s, `/rest/v1/generations?select=id&user_id=eq.${userId}`);
  return rows.map((r) => r.id);
}

export async function readServer(s: Servers, userId: string): Promise<ServerState> {
  const [rows, limits, reservations, objects, prefs, collections, items, styles] = await Promise.all([
    getJson<ServerRow[]>(
      s,
      `/rest/v1/generations?select=id,is_saved,is_public,image_path,removed_at&user_id=eq.${userId}`,
    ),
    getJson<{ generations_today: number; subscription_tier: string }[]>(
      s,
      `/rest/v1/user_daily_limits?select=generations_today,subscription_tier&user_id=eq.${userId}`,
    ),
    getJson<{ request_id: string }[]>(s, `/rest/v1/quota_reservations?select=request_id&user_id=eq.${userId}`),
    getJson<{ name: string }[]>(s, `/storage/v1/object/list/generations`, {
      method: "POST",
      body: JSON.stringify({ prefix: userId, limit: 10_000, offset: 0 }),
    }),
    getJson<ServerPrefs[]>(
      s,
      `/rest/v1/user_preferences?select=default_style,default_quality,default_aspect_ratio&user_id=eq.${userId}`,
    ),
    getJson<{ id: string; name: string }[]>(s, `/rest/v1/collections?select=id,name&user_id=eq.${userId}`),
    getJson<{ collection_id: string; generation_id: string }[]>(
      s,
      `/rest/v1/collection_items?select=collection_id,generation_id&user_id=eq.${userId}`,
    ),
    getJson<{ id: string; name: string }[]>(s, `/rest/v1/custom_styles?select=id,name&user_id=eq.${userId}`),
  ]);
  const tier = limits[0]?.subscription_tier ?? "free";
  const quotas = await getJson<{ daily_limit: number }[]>(s, `/rest/v1/tier_quotas?select=daily_limit&tier=eq.${tier}`);
  return {
    rows,
    generationsToday: limits[0]?.generations_today ?? 0,
    dailyLimit: quotas[0]?.daily_limit ?? 0,
    reservations: reservations.length,
    reservationIds: reservations.map((r) => r.request_id),
    objects: objects.filter((o) => o.name && !o.name.endsWith("/")).map((o) => `${userId}/${o.name}`),
    prefs: prefs[0] ?? null,
    collections: collections.map((c) => `${c.id}:${c.name}`),
    collectionItems: items.map((i) => `${i.collection_id}:${i.generation_id}`),
    customStyles: styles.map((c) => `${c.id}:${c.name}`),
  };
}

export async function patchLimits(s: Servers, userId: string, patch: Record<string, unknown>): Promise<void> {
  await getJson(s, `/rest/v1/user_daily_limits?user_id=eq.${userId}`, {
    method: "PATCH",
    body: JSON.stringify(patch),
    headers: { Prefer: "return=minimal" },
  });
}

/** When the person's quota day ends (user_daily_limits.reset_at), in ms since the epoch. */
export async function quotaResetAt(s: Servers, userId: string): Promise<number> {
  const rows = await getJson<{ reset_at: string }[]>(
    s,
    `/rest/v1/user_daily_limits?select=reset_at&user_id=eq.${userId}`,
  );
  if (!rows[0]) throw new Error(`no limits row for ${userId}`);
  return Date.parse(rows[0].reset_at);
}

/**
 * Signs a person up over the API. `timezone` goes in the sign-up's metadata, which the sign-up trigger reads:
 * the quota's first day is then that zone's (a zone set later takes over only at the next reset).
 */
export async function signUpUser(s: Servers, email: string, password: string, timezone?: string): Promise<string> {
  const res = await fetch(`${s.apiUrl}/auth/v1/signup`, {
    method: "POST",
    headers: { apikey: s.anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, ...(timezone ? { data: { timezone } } : {}) }),
  });
  const body = (await res.json()) as { user?: { id: string }; id?: string };
  const id = body.user?.id ?? body.id;
  if (!res.ok || !id) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return id;
}

/** An access token for `email` (a password sign-in over the API, as any client makes one). */
export async function passwordToken(s: Servers, email: string, password: string): Promise<string> {
  const res = await fetch(`${s.apiUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: s.anonKey, "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!res.ok || !body.access_token)
    throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body.access_token;
}

/**
 * `count` published images of a new person's (someone the schedule's person may report): each made through
 * generate-image with that person's token, then made public with the service role, as publish-generation
 * does once its checks pass. Their ids.
 */
export async function othersPublishedImages(s: Servers, email: string, password: string, count: number) {
  await signUpUser(s, email, password);
  const token = await passwordToken(s, email, password);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${s.apiUrl}/functions/v1/generate-image`, {
      method: "POST",
      headers: { apikey: s.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        request_id: crypto.randomUUID(),
        prompt: `someone else's lighthouse ${i + 1}`,
        style: "watercolor",
        quality: "standard",
        aspect_ratio: "1:1",
      }),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json()) as { generation?: { id: string } };
    if (!res.ok || !body.generation)
      throw new Error(`generate-image: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    await getJson(s, `/rest/v1/generations?id=eq.${body.generation.id}`, {
      method: "PATCH",
      body: JSON.stringify({ is_public: true }),
      headers: { Prefer: "return=minimal" },
    });
    ids.push(body.generation.id);
  }
  return ids;
}

/**
 * An operator's access token (decision 194): a new person given app_metadata.role = "operator" through the
 * auth admin API with the service role, as `npm run operator` does, then signed in (the role is in the token).
 */
export async function operatorToken(s: Servers, email: string, password: string): Promise<string> {
  const id = await signUpUser(s, email, password);
  await getJson(s, `/auth/v1/admin/users/${id}`, {
    method: "PUT",
    body: JSON.stringify({ app_metadata: { role: "operator" } }),
  });
  return passwordToken(s, email, password);
}

/** Calls the REST function `fn` with `token` (a person's or an operator's access token); its answer and status. */
export async function callAs(s: Servers, token: string, fn: string, args: Record<string, unknown>) {
  const res = await fetch(`${s.apiUrl}/rest/v1/rpc/${fn}`, {
    method: "POST",
    headers: { apikey: s.anonKey, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
}

/** `count` new people each report `generationId` (decision 194: with the person's, a third report holds it). */
export async function reportedByOthers(
  s: Servers,
  emailPrefix: string,
  password: string,
  generationId: string,
  count: number,
) {
  for (let i = 1; i <= count; i++) {
    const email = `${emailPrefix}-${i}`;
    await signUpUser(s, email, password);
    const answer = await callAs(s, await passwordToken(s, email, password), "report_generation", {
      p_generation_id: generationId,
      p_reason: "deception",
    });
    if (answer.status !== 200) throw new Error(`report_generation: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

/** The person's rows as an operator's act leaves them: public or not, taken out of the gallery or not. */
export async function readModerated(s: Servers, userId: string) {
  return getJson<{ id: string; is_public: boolean; removed_at: string | null }[]>(
    s,
    `/rest/v1/generations?select=id,is_public,removed_at&user_id=eq.${userId}`,
  );
}

/** The ids of the images `userId` has reported (read with the service role: only operators read reports). */
export async function readReports(s: Servers, userId: string): Promise<string[]> {
  const rows = await getJson<{ generation_id: string }[]>(
    s,
    `/rest/v1/generation_reports?select=generation_id&reporter_id=eq.${userId}`,
  );
  return rows.map((r) => r.generation_id);
}

/** Which of `ids` a gallery read with `token` (the person's own access token) still returns. */
export async function visibleTo(s: Servers, token: string, ids: string[]): Promise<string[]> {
  const res = await fetch(`${s.apiUrl}/rest/v1/generations?select=id&id=in.(${ids.join(",")})`, {
    headers: { apikey: s.anonKey, Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET generations as the person: ${res.status} ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { id: string }[]).map((r) => r.id);
}

/** An access token like `token` but expired (signed with the backend's own secret, so only `exp` is wrong). */
export function expiredToken(token: string, secret: string): string {
  const [, body] = token.split(".");
  const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  claims.exp = now - 60;
  claims.iat = now - 3660;
  const head = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  const sig = createHmac("sha256", secret).update(`${head}.${payload}`).digest("base64url");
  return `${head}.${payload}.${sig}`;
}

/** Page code that opens the auth store's IndexedDB database (src/db/auth-storage.ts) as `openKv()`. */
const AUTH_KV = `
  const openKv = () => new Promise((resolve, reject) => {
    const open = indexedDB.open("promptcanvas-auth");
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });`;

/**
 * Replaces the stored session's access token (auth store in IndexedDB) with an expired one and says it
 * expires in 50 minutes, so the client believes the token valid until the server refuses it (as on a
 * device whose clock runs late). False when no session is stored.
 */
export async function rewriteStoredToken(
  page: Page,
  secret: string,
  note: (line: string) => void = () => undefined,
): Promise<boolean> {
  // Read, then written back only if the stored session is still the one read (in the write's own
  // transaction): a client that renewed it in between (a tab, or the worker, whose requests no route
  // sees) must not get its rotated refresh token replaced by the old one, which the server would then
  // refuse as reused, ending the session. A session that moved is read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await readStoredSession(page);
    if (!found) return false;
    const session = JSON.parse(found.value) as { access_token: string; expires_at?: number; refresh_token?: string };
    note(`token rewrite: read the session with refresh token …${session.refresh_token?.slice(-6)}`);
    session.access_token = expiredToken(session.access_token, secret);
    session.expires_at = Math.floor(Date.now() / 1000) + 3000;
    const written = (await page.evaluate(`(async () => {
      ${AUTH_KV}
      const idb = await openKv();
      try {
        return await new Promise((resolve, reject) => {
          const tx = idb.transaction("kv", "readwrite");
          const store = tx.objectStore("kv");
          let swapped = false;
          const read = store.get(${JSON.stringify(found.key)});
          read.onsuccess = () => {
            if (read.result?.value !== ${JSON.stringify(found.value)}) return;
            store.put(${JSON.stringify({ key: found.key, value: JSON.stringify(session) })});
            swapped = true;
          };
          tx.oncomplete = () => resolve(swapped);
          tx.onerror = () => reject(tx.error);
        });
      } finally {
        idb.close();
      }
    })()`)) as boolean;
    note(`token rewrite: ${written ? "written" : "not written: the stored session moved meanwhile"}`);
    if (!written) continue;
    // Announced as a store of the database announces its writes (src/db/auth-storage.ts), so the
    // stores that keep the session in memory read it again.
    await page.evaluate(`(() => {
      const told = new BroadcastChannel("promptcanvas-auth:written");
      told.postMessage({ key: ${JSON.stringify(found.key)} });
      told.close();
    })()`);
    return true;
  }
  return false;
}

/** The stored session's key and raw value in the auth store, or null when none is stored. */
export async function readStoredSession(page: Page): Promise<{ key: string; value: string } | null> {
  return (await page.evaluate(`(async () => {
    ${AUTH_KV}
    const idb = await openKv();
    try {
      if (!idb.objectStoreNames.contains("kv")) return null;
      const entries = await new Promise((resolve, reject) => {
        const req = idb.transaction("kv").objectStore("kv").getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const e of entries) {
        try {
          const v = JSON.parse(e.value);
          if (typeof v.access_token === "string") return { key: e.key, value: e.value };
        } catch {}
      }
      return null;
    } finally {
      idb.close();
    }
  })()`)) as { key: string; value: string } | null;
}
