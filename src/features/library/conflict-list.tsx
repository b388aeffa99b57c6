// Changes the server could not take (the item is gone there, or the change was refused for good). The
// device already shows the server's truth; this list says what happened until the person dismisses it.
import { useLiveQuery } from "dexie-react-hooks";
import { dismissConflict } from "../../db/library";
import { listConflicts } from "../../db/queries";

const KIND_LABEL: Record<string, string> = {
  "generation.flags": "A save or publish change",
  "generation.delete": "A delete",
  "preferences.update": "A preferences change",
};

export function ConflictList({ userId }: { userId: string }) {
  const conflicts = useLiveQuery(() => listConflicts(userId), [userId]) ?? [];
  if (!conflicts.length) return null;
  return (
    <section aria-label="Changes not applied" className="alert alert-warning alert-soft mb-4 text-base-content">
      <ul className="w-full space-y-2">
        {conflicts.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2">
            <span>
              <strong>{KIND_LABEL[entry.kind] ?? "A change"} was not applied:</strong>{" "}
              {entry.conflict?.message ?? "the server no longer has this item"}
            </span>
            <button type="button" className="btn btn-xs" onClick={() => void dismissConflict(entry.id)}>
              Dismiss
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
