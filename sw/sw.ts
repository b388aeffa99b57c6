/// <reference lib="webworker" />
// The service worker: precaches the built app (the manifest vite-plugin-pwa injects), answers app
// navigations with index.html so every route opens offline after one visit, keeps the runtime
// config for offline starts, and never touches backend traffic (auth, rest, storage, functions,
// realtime are always live). A new version waits until the page asks it to take over.
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkFirst } from "workbox-strategies";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

const APP_CONFIG_URL = "/app-config.js";
const CONFIG_CACHE = "promptcanvas-config";
const BACKEND_PATHS = /^\/(auth|rest|storage|functions|realtime|graphql)\/v1(\/|$)|^\/_dev\//;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// App routes have no file extension; anything with one (or a backend path) is not a page.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL("/index.html"), {
    denylist: [BACKEND_PATHS, /\/[^/?]+\.[^/]+$/],
  }),
);

// The runtime config differs per deployment, so it is not precached; fresh when online, the last
// copy when not.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname === APP_CONFIG_URL,
  new NetworkFirst({ cacheName: CONFIG_CACHE, networkTimeoutSeconds: 3 }),
);

self.addEventListener("install", (event) => {
  // The first visit's page loaded the config before this worker existed: fetch a copy now.
  event.waitUntil(
    caches
      .open(CONFIG_CACHE)
      .then((cache) => cache.add(APP_CONFIG_URL))
      .catch(() => undefined),
  );
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") void self.skipWaiting();
});

clientsClaim();
