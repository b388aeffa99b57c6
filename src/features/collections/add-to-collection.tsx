// "Add to collection" for one image (the large view) or a selection (History, Saved, a collection): the
// person's hand-made collections, each ticked when it holds every image chosen (an image may be in
// several); a tick adds them, clearing it takes them out; "New collection…" makes one and adds them to it.
// Everything is written on this device first and reaches the others through the outbox.
import { useLiveQuery } from "dexie-react-hooks";
import { useState, type FormEvent } from "react";
import {
  addToCollection,
  collectionsHolding,
  listCollections,
  removeFromCollection,
  saveCollection,
} from "../../db/collections";
import { useSession } from "../../state/session-store";
import { Icon } from "../../ui/icons";
import { Modal } from "../../ui/modal";
import { CollectionNameField } from "./collection-name-field";

type Props = { generationIds: readonly string[] };

/** The ids of the collections holding every one of `ids`. */
async function holdingAll(userId: string, ids: readonly string[]): Promise<Set<string>> {
  const lists = await Promise.all(ids.map((id) => collectionsHolding(userId, id)));
  const [first = [], ...rest] = lists;
  return new Set(first.filter((c) => rest.every((l) => l.includes(c))));
}

function NewCollection({
  userId,
  ids,
  onError,
}: {
  userId: string;
  ids: readonly string[];
  onError: (m: string) => void;
}) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const saved = await saveCollection(userId, { name, filter: null });
    const added = saved.ok ? await addToCollection(userId, saved.collection.id, [...ids]) : saved;
    setBusy(false);
    if (!added.ok) onError(added.message);
    else setName("");
  };
  return (
    <form className="mt-4 flex items-end gap-2" onSubmit={(e) => void create(e)}>
      <div className="grow">
        <CollectionNameField label="New collection…" value={name} onChange={setName} />
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>
        Create and add
      </button>
    </form>
  );
}

function CollectionPicker({ userId, ids }: { userId: string; ids: readonly string[] }) {
  const [error, setError] = useState<string | null>(null);
  const key = ids.join(",");
  const state = useLiveQuery(
    () =>
      Promise.all([listCollections(userId), holdingAll(userId, ids)]).then(([all, holding]) => ({
        handMade: all.filter((c) => c.filter === null),
        holding,
      })),
    // The ids' contents, not the array's identity (a new array each render).
    [userId, key],
  );
  // A tick shows at once, before the write and the live read behind it are done; a refused add takes it back.
  const [ticked, setTicked] = useState<ReadonlyMap<string, boolean>>(new Map());
  const toggle = async (collectionId: string, add: boolean) => {
    setError(null);
    setTicked((prev) => new Map(prev).set(collectionId, add));
    if (!add) return void (await removeFromCollection(userId, collectionId, [...ids]));
    const result = await addToCollection(userId, collectionId, [...ids]);
    if (result.ok) return;
    setError(result.message);
    setTicked((prev) => new Map(prev).set(collectionId, false));
  };
  return (
    <>
      {error && (
        <div role="alert" className="alert alert-error alert-soft mb-3 text-base-content">
          {error}
        </div>
      )}
      {state === undefined ? (
        <p role="status">Loading your collections…</p>
      ) : state.handMade.length === 0 ? (
        <p className="text-base-content/80">You have no collections yet: name one below.</p>
      ) : (
        <fieldset>
          <legend className="sr-only">Your collections</legend>
          <ul className="flex max-h-72 flex-col gap-1 overflow-y-auto">
            {state.handMade.map((c) => (
              <li key={c.id}>
                <label className="flex cursor-pointer items-center gap-3 rounded-field px-2 py-1.5 hover:bg-base-200">
                  <input
                    type="checkbox"
                    className="checkbox checkbox-primary checkbox-sm"
                    checked={ticked.get(c.id) ?? state.holding.has(c.id)}
                    onChange={(e) => void toggle(c.id, e.target.checked)}
                  />
                  <span className="break-all">{c.name}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <NewCollection userId={userId} ids={ids} onError={setError} />
    </>
  );
}

export function AddToCollection({ generationIds }: Props) {
  const userId = useSession().user?.id;
  const [open, setOpen] = useState(false);
  if (!userId) return null;
  const count = generationIds.length;
  return (
    <>
      <button type="button" className="btn btn-outline btn-sm" disabled={count === 0} onClick={() => setOpen(true)}>
        <Icon name="folder" className="size-4" />
        Add to collection
      </button>
      {open && (
        <Modal
          title={count === 1 ? "Add to collection" : `Add ${count} images to collections`}
          onClose={() => setOpen(false)}
        >
          <CollectionPicker userId={userId} ids={generationIds} />
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
