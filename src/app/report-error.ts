// Where caught render errors go: a warning in the console (sanitised) and, for a signed-in person,
// an `error` event (spec §7). The events module loads on demand, after the failure.
import type { ErrorInfo } from "react";
import { getSessionView } from "../state/session-store";

export function reportError(error: unknown, info?: ErrorInfo): void {
  const e = error instanceof Error ? error : new Error(String(error));
  console.warn(`[app] caught render error: ${e.name}`);
  const userId = getSessionView().user?.id ?? null;
  if (!userId) return;
  void import("../api/events").then(({ trackEvent }) =>
    trackEvent(userId, "error", {
      type: "render",
      message: e.message,
      stack: e.stack ?? null,
      source: info?.componentStack?.trim().split("\n")[0] ?? null,
    }),
  );
}
