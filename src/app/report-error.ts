// Where caught render errors go: a warning in the console (its name only: the message can carry
// data) and the analytics path every other error takes (docs/spec.md §8: a caught render error is reported
// to analytics; recorded only for a signed-in person).
import type { ErrorInfo } from "react";
import { reportRenderError } from "../features/analytics/start-analytics";

export function reportError(error: unknown, info?: ErrorInfo): void {
  const name = error instanceof Error ? error.name : typeof error;
  console.warn(`[app] caught render error: ${name}`);
  reportRenderError(error, info?.componentStack);
}
