// Reporting a published image: one of the content policy's reasons and an optional note. Sent at once
// through report_generation; reporting needs a connection (a report is not queued: the person should
// know it reached the operators, and the server hides the image from them as it records it). Once sent,
// the image is gone for the reporter: here at once (onReported), and on every device after that, since
// the server leaves it out of every gallery read of theirs. A second report of the same image changes
// nothing and reads as done.
import { useId, useState, type FormEvent } from "react";
import {
  REPORT_NOTE_MAX_CHARS,
  REPORT_REASONS,
  REPORT_REASON_LABELS,
  charCount,
  type ReportReason,
} from "#shared/vocabulary/moderation.ts";
import { useOnline } from "../../lib/use-online";
import { showToast } from "../../state/toasts";
import { Modal } from "../../ui/modal";
import { Spinner } from "../../ui/spinner";

type Props = {
  id: string;
  prompt: string;
  onClose: () => void;
  /** The report is recorded (or the image was already gone): the caller hides the image. */
  onReported: (id: string) => void;
};

/** What is wrong with the form as it stands, or null when it may be sent. */
export function reportProblem(reason: ReportReason | null, note: string): string | null {
  if (!reason) return "Choose the reason that fits best.";
  const n = charCount(note.trim());
  if (n > REPORT_NOTE_MAX_CHARS) return `The note is ${n} characters; ${REPORT_NOTE_MAX_CHARS} at most.`;
  return null;
}

function ReasonFields(props: { name: string; reason: ReportReason | null; onChange: (r: ReportReason) => void }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-semibold">Why are you reporting it?</legend>
      {REPORT_REASONS.map((r, i) => (
        <label key={r} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            className="radio radio-sm mt-0.5"
            name={props.name}
            value={r}
            checked={props.reason === r}
            onChange={() => props.onChange(r)}
            data-autofocus={i === 0 ? true : undefined}
          />
          {REPORT_REASON_LABELS[r]}
        </label>
      ))}
    </fieldset>
  );
}

export function ReportDialog({ id, prompt, onClose, onReported }: Props) {
  const formId = useId();
  const online = useOnline();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const used = charCount(note.trim());

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const wrong = reportProblem(reason, note);
    setProblem(wrong);
    if (wrong || !reason || busy) return;
    setBusy(true);
    const result = await import("../../api/moderation")
      .then((m) => m.reportGeneration(id, reason, note))
      .catch(() => null);
    setBusy(false);
    if (result?.ok || result?.error.kind === "gone") {
      showToast({
        tone: "success",
        title: result.ok ? "Reported" : "No longer in the gallery",
        message: result.ok
          ? "Thank you. You won't see this image in the gallery again; operators review reports."
          : "This image was taken out of the gallery already.",
      });
      onReported(id);
      return;
    }
    setProblem(result?.error.error.message ?? "The report could not be sent. Check your connection and try again.");
  };

  return (
    <Modal title="Report this image" onClose={onClose} describedBy={`${formId}-about`}>
      <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
        <p id={`${formId}-about`} className="text-sm text-base-content/80 break-words">
          “{prompt}”. Operators read reports; the image disappears from your gallery once you send this.
        </p>
        <ReasonFields name={`${formId}-reason`} reason={reason} onChange={setReason} />
        <div className="flex flex-col gap-1 text-sm">
          <label className="flex flex-col gap-1">
            <span className="font-medium">Note (optional)</span>
            <textarea
              className="textarea w-full"
              rows={3}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              aria-describedby={`${formId}-count`}
            />
          </label>
          <span
            id={`${formId}-count`}
            className={`text-xs ${used > REPORT_NOTE_MAX_CHARS ? "text-error" : "text-base-content/70"}`}
          >
            {used} / {REPORT_NOTE_MAX_CHARS} characters
          </span>
        </div>
        {problem && (
          <p role="alert" className="text-sm text-error">
            {problem}
          </p>
        )}
        {!online && (
          <p role="status" className="text-sm text-base-content/80">
            Reporting needs a connection: send it once you are back online.
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-error" disabled={!online} aria-disabled={busy || undefined}>
            {busy && <Spinner size="xs" />}
            Send report
          </button>
        </div>
      </form>
    </Modal>
  );
}
