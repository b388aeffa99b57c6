// A page being closed or navigated away reports its last vitals (layout shift, interaction latency)
// as it goes, too late for an IndexedDB write to finish. Those items are written synchronously to
// localStorage on `pagehide` and moved into the regular buffer by the next page load. Only items of a
// signed-in person are ever here, and only until that next load.
import { isWebVitalName } from "#shared/vocabulary/web-vitals.ts";
import type { TelemetryItem } from "../../sync/telemetry";

export const SPILL_KEY = "promptcanvas.telemetry-unsent";
/** localStorage is small and shared: keep at most this many. */
export const SPILL_MAX_ITEMS = 50;

type KeyValue = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function spillUnsent(storage: KeyValue, items: readonly TelemetryItem[]): void {
  if (items.length === 0) return;
  try {
    const kept = [...readItems(storage), ...items].slice(-SPILL_MAX_ITEMS);
    storage.setItem(SPILL_KEY, JSON.stringify(kept));
  } catch {
    // Full or blocked storage: these few measurements are lost, which analytics can afford.
  }
}

/** The items a previous page left, removed from storage as they are taken. */
export function takeSpilled(storage: KeyValue): TelemetryItem[] {
  const items = readItems(storage);
  try {
    storage.removeItem(SPILL_KEY);
  } catch {
    // Blocked storage held nothing either.
  }
  return items;
}

function readItems(storage: KeyValue): TelemetryItem[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(SPILL_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isItem) : [];
  } catch {
    return [];
  }
}

/** Storage is shared with anything on this origin: take only well-formed items. */
function isItem(value: unknown): value is TelemetryItem {
  const v = value as Partial<Record<string, unknown>> | null;
  if (!v || typeof v.id !== "string" || typeof v.userId !== "string" || typeof v.createdAt !== "string") return false;
  if (v.kind === "event") return typeof v.name === "string" && !!v.metadata && typeof v.metadata === "object";
  return (
    v.kind === "vital" &&
    isWebVitalName(v.name) &&
    typeof v.value === "number" &&
    typeof v.delta === "number" &&
    typeof v.metricId === "string"
  );
}
