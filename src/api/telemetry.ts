// The one path analytics take to the server (spec §7): `app_events` and `web_vitals` rows from
// everything that reports (the queue's outcomes, caught and uncaught errors, web vitals). Recording
// never waits on the network and never fails its caller: with no signed-in person it is skipped
// (spec §5); items wait in memory and in Dexie (src/db/telemetry-buffer.ts) until the person is online
// and signed in; a failed send is only a warning (spec §8). Client-minted ids make a resend harmless.
// A send carries the access token of the session it was started for, so a sign-out that begins
// while it is on the wire cannot turn it into an anonymous request that row-level security refuses.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { WebVitalName } from "#shared/vocabulary/web-vitals.ts";
import { db } from "../db/db";
import { bufferTelemetry, bufferedTelemetry, dropTelemetry, type TelemetryItem } from "../db/telemetry-buffer";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { sanitizeForLog } from "./errors";

export type { TelemetryItem } from "../db/telemetry-buffer";

/** Why a send failed; a retryable one keeps its items for the next flush, any other drops them. */
export type SendFailure = { retryable: boolean; message: string };

/** What one page load measured, as the web-vitals library reports it. */
export type VitalMeasurement = { name: WebVitalName; value: number; metricId: string; delta: number };

/** Items per request. */
export const TELEMETRY_BATCH_SIZE = 50;
/** Items recorded close together (a page load's vitals) go in one request. */
export const TELEMETRY_FLUSH_DELAY_MS = 1_000;

// Network failures (status 0), an expired token, throttling and server trouble pass; anything else
// (a check constraint, row-level security) would fail the same way again.
const retryableStatus = (status: number) =>
  status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;

type Row = Record<string, unknown>;
type Written = { error: unknown; status: number };

// The tables are insert-only for clients (no SELECT, so no ON CONFLICT on the id either): a row
// already stored answers 409 (unique violation), which here means "done". A batch that meets one is
// written again row by row so the rest still land.
async function insertOnce(client: SupabaseClient, table: string, rows: Row[], token?: string): Promise<Written> {
  const insert = client.from(table).insert(rows);
  // supabase-js adds the client's current token only where no Authorization header is set.
  const written = await (token ? insert.setHeader("Authorization", `Bearer ${token}`) : insert);
  if (written.status !== 409) return written;
  if (rows.length === 1) return { error: null, status: 409 };
  for (const row of rows) {
    const one = await insertOnce(client, table, [row], token);
    if (one.error) return one;
  }
  return { error: null, status: 201 };
}

/**
 * Inserts the items; one already stored (same id) counts as sent, so a replay stores nothing twice.
 * With `accessToken` the requests carry it instead of whatever session the client holds by then.
 */
export async function sendTelemetry(
  items: readonly TelemetryItem[],
  client: () => SupabaseClient = supabase,
  accessToken?: string,
): Promise<Result<void, SendFailure>> {
  const events = items.flatMap((i) =>
    i.kind === "event" ? [{ id: i.id, user_id: i.userId, name: i.name, metadata: i.metadata }] : [],
  );
  const vitals = items.flatMap((i) =>
    i.kind === "vital"
      ? [{ id: i.id, user_id: i.userId, name: i.name, value: i.value, metric_id: i.metricId, delta: i.delta }]
      : [],
  );
  const writes = [["app_events", events] as const, ["web_vitals", vitals] as const].filter(([, r]) => r.length > 0);
  for (const [table, rows] of writes) {
    try {
      const { error, status } = await insertOnce(client(), table, rows, accessToken);
      if (error) return err({ retryable: retryableStatus(status), message: `${table}: ${sanitizeForLog(error)}` });
    } catch (e) {
      return err({ retryable: true, message: `${table}: ${sanitizeForLog(e)}` });
    }
  }
  return ok(undefined);
}

export type TelemetryBuffer = {
  add(items: readonly TelemetryItem[]): Promise<void>;
  list(userId: string, limit: number): Promise<TelemetryItem[]>;
  drop(userId: string, ids: readonly string[]): Promise<void>;
};

/** Who the backend client is signed in as, and the token that proves it. */
export type TelemetrySession = { userId: string; accessToken: string };

export type TelemetryDeps = {
  /** Sends with the token of the session the flush began under. */
  send: (items: readonly TelemetryItem[], accessToken: string) => Promise<Result<void, SendFailure>>;
  /** Absent where IndexedDB is not available: items then wait in memory only. */
  buffer?: TelemetryBuffer;
  /** The person the backend client is signed in as: only their items can be sent (row-level security). */
  session: () => Promise<TelemetrySession | null>;
  isOnline: () => boolean;
  warn: (message: string) => void;
  newId?: () => string;
  now?: () => Date;
  flushDelayMs?: number;
};

export type Telemetry = {
  recordEvent(userId: string | null, name: string, metadata: Record<string, unknown>): void;
  recordVital(userId: string | null, vital: VitalMeasurement): void;
  /** Stores what is only in memory, then sends the signed-in person's waiting items when online. */
  flush(): Promise<void>;
  /** Items not yet safe in Dexie (a page being unloaded keeps these elsewhere). */
  unsent(): TelemetryItem[];
  /** Takes back items kept elsewhere (they keep their ids, so nothing is stored twice). */
  restore(items: readonly TelemetryItem[]): void;
};

