// One image in the moderation queue: the picture (read as the operator through the Storage API), its
// prompt and owner, where it stands, the reports (how many, which reasons, the notes) and the image
// check's scores, with the action form below.
import { useEffect, useState } from "react";
import { REPORT_REASON_LABELS, isReportReason, type ReportReason } from "#shared/vocabulary/moderation.ts";
import type { QueueRow } from "../../api/moderation";
import { formatCreatedAt, styleLabel } from "../../lib/generation-recipe";
import { DefinitionList } from "../../ui/definition-list";
import { ActionForm } from "./action-form";

/** Where the image stands, in a few words. */
export function stateOf(row: Pick<QueueRow, "held_at" | "flagged_at" | "is_public">): string {
  if (row.held_at) return "Held: out of the gallery until reviewed";
  if (row.flagged_at) return "Flagged by the image check: not published";
  if (row.is_public) return "In the gallery";
  return "Not published";
}

/** Each reason the open reports give, with how many gave it, most first. */
export function reasonCounts(
  reports: readonly { reason: string }[],
): { reason: string; label: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const { reason } of reports) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, count]) => ({
      reason,
      label: isReportReason(reason) ? REPORT_REASON_LABELS[reason as ReportReason] : reason,
      count,
    }));
}

/** The image check's scores, highest first, as percentages. */
export function scoreRows(scores: Record<string, number> | null): { label: string; value: string }[] {
  if (!scores || typeof scores !== "object") return [];
  return Object.entries(scores)
    .filter(([, v]) => typeof v === "number" && Number.isFinite(v))
    .sort((a, b) => b[1] - a[1])
    .map(([label, v]) => ({ label, value: `${(v * 100).toFixed(1)}%` }));
}

function QueueImage({ row }: { row: QueueRow }) {
  const [image, setImage] = useState<{ path: string; url: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    void import("../../api/gallery")
      .then((m) => m.loadPublishedImage(row.image_path, 512))
      .then((bytes) => {
        if (!live) return;
        url = bytes.ok ? URL.createObjectURL(bytes.value) : null;
        setImage({ path: row.image_path, url });
      })
      .catch(() => live && setImage({ path: row.image_path, url: null }));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [row.image_path]);
  const shown = image?.path === row.image_path ? image : null;
  return (
    <div className="grid aspect-square w-full shrink-0 place-items-center self-start overflow-hidden rounded-box bg-base-200 sm:w-48">
      {shown?.url ? (
        <img src={shown.url} alt={row.prompt} className="size-full object-contain" />
      ) : (
        <p className="p-3 text-center text-xs text-base-content/80">
          {shown ? "The image cannot be read." : "Loading image…"}
        </p>
      )}
    </div>
  );
}

export function QueueItem({ row, onDone }: { row: QueueRow; onDone: () => void }) {
  const reasons = reasonCounts(row.reports);
  const notes = row.reports.filter((r) => r.note && r.note.trim() !== "");
  const scores = scoreRows(row.moderation_scores);
  const facts = [
    { label: "Owner", value: row.owner_email ?? row.owner_id },
    ...(row.owner_suspended_until
      ? [{ label: "Suspended until", value: formatCreatedAt(row.owner_suspended_until) }]
      : []),
    { label: "Style", value: styleLabel(row.style) },
    { label: "Created", value: formatCreatedAt(row.created_at) },
    { label: "State", value: stateOf(row) },
    { label: "Open reports", value: String(row.report_count) },
  ];
  return (
    <li className="rounded-box border border-base-300 p-4">
      <article aria-label={row.prompt} className="flex flex-col gap-4 sm:flex-row">
        <QueueImage row={row} />
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <p className="font-medium break-words">{row.prompt}</p>
          <DefinitionList rows={facts} />
          {reasons.length > 0 && (
            <div>
              <h3 className="text-sm font-semibold">Reasons</h3>
              <ul className="list-inside list-disc text-sm">
                {reasons.map((r) => (
                  <li key={r.reason}>
                    {r.label} ({r.count})
                  </li>
                ))}
              </ul>
            </div>
          )}
          {notes.length > 0 && (
            <div>
              <h3 className="text-sm font-semibold">Notes</h3>
              <ul className="flex flex-col gap-1 text-sm">
                {notes.map((r) => (
                  <li
                    key={`${r.reporter_id}-${r.created_at}`}
                    className="rounded bg-base-200 px-2 py-1 break-words whitespace-pre-wrap"
                  >
                    {r.note}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {scores.length > 0 && (
            <div>
              <h3 className="text-sm font-semibold">Image check</h3>
              <DefinitionList rows={scores} />
            </div>
          )}
          <ActionForm row={row} onDone={onDone} />
        </div>
      </article>
    </li>
  );
}
