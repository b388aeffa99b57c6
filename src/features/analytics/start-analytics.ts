// The part of analytics in the first page load, kept tiny (the home page's script budget is tight):
// it catches uncaught errors and unhandled rejections from the start and keeps them in memory, then
// loads the rest (analytics-runtime.ts, with web-vitals) once the page has loaded and is idle, and
// only for a session: a signed-out visitor records nothing (docs/spec.md §5), so never downloads it.
import { afterLoad, whenIdle } from "../../lib/page-settled";
import { getSessionView, subscribeSession } from "../../state/session-store";
import type { ErrorCapture } from "./error-payload";

/** Errors caught before the runtime is here; more than this in that moment are not worth keeping. */
const EARLY_MAX = 20;

let forward: ((capture: ErrorCapture) => void) | null = null;
const early: ErrorCapture[] = [];

function capture(entry: ErrorCapture): void {
  if (forward) forward(entry);
  else if (early.length < EARLY_MAX) early.push(entry);
}

/** A render error an error boundary caught (the app's fallback is showing); same path as the rest. */
export function reportRenderError(error: unknown, componentStack?: string | null): void {
  const firstFrame = componentStack?.trim().split("\n")[0]?.trim() || null;
  capture({ type: "render", error, source: firstFrame });
}

export function startAnalytics(win: Window): void {
  win.addEventListener("error", (e) =>
    capture({
      type: "error",
      error: e.error,
      message: e.message,
      source: e.filename,
      lineno: e.lineno,
      colno: e.colno,
    }),
  );
  win.addEventListener("unhandledrejection", (e) => capture({ type: "unhandledrejection", error: e.reason }));

  let idle = false;
  let requested = false;
  const load = () => {
    // "checking" counts: an auth link just opened, and who it is will be known shortly.
    if (requested || !idle || getSessionView().status === "signed-out") return;
    requested = true;
    unsubscribe();
    void import("./analytics-runtime")
      .then(({ startAnalyticsRuntime }) => {
        forward = startAnalyticsRuntime(win);
        early.splice(0).forEach(forward);
      })
      .catch(() => undefined); // offline with a stale deploy: analytics is not worth an error screen
  };
  const unsubscribe = subscribeSession(load);
  void afterLoad(win)
    .then(() => whenIdle(win))
    .then(() => {
      idle = true;
      load();
    });
}
