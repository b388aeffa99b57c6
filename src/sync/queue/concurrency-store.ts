// The queue's concurrency (1–4, default 2), a setting of this browser shared by its tabs: kept in
// localStorage, announced to listeners here and to other tabs by the storage event.
import { CONCURRENCY_DEFAULT } from "#shared/vocabulary/generation.ts";
import { clampConcurrency } from "./queue-machine";

export const CONCURRENCY_KEY = "promptcanvas.queue-concurrency";

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
