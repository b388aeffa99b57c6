// Short-lived notices (spec §8 shows errors as toasts for 5 s). View-only state in valtio; the
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

export function dismissToast(id: number): void {
  const index = toasts.items.findIndex((t) => t.id === id);
  if (index >= 0) toasts.items.splice(index, 1);
}
