// Registers the service worker built from sw/sw.ts through workbox-window and exposes the update
// hand-off: when a new version has installed and waits, listeners hear of it; applyUpdate() asks it
// to take over (messageSkipWaiting) and reloads once it controls the page.
import type { Workbox } from "workbox-window";

type UpdateListener = () => void;
const updateListeners = new Set<UpdateListener>();
let workbox: Workbox | null = null;
let waiting = false;

function announce(): void {
  waiting = true;
  updateListeners.forEach((l) => l());
}

export function onUpdateReady(listener: UpdateListener): () => void {
  updateListeners.add(listener);
  if (waiting) listener();
  return () => updateListeners.delete(listener);
}

export function applyUpdate(): void {
  if (!workbox || !waiting) return;
  workbox.addEventListener("controlling", () => window.location.reload());
  workbox.messageSkipWaiting();
}

export async function registerServiceWorker(url = "/sw.js"): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  try {
    // Loaded after the page's own code: registration happens once the page has loaded.
    const { Workbox } = await import("workbox-window");
    const wb = new Workbox(url, { scope: "/" });
    // Fired for a version that installed while another controls the page (never the first install).
    wb.addEventListener("waiting", announce);
    workbox = wb;
    return (await wb.register()) ?? null;
  } catch (e) {
    console.warn("[sw] registration failed:", e instanceof Error ? e.message : String(e));
    return null;
  }
}
