// Short-lived notices (docs/spec.md §8 shows errors as toasts for 5 s). View-only state in valtio; the
// Toaster in the shell renders and expires them. An action either opens a path (`to`) or runs a
// callback (`onClick`, e.g. Retry re-running the same request).
import { proxy, ref } from "valtio";

export const TOAST_DURATION_MS = 5_000;

export type ToastAction = { label: string; to?: string; onClick?: () => void };

export type Toast = {
  id: number;
  tone: "info" | "success" | "warning" | "error";
  title: string;
  message?: string;
  action?: ToastAction;
  durationMs: number;
};

export const toasts = proxy<{ items: Toast[] }>({ items: [] });

let nextId = 1;

export function showToast(toast: Omit<Toast, "id" | "durationMs"> & { durationMs?: number }): number {
  const id = nextId++;
  // The action object is kept by reference: valtio would otherwise wrap the callback's owner in a proxy.
  const action = toast.action ? ref({ ...toast.action }) : undefined;
  toasts.items.push({ durationMs: TOAST_DURATION_MS, ...toast, action, id });
  return id;
}

/**
 * Shows `toast` alone: the notices on screen spoke of a state that no longer holds (a session ended
 * elsewhere makes a "Saved" just shown untrue), and one clear message replaces them.
 */
export function replaceToasts(toast: Omit<Toast, "id" | "durationMs"> & { durationMs?: number }): number {
  toasts.items.splice(0);
  return showToast(toast);
}

export function dismissToast(id: number): void {
  const index = toasts.items.findIndex((t) => t.id === id);
  if (index >= 0) toasts.items.splice(index, 1);
}

// Finished work the person has not seen yet (a batch or a queued task that ended while the page was
// hidden): the tab title's count and the app badge follow it; viewing History clears it. Kept in
// localStorage so a reload (or another tab) shows the same count.
const UNSEEN_KEY = "promptcanvas:unseen-finished";

function readUnseen(): number {
  try {
    const n = Number(globalThis.localStorage?.getItem(UNSEEN_KEY) ?? 0);
    return Number.isInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

export const unseenFinished = proxy<{ count: number }>({ count: 0 });

function setUnseen(count: number): void {
  unseenFinished.count = count;
  try {
    if (count > 0) globalThis.localStorage?.setItem(UNSEEN_KEY, String(count));
    else globalThis.localStorage?.removeItem(UNSEEN_KEY);
  } catch {
    // Private mode without storage: the count lives for this page only.
  }
  type Badging = Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
  const nav = (typeof navigator === "undefined" ? undefined : navigator) as Badging | undefined;
  const call = count > 0 ? nav?.setAppBadge?.(count) : nav?.clearAppBadge?.();
  void call?.catch(() => undefined); // not installed, or the platform has no badge
}

/** Reads the stored count once the page runs (the first render reads nothing from the browser). */
export function loadUnseenFinished(): void {
  unseenFinished.count = readUnseen();
}

export function addUnseenFinished(n = 1): void {
  setUnseen(readUnseen() + n);
}

/** History was viewed: nothing finished is unseen any more. */
export function clearUnseenFinished(): void {
  if (unseenFinished.count > 0 || readUnseen() > 0) setUnseen(0);
}
