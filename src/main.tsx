// The only side-effecting entry: sends stray hosts to the production domain, restores the theme
// and sidebar, prepares the session, starts listening for the browser's install offer and for errors
// (analytics; the rest of it loads once the page is idle), loads the current page's code, mounts the
// app (hydrating the page's prerendered markup, or drawing it afresh) and registers the service worker
// once the page has settled (lib/page-settled.ts).
import "./index.css";
import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { appConfig } from "./api/config";
import { App } from "./app/app";
import { preloadRoute } from "./app/routes";
import { bootSession } from "./app/session-boot";
import { startAnalytics } from "./features/analytics/start-analytics";
import { listenForInstallPrompt } from "./features/pwa/install-prompt";
import { hostRedirectTarget } from "./lib/host-policy";
import { markLive, whenSettled } from "./lib/page-settled";
import { registerServiceWorker } from "./lib/service-worker";
import { keepTypedBeforeLive, stopKeepingTyped } from "./lib/typed-before-live";
import { setSessionView } from "./state/session-store";
import { initUi } from "./state/ui-store";

const redirect = hostRedirectTarget(window.location, appConfig().productionHost);

let browserStateStarted = false;

/** Theme, sidebar and session from this browser's storage (once). */
function startBrowserState(): void {
  if (browserStateStarted) return;
  browserStateStarted = true;
  initUi({ storage: window.localStorage, matchMedia: window.matchMedia.bind(window), cookie: document.cookie });
  bootSession();
}

if (redirect) {
  window.location.replace(redirect);
} else {
  const root = document.getElementById("root")!;
  const path = window.location.pathname.replace(/\/+$/, "") || "/";
  // Hydrate markup prerendered for exactly this address; anything else (the SPA or offline fallback,
  // an address with a query the prerenderer never saw) is drawn afresh over it.
  const hydrate = document.documentElement.getAttribute("data-prerendered") === path && !window.location.search;
  if (hydrate) {
    // The first render must match the prerendered HTML (a signed-out visitor, default theme and
    // sidebar); the real state from storage starts once hydration has committed.
    setSessionView({ status: "signed-out", user: null, verified: false });
  } else {
    startBrowserState();
  }
  // What is typed into the prerendered page before it is live survives a redraw (lib/typed-before-live.ts).
  keepTypedBeforeLive(document);
  listenForInstallPrompt(window);
  startAnalytics(window);
  const options = {
    // Error boundaries show these; the report goes through reportError, not a console error.
    onCaughtError: () => undefined,
    // A prerendered page that does not match is drawn again by React; say so without failing.
    onRecoverableError: (error: unknown) =>
      console.warn(
        "[hydrate] the prerendered page was redrawn:",
        error instanceof Error ? error.message : String(error),
      ),
  };
  // After the first commit: the page is live, and a hydrated page starts its browser state now.
  const onReady = () => {
    if (hydrate) startBrowserState();
    stopKeepingTyped();
    markLive();
  };
  // With the page's code already here, the first render draws the page itself rather than a
  // "Loading…" fallback over the prerendered one. A failed load is left to the error boundary.
  void preloadRoute(path)
    .catch(() => undefined)
    .then(() => {
      const app = (
        <StrictMode>
          <App onReady={onReady} />
        </StrictMode>
      );
      // In a transition React hydrates in small slices, so the page stays responsive while it
      // becomes live (the prerendered markup is already on screen).
      if (hydrate) startTransition(() => void hydrateRoot(root, app, options));
      else createRoot(root, options).render(app);
    });
  // The service worker's install downloads the whole precache: it waits until the page has what the
  // visitor came to see (loaded, live, the gallery's pictures in view) and the browser is idle.
  if (import.meta.env.PROD) void whenSettled().then(() => registerServiceWorker());
}
