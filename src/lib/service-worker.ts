// Registers the service worker built from sw/sw.ts and exposes the update hand-off: when a new
// version is waiting, listeners hear of it; applyUpdate() tells it to take over and reloads.

type UpdateListener = () => void;
const updateListeners = new Set<UpdateListener>();
let waiting: ServiceWorker | null = null;

function announce(worker: ServiceWorker): void {
  waiting = worker;
  updateListeners.forEach((l) => l());
}

export function onUpdateReady(listener: UpdateListener): () => void {
  updateListeners.add(listener);
  if (waiting) listener();
  return () => updateListeners.delete(listener);
}

export function applyUpdate(): void {
  if (!waiting) return;
  navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
  waiting.postMessage({ type: "SKIP_WAITING" });
}

export async function registerServiceWorker(url = "/sw.js"): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  try {
    const registration = await navigator.serviceWorker.register(url, { scope: "/" });
    if (registration.waiting && navigator.serviceWorker.controller) announce(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const installing = registration.installing;
      installing?.addEventListener("statechange", () => {
        // The first install has no controller to replace; only later versions ask first.
        if (installing.state === "installed" && navigator.serviceWorker.controller) announce(installing);
      });
    });
    return registration;
  } catch (e) {
    console.warn("[sw] registration failed:", e instanceof Error ? e.message : String(e));
    return null;
  }
}