export function createTelemetry(deps: TelemetryDeps): Telemetry {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const now = deps.now ?? (() => new Date());
  let memory: TelemetryItem[] = [];
  let chain: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const serial = (job: () => Promise<void>) => (chain = chain.then(job, job));
  const forget = (ids: readonly string[]) => (memory = memory.filter((i) => !ids.includes(i.id)));

  async function persist(): Promise<void> {
    if (!deps.buffer || memory.length === 0) return;
    const moving = [...memory]; // a copy: items recorded during the write stay in memory
    try {
      await deps.buffer.add(moving);
      forget(moving.map((i) => i.id));
    } catch (e) {
      deps.warn(`[telemetry] kept in memory only: ${sanitizeForLog(e)}`);
    }
  }

  /** One batch: the ids settled (stored, or refused for good), or null to stop until the next flush. */
  async function settle(batch: TelemetryItem[], accessToken: string): Promise<string[] | null> {
    const sent = await deps.send(batch, accessToken);
    if (sent.ok) return batch.map((i) => i.id);
    deps.warn(`[telemetry] ${batch.length} item(s) not sent: ${sent.error.message}`);
    if (sent.error.retryable) return null;
    if (batch.length === 1) return [batch[0].id];
    // One bad item must not cost the others: send them one by one and drop only what is refused.
    const settled: string[] = [];
    for (const item of batch) {
      const one = await settle([item], accessToken);
      if (!one) break;
      settled.push(...one);
    }
    return settled;
  }

  async function send(): Promise<void> {
    await persist();
    if (!deps.isOnline()) return;
    const session = await deps.session().catch(() => null);
    if (!session) return;
    const { userId, accessToken } = session;
    const done = new Set<string>(); // never send an item twice in one flush, whatever the buffer says
    for (;;) {
      const stored = deps.buffer ? await deps.buffer.list(userId, TELEMETRY_BATCH_SIZE).catch(() => []) : [];
      const held = new Set(stored.map((i) => i.id));
      const waiting = [...stored, ...memory.filter((i) => i.userId === userId && !held.has(i.id))];
      const batch = waiting.filter((i) => !done.has(i.id)).slice(0, TELEMETRY_BATCH_SIZE);
      if (batch.length === 0) return;
      const settled = await settle(batch, accessToken);
      if (!settled) return;
      settled.forEach((id) => done.add(id));
      forget(settled);
      if (deps.buffer) await deps.buffer.drop(userId, settled);
      if (settled.length < batch.length) return;
    }
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    return serial(() => send().catch((e: unknown) => deps.warn(`[telemetry] flush failed: ${sanitizeForLog(e)}`)));
  }

  function add(item: TelemetryItem): void {
    memory.push(item);
    // Into Dexie at once (a worker or a tab may be gone before the send); the send waits a moment.
    void serial(persist);
    timer ??= setTimeout(() => void flush(), deps.flushDelayMs ?? TELEMETRY_FLUSH_DELAY_MS);
  }

  return {
    recordEvent(userId, name, metadata) {
      if (!userId) return; // spec §5: silently skipped with no signed-in person
      add({ kind: "event", id: newId(), userId, name, metadata, createdAt: now().toISOString() });
    },
    recordVital(userId, vital) {
      if (!userId) return;
      add({ kind: "vital", id: newId(), userId, ...vital, createdAt: now().toISOString() });
    },
    flush,
    unsent: () => [...memory],
    restore(items) {
      const ids = new Set(memory.map((i) => i.id));
      items.filter((i) => !ids.has(i.id)).forEach(add);
    },
  };
}

export const dexieTelemetryBuffer = (target = db): TelemetryBuffer => ({
  add: (items) => bufferTelemetry(target, items),
  list: (userId, limit) => bufferedTelemetry(target, userId, limit),
  drop: (userId, ids) => dropTelemetry(target, userId, ids),
});

let shared: Telemetry | undefined;

/** The page's (or the service worker's) one recorder. */
export function telemetry(): Telemetry {
  return (shared ??= createTelemetry({
    send: (items, accessToken) => sendTelemetry(items, supabase, accessToken),
    buffer: typeof indexedDB === "undefined" ? undefined : dexieTelemetryBuffer(),
    session: async () => {
      const session = (await supabase().auth.getSession()).data.session;
      return session ? { userId: session.user.id, accessToken: session.access_token } : null;
    },
    isOnline: () => typeof navigator === "undefined" || navigator.onLine,
    warn: (message) => console.warn(message),
  }));
}

/** An `app_events` row for this person; skipped with no person (the queue's outcomes use this). */
export function trackEvent(userId: string | null, name: string, metadata: Record<string, unknown>): Promise<void> {
  telemetry().recordEvent(userId, name, metadata);
  return Promise.resolve();
}
