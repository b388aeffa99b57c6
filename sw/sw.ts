/// <reference lib="webworker" />
// The service worker. Its jobs:
//   1. Precache the built app (the manifest vite-plugin-pwa injects) and drop outdated precaches.
//   2. Answer page navigations network-first, keeping each page it served (the prerendered public
//      pages), so a page visited once opens offline as it was; a page never visited falls back to
//      the precached index.html and the app draws it.
//   3. Keep the runtime config (/app-config.js) for offline starts. The style previews are in the
//      precache (1.), so a page shows them offline even if it never showed them online.
//   4. Drain the lanes of stored work (the generation queue, the library outbox, telemetry) on
//      Background Sync when no page is open (sw/sync.ts, src/sync/runner.ts).
//   5. Wait as a new version until the page asks it to take over (workbox-window's SKIP_WAITING).
//   6. Receive images shared with the installed app (the manifest's share target; sw/share-target.ts).
// It never touches backend traffic in its fetch handling: auth, rest, storage, functions and
// realtime are always live (the queue drain calls the backend itself, as the page would). Where the
// browser can route requests before the worker (the static routing API), the backend's requests are
// sent straight to the network: no fetch event is dispatched to the worker for them at all.
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import { receiveShare, SHARE_TARGET_PATH } from "./share-target";
import { listenForBackgroundWork } from "./sync";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

const APP_CONFIG_URL = "/app-config.js";
const CONFIG_CACHE = "promptcanvas-config";
const BACKEND_PATHS = /^\/(auth|rest|storage|functions|realtime|graphql)\/v1(\/|$)|^\/_dev\//;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const PAGES_CACHE = "promptcanvas-pages";
const PAGES_MAX_ENTRIES = 60;
/** A slow network should not hold a page hostage when a copy is at hand. */
const PAGE_NETWORK_TIMEOUT_S = 4;
/** Earlier versions kept style previews here once shown; they are precached now. */
const RETIRED_CACHES = ["promptcanvas-previews"];

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: PAGE_NETWORK_TIMEOUT_S,
  plugins: [new ExpirationPlugin({ maxEntries: PAGES_MAX_ENTRIES })],
});

// App routes have no file extension; anything with one (or a backend path) is not a page.
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        const response = await pages.handle(options);
        if (response) return response;
      } catch {
        // Offline and never visited: the precached shell below draws the page.
      }
      return (await matchPrecache("/index.html")) ?? Response.error();
    },
    { denylist: [BACKEND_PATHS, /\/[^/?]+\.[^/]+$/] },
  ),
);

// An image shared from another app arrives as a POST the worker answers itself (offline too); a form
// posted from another site is turned away unread.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname === SHARE_TARGET_PATH,
  ({ request, event }) =>
    receiveShare(
      request,
      { clientId: (event as FetchEvent).clientId, findClient: (id) => self.clients.get(id) },
      self.location.origin,
    ),
  "POST",
);

// The runtime config differs per deployment, so it is not precached; fresh when online, the last
// copy when not.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname === APP_CONFIG_URL,
  new NetworkFirst({ cacheName: CONFIG_CACHE, networkTimeoutSeconds: 3 }),
);

// The on-device upscale's worker script, models and WASM binaries (src/features/upscale): not precached
// (megabytes few visitors need), kept the first time they are fetched; their URLs are versioned or
// content-hashed, so a kept copy never goes stale, and an upscale done once works offline after.
const UPSCALE_CACHE = "promptcanvas-upscale";
registerRoute(
  ({ url, sameOrigin }) =>
    sameOrigin && (url.pathname.startsWith("/upscale/") || /^\/assets\/upscale-worker-[^/]+\.js$/.test(url.pathname)),
  new CacheFirst({ cacheName: UPSCALE_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 40 })] }),
);

// The page that installed this worker was loaded before it existed: keep a copy of it now, so the
// very first page a person opened also opens offline.
self.addEventListener("activate", (event) => {
  event.waitUntil(Promise.all(RETIRED_CACHES.map((name) => caches.delete(name))).catch(() => undefined));
  event.waitUntil(
    self.clients
      .matchAll({ type: "window", includeUncontrolled: true })
      .then(async (windows) => {
        const cache = await caches.open(PAGES_CACHE);
        await Promise.all(
          windows.map(async (w) => {
            const url = new URL(w.url);
            if (
              url.origin !== self.location.origin ||
              BACKEND_PATHS.test(url.pathname) ||
              (await cache.match(url.href))
            )
              return;
            await cache.add(new Request(url.href, { credentials: "same-origin" }));
          }),
        );
      })
      .catch(() => undefined),
  );
});

/** A rule of the static routing API (InstallEvent.addRoutes; Chromium 123+, absent elsewhere). */
type RouterRule = { condition: { urlPattern?: Record<string, string>; not?: object }; source: "network" };
type RoutingInstallEvent = ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> };

/**
 * Requests this worker never answers go to the network without waking it: every other origin's (the
 * backend's: auth, rest, storage, functions, realtime) and the backend's paths on this origin.
 */
function backendRoutes(origin: URL): RouterRule[] {
  const here = { protocol: origin.protocol.replace(/:$/, ""), hostname: origin.hostname, port: origin.port };
  const prefixes = ["auth", "rest", "storage", "functions", "realtime", "graphql"].map((p) => `/${p}/v1/*`);
  prefixes.push("/_dev/*");
  return [
    { condition: { not: { urlPattern: here } }, source: "network" },
    ...prefixes.map((pathname): RouterRule => ({
      condition: { urlPattern: { ...here, pathname } },
      source: "network",
    })),
  ];
}

self.addEventListener("install", (event: RoutingInstallEvent) => {
  // Where the API is missing or refuses a rule, the fetch handler leaves these requests alone anyway.
  event.addRoutes?.(backendRoutes(new URL(self.location.href))).catch(() => undefined);
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

listenForBackgroundWork();

clientsClaim();
