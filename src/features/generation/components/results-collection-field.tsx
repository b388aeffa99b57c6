// "Add new results to" (decision 157): the person's hand-made collection that what they generate goes into,
// chosen per device (remembered in the UI store), "None" by default; hidden while they have no hand-made
// collection. Each queued task keeps the choice; a collection deleted since is no choice (None).
import { useId } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import { useSnapshot } from "valtio";
import { listCollections } from "../../../db/collections";
import type { CollectionRecord } from "../../../db/schema";
import { setResultsCollection, ui } from "../../../state/ui-store";

const NONE: CollectionRecord[] = [];

/** The person's hand-made collections on this device, by name, and the one their new results go into. */
export function useResultsCollection(userId: string | null | undefined): {
  collections: CollectionRecord[];
  /** The chosen collection's id while it is still on this device, else "". */
  chosen: string;
} {
  const collections = useLiveQuery(
    async () => (userId ? (await listCollections(userId)).filter((c) => c.filter === null) : NONE),
    [userId],
    NONE,
  );
  const saved = useSnapshot(ui).resultsCollections;
  const wanted = userId ? saved[userId] : undefined;
  return { collections, chosen: wanted && collections.some((c) => c.id === wanted) ? wanted : "" };
}

export function ResultsCollectionField({ userId }: { userId: string | null | undefined }) {
  const id = useId();
  const { collections, chosen } = useResultsCollection(userId);
  if (!userId || collections.length === 0) return null;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        Add new results to
      </label>
      <select
        id={id}
        className="select w-full max-w-sm"
        value={chosen}
        aria-describedby={`${id}-help`}
        onChange={(e) => setResultsCollection(userId, e.target.value || null)}
      >
        <option value="">None</option>
        {collections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <p id={`${id}-help`} className="text-xs text-base-content/70">
        Each image you generate goes into this collection as it is made, offline too.
      </p>
    </div>
  );
}
