// Analytics rows waiting to be sent (recorded offline, or whose send failed), kept in `meta` under one
// key per person so they survive a reload and go with the rest of that person's data when they sign
// out (user-data.ts clears `meta`). Bounded in count and age: analytics must never grow without limit.
// Each item carries a client-minted id, so sending one twice stores it once.
import type { WebVitalName } from "#shared/vocabulary/web-vitals.ts";
import type { AppDb } from "./db";

export type TelemetryEventItem = {
  kind: "event";
  id: string;
  userId: string;
  name: string;
  metadata: Record<string, unknown>;
  /** ISO 8601, when it was recorded on this device. */
  createdAt: string;
};

export type TelemetryVitalItem = {
  kind: "vital";
  id: string;
  userId: string;
  name: WebVitalName;
  value: number;
  /** The measurement's id from the web-vitals library (one page load's metric). */
  metricId: string;
  delta: number;
  createdAt: string;
};

export type TelemetryItem = TelemetryEventItem | TelemetryVitalItem;

/** Per person; the oldest items go first beyond this. */
export const TELEMETRY_BUFFER_MAX_ITEMS = 200;
/** Items older than this are dropped rather than sent late. */
export const TELEMETRY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export const telemetryKey = (userId: string) => `telemetry:${userId}`;

type Options = { max?: number; now?: number };

function keep(items: TelemetryItem[], { max = TELEMETRY_BUFFER_MAX_ITEMS, now = Date.now() }: Options) {
  const fresh = items.filter((i) => now - Date.parse(i.createdAt) <= TELEMETRY_MAX_AGE_MS);
  return fresh.slice(Math.max(0, fresh.length - max));
}

async function read(db: AppDb, userId: string): Promise<TelemetryItem[]> {
  const value = (await db.meta.get(telemetryKey(userId)))?.value;
  return Array.isArray(value) ? (value as TelemetryItem[]) : [];
}

/** Adds items (any number of people), oldest first; an id already held is not added again. */
export async function bufferTelemetry(db: AppDb, items: readonly TelemetryItem[], options: Options = {}) {
  if (items.length === 0) return;
  const byUser = new Map<string, TelemetryItem[]>();
  for (const item of items) byUser.set(item.userId, [...(byUser.get(item.userId) ?? []), item]);
  // One read-modify-write transaction: two tabs appending at once cannot lose each other's items.
  await db.transaction("rw", db.meta, async () => {
    for (const [userId, added] of byUser) {
      const held = await read(db, userId);
      const ids = new Set(held.map((i) => i.id));
      const merged = keep([...held, ...added.filter((i) => !ids.has(i.id))], options);
      await db.meta.put({ key: telemetryKey(userId), value: merged });
    }
  });
}

/** The person's waiting items, oldest first (expired ones left out). */
export async function bufferedTelemetry(db: AppDb, userId: string, limit = Infinity): Promise<TelemetryItem[]> {
  const items = keep(await read(db, userId), { max: Infinity });
  return items.slice(0, limit);
}

/** Removes items once the server has them (or once they can never be stored). */
export async function dropTelemetry(db: AppDb, userId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const gone = new Set(ids);
  await db.transaction("rw", db.meta, async () => {
    const left = keep(await read(db, userId), { max: Infinity }).filter((i) => !gone.has(i.id));
    if (left.length === 0) await db.meta.delete(telemetryKey(userId));
    else await db.meta.put({ key: telemetryKey(userId), value: left });
  });
}
