// What the person hears about a finished send (spec §4, §8): 'Image generated successfully!', the
// catalogue's toast with its action for a failure (Retry re-queues the same request id), the
// daily-limit toast with Upgrade. Waits that resolve by themselves (offline, backoff) stay quiet:
// the queue card shows them. The same failure within one toast's lifetime is said once.
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import type { AppError } from "../../api/errors";
import type { RunOutcome } from "../../sync/run-task";
import { showToast, TOAST_DURATION_MS } from "../../state/toasts";

let lastSaid: { key: string; at: number } | null = null;

function once(key: string, now: number): boolean {
  if (lastSaid && lastSaid.key === key && now - lastSaid.at < TOAST_DURATION_MS) return false;
  lastSaid = { key, at: now };
  return true;
}

function errorToast(error: AppError, retry: () => void): void {
  const action = error.action.to
    ? { label: error.action.label, to: error.action.to }
    : { label: error.action.label, onClick: retry };
  showToast({ tone: "error", title: error.title, message: error.message, action });
}

export function announceOutcome(outcome: RunOutcome, retry: (taskId: string) => void, now: number = Date.now()): void {
  switch (outcome.status) {
    case "done":
      showToast({ tone: "success", title: "Image generated successfully!" });
      return;
    case "error":
      if (once(`error:${outcome.error.code}`, now)) errorToast(outcome.error, () => retry(outcome.taskId));
      return;
    case "waiting": {
      const { error } = outcome;
      if (outcome.wait.reason === "quota" && once("quota", now)) {
        const entry = ERROR_CATALOGUE.daily_limit;
        showToast({
          tone: "warning",
          title: entry.title,
          message: entry.message,
          action: { label: "Upgrade", to: "/pricing" },
        });
      } else if (outcome.wait.reason === "auth" && error && once("auth", now)) {
        errorToast(error, () => retry(outcome.taskId));
      }
      return;
    }
    case "skipped":
      return;
  }
}
