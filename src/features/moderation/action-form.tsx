// What an operator does to one image: restore it, unpublish it, or unpublish it and suspend its owner
// from publishing for a chosen time, each with a reason (the owner reads it on their image as "Removed
// from the gallery: …"). The database records every action with who took it and when.
import { useId, useState, type FormEvent } from "react";
import {
  ACTION_REASON_MAX_CHARS,
  MODERATION_ACTIONS,
  MODERATION_ACTION_LABELS,
  SUSPENSION_DAYS,
  charCount,
  type ModerationAction,
} from "#shared/vocabulary/moderation.ts";
import type { QueueRow } from "../../api/moderation";
import { useOnline } from "../../lib/use-online";
import { showToast } from "../../state/toasts";
import { Spinner } from "../../ui/spinner";

const DAY_MS = 24 * 60 * 60 * 1000;

export function suspensionLabel(days: number): string {
  if (days === 1) return "1 day";
  if (days >= 365) return `${days} days (a year)`;
  return `${days} days`;
}

/** When a suspension of `days` from `now` ends (ISO). */
export function suspensionEnd(days: number, now: Date = new Date()): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

/** What is wrong with the form as it stands, or null when it may be sent. */
export function actionProblem(action: ModerationAction, reason: string): string | null {
  const n = charCount(reason.trim());
  if (action !== "restore" && n === 0) return "Give the reason the owner will read.";
  if (n > ACTION_REASON_MAX_CHARS) return `The reason is ${n} characters; ${ACTION_REASON_MAX_CHARS} at most.`;
  return null;
}

const DONE: Record<ModerationAction, string> = {
  restore: "Restored to the gallery",
  unpublish: "Unpublished",
  suspend: "Unpublished, and the owner suspended from publishing",
};

export function ActionForm({ row, onDone }: { row: QueueRow; onDone: () => void }) {
  const id = useId();
  const online = useOnline();
  const [action, setAction] = useState<ModerationAction>(row.held_at || row.flagged_at ? "restore" : "unpublish");
  const [days, setDays] = useState<number>(SUSPENSION_DAYS[1]);
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const wrong = actionProblem(action, reason);
    setProblem(wrong);
    if (wrong || busy) return;
    setBusy(true);
    const { moderateGeneration } = await import("../../api/moderation");
    const result = await moderateGeneration(
      row.generation_id,
      action,
      reason,
      action === "suspend" ? suspensionEnd(days) : null,
    );
    setBusy(false);
    if (!result.ok) {
      setProblem(
        result.error.kind === "gone" ? "This image is gone (deleted by its owner)." : result.error.error.message,
      );
      return;
    }
    showToast({ tone: "success", title: DONE[action] });
    onDone();
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 border-t border-base-300 pt-3" noValidate>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-2">
        <legend className="mb-1 text-sm font-semibold">Action</legend>
        {MODERATION_ACTIONS.map((a) => (
          <label key={a} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              className="radio radio-sm"
              name={`${id}-action`}
              value={a}
              checked={action === a}
              onChange={() => setAction(a)}
            />
            {MODERATION_ACTION_LABELS[a]}
          </label>
        ))}
      </fieldset>
      {action === "suspend" && (
        <label className="flex max-w-xs flex-col gap-1 text-sm">
          <span className="font-medium">Suspended from publishing for</span>
          <select className="select select-sm" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {SUSPENSION_DAYS.map((d) => (
              <option key={d} value={d}>
                {suspensionLabel(d)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">{action === "restore" ? "Reason (optional)" : "Reason the owner reads"}</span>
        <textarea
          className="textarea textarea-sm w-full"
          rows={2}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
      </label>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-error">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary btn-sm" disabled={!online} aria-disabled={busy || undefined}>
          {busy && <Spinner size="xs" />}
          {MODERATION_ACTION_LABELS[action]}
        </button>
      </div>
    </form>
  );
}
