// The queue's concurrency (1–4, default 2), the limit of its delivery lane, read at each look: a setting
// of this browser shared by its tabs, kept in localStorage, announced to listeners here and to other tabs
// by the storage event.
import { CONCURRENCY_DEFAULT, CONCURRENCY_MAX, CONCURRENCY_MIN } from "#shared/vocabulary/generation.ts";

export const CONCURRENCY_KEY = "promptcanvas.queue-concurrency";

/** A concurrency the queue can use: a whole number from 1 to 4 (the default for anything else). */
export const clampConcurrency = (n: number) =>
  Number.isFinite(n) ? Math.min(CONCURRENCY_MAX, Math.max(CONCURRENCY_MIN, Math.round(n))) : CONCURRENCY_DEFAULT;

const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

export function readConcurrency(): number {
  const raw = storage()?.getItem(CONCURRENCY_KEY);
  return raw ? clampConcurrency(Number(raw)) : CONCURRENCY_DEFAULT;
}

export function writeConcurrency(value: number): number {
  const next = clampConcurrency(value);
  try {
    storage()?.setItem(CONCURRENCY_KEY, String(next));
  } catch {
    // Not persisted (private mode): this tab still uses it.
  }
  listeners.forEach((l) => l());
  return next;
}

export function subscribeConcurrency(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === CONCURRENCY_KEY) listener();
  };
  if (typeof window !== "undefined") window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    if (typeof window !== "undefined") window.removeEventListener("storage", onStorage);
  };
}
