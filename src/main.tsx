// The only side-effecting entry: sends stray hosts to the production domain, restores the theme
// and sidebar, prepares the session, mounts the app and registers the service worker.
import "./index.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { appConfig } from "./api/config";
import { App } from "./app/app";
import { bootSession } from "./app/session-boot";
import { hostRedirectTarget } from "./lib/host-policy";
import { registerServiceWorker } from "./lib/service-worker";
import { initUi } from "./state/ui-store";

const redirect = hostRedirectTarget(window.location, appConfig().productionHost);

if (redirect) {
  window.location.replace(redirect);
} else {
  initUi({ storage: window.localStorage, matchMedia: window.matchMedia.bind(window), cookie: document.cookie });
  bootSession();
  createRoot(document.getElementById("root")!, {
    // Error boundaries show these; the report goes through reportError, not a console error.
    onCaughtError: () => undefined,
  }).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  if (import.meta.env.PROD) {
    if (document.readyState === "complete") void registerServiceWorker();
    else window.addEventListener("load", () => void registerServiceWorker(), { once: true });
  }
}
