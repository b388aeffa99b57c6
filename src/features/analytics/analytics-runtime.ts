// Analytics in the page, loaded once it is idle (start-analytics.ts) so the first load carries none
// of it: the web-vitals library's CLS, LCP, INP and FCP plus the browser's first input delay, the
// errors caught so far and from now on, and the moments worth a send (back online, page hidden) or a
// last save (page closing).
import { onCLS, onFCP, onINP, onLCP, type Metric } from "web-vitals";
import { isWebVitalName } from "#shared/vocabulary/web-vitals.ts";
import { getSessionView, subscribeSession } from "../../state/session-store";
import { createAnalytics } from "./analytics";
import type { ErrorCapture } from "./error-payload";
import { onFirstInputDelay } from "./first-input-delay";
import { spillUnsent, takeSpilled } from "./unload-spill";

function localStorageOf(win: Window): Storage | undefined {
  try {
    return win.localStorage;
  } catch {
    return undefined; // blocked by the browser's settings
  }
}

/** Starts measuring; answers where errors go from now on. */
export function startAnalyticsRuntime(win: Window): (capture: ErrorCapture) => void {
  const storage = localStorageOf(win);
  const analytics = createAnalytics({
    session: { get: getSessionView, subscribe: subscribeSession },
    loadTelemetry: () => import("../../sync/telemetry").then((m) => m.telemetry()),
    takeSpilled: storage ? () => takeSpilled(storage) : undefined,
    spill: storage ? (items) => spillUnsent(storage, items) : undefined,
    warn: (message) => console.warn(message),
  });

  const report = (metric: Metric) => {
    if (!isWebVitalName(metric.name)) return;
    analytics.recordVital({ name: metric.name, value: metric.value, metricId: metric.id, delta: metric.delta });
  };
  onCLS(report);
  onLCP(report);
  onINP(report);
  onFCP(report);
  onFirstInputDelay((fid) => analytics.recordVital({ name: "FID", ...fid }));

  win.addEventListener("online", () => analytics.flush());
  // The library reports CLS and INP as the page hides (its listener runs first, on window). Hidden
  // may mean closing (a navigation away fires pagehide first, then this), so what is not stored yet
  // is also kept synchronously; a page that comes back takes it back.
  win.document.addEventListener("visibilitychange", () => {
    if (win.document.visibilityState !== "hidden") return analytics.reclaim();
    analytics.pageHide();
    analytics.flush();
  });
  win.addEventListener("pagehide", () => analytics.pageHide());
  return analytics.captureError;
}
