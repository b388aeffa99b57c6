// What the person hears about a finished send (docs/spec.md §4, §8): 'Image generated successfully!', and for
// a failure the catalogue's toast with its action, at once, also when the queue tries again by itself
// (the toast then says when). Retry re-sends the same request id. The daily-limit toast offers
// Upgrade Now and says what upgrading gives (the plans have daily quotas, none is unlimited). A wait
// the person chose (holding for the reset) stays quiet. The same failure within one toast's
// lifetime is said once; a made image this device could not store says 'Failed to save generation
// to history'.
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import type { AppError } from "../../api/errors";
import type { ImageKept, RunOutcome } from "../../sync/run-task";
import { showToast, TOAST_DURATION_MS } from "../../state/toasts";

export const SAVE_FAILED_TITLE = "Failed to save generation to history";
export const SAVE_FAILED_MESSAGE = "The image was made; this device could not store it. It loads again when online.";

let lastSaid: { key: string; at: number } | null = null;

function once(key: string, now: number): boolean {
  if (lastSaid && lastSaid.key === key && now - lastSaid.at < TOAST_DURATION_MS) return false;
  lastSaid = { key, at: now };
  return true;
}

/** "in 8 seconds" for a short wait, "at 14:05" for a longer one. */
export function whenText(until: string, now: number): string {
  const ms = Date.parse(until) - now;
  if (!(ms > 0)) return "now";
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 90) return `in ${seconds} ${seconds === 1 ? "second" : "seconds"}`;
  return `at ${new Date(Date.parse(until)).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

function errorToast(error: AppError, retry: () => void, after = ""): void {
  const action = error.action.to
    ? { label: error.action.label, to: error.action.to }
    : { label: error.action.label, onClick: retry };
  // A daily-limit toast says the docs/spec.md §5 sentence ('Daily limit reached. Upgrade to continue generating
  // images.'), the words the generator's notice uses too.
  const message = error.code === "daily_limit" ? VALIDATION_MESSAGES.dailyLimit : error.message;
  showToast({ tone: "error", title: error.title, message: after ? `${message} ${after}` : message, action });
}

export type AnnounceOptions = { now?: number; quietSuccess?: boolean };

/** An outcome to announce; a done one says whether its image was kept (see RunOutcome's `image`). */
export type Announced =
  | Exclude<RunOutcome, { status: "done" }>
  | (Omit<Extract<RunOutcome, { status: "done" }>, "image"> & { image: ImageKept });

export function announceOutcome(outcome: Announced, retry: (taskId: string) => void, options: AnnounceOptions = {}) {
  const now = options.now ?? Date.now();
  const again = () => retry(outcome.taskId);
  switch (outcome.status) {
    case "done":
      if (outcome.image === "refused")
        showToast({ tone: "error", title: SAVE_FAILED_TITLE, message: SAVE_FAILED_MESSAGE });
      else if (!options.quietSuccess) showToast({ tone: "success", title: "Image generated successfully!" });
      return;
    case "error":
      if (once(`error:${outcome.error.code}`, now)) errorToast(outcome.error, again);
      return;
    case "waiting": {
      const { error, wait } = outcome;
      if (!error || wait.reason === "quota") return; // not sent (offline), or held by the person's choice
      if (wait.reason === "auth") {
        if (once("auth", now)) errorToast(error, again);
      } else if (wait.reason === "offline") {
        if (once(`wait:${error.code}`, now)) errorToast(error, again, "It is sent again once you are back online.");
      } else if (error.code !== "auth_required" && wait.until && once(`wait:${error.code}`, now)) {
        // A lapsed session renewed at once is no failure to speak of; any other retry is.
        errorToast(error, again, `Trying again ${whenText(wait.until, now)}.`);
      }
      return;
    }
    case "skipped":
      return;
  }
}
