// /collections: the person's collections, by name, read live from this device (so it works offline, and
// one made or renamed on another device shows as it arrives). A collection is hand-made (images added to
// it) or smart (a saved filter over the recipe). Made, renamed and deleted here first; the outbox takes
// each change to the other devices.
import { useLiveQuery } from "dexie-react-hooks";
import { useState } from "react";
import { collectionCounts, deleteCollection, listCollections } from "../../db/collections";
import type { CollectionRecord } from "../../db/schema";
import { useSession } from "../../state/session-store";
import { Icon } from "../../ui/icons";
import { ConfirmModal } from "../../ui/modal";
import { PageHeader } from "../../ui/page-header";
import { CollectionCard } from "./collection-card";
import { CollectionForm } from "./collection-form";
import type { LibraryParts } from "./library-parts";

type Editing = { kind: "new"; smart: boolean } | { kind: "rename"; collection: CollectionRecord } | null;

function DeleteCollection(props: { userId: string; collection: CollectionRecord; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const { collection } = props;
  return (
    <ConfirmModal
      title={`Delete “${collection.name}”?`}
      body={
        collection.filter
          ? "The smart collection goes on every device. Its images stay in your library."
          : "The collection goes on every device. Its images stay in your library and in your other collections."
      }
      confirmLabel="Delete collection"
      busy={busy}
      onConfirm={() => {
        setBusy(true);
        void deleteCollection(props.userId, collection.id).finally(props.onClose);
      }}
      onClose={props.onClose}
    />
  );
}

export default function CollectionsPage({ parts }: { parts: Pick<LibraryParts, "FilterFields"> }) {
  const userId = useSession().user?.id;
  const list = useLiveQuery(
    () => (userId ? Promise.all([listCollections(userId), collectionCounts(userId)]) : undefined),
    [userId],
  );
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CollectionRecord | null>(null);
  const [collections, counts] = list ?? [];

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Collections"
        lead="Group your images your way: a collection holds the images you add to it (an image can be in several), a smart collection shows every image whose recipe matches its filter. Both work offline and reach all your devices."
      />
      <div className="mb-6 flex flex-wrap gap-2">
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ kind: "new", smart: false })}>
          <Icon name="folder" className="size-4" />
          New collection
        </button>
        <button type="button" className="btn btn-outline" onClick={() => setEditing({ kind: "new", smart: true })}>
          <Icon name="sliders" className="size-4" />
          New smart collection
        </button>
      </div>
      {!userId || collections === undefined ? (
        <p role="status" className="py-10 text-center text-base-content/80">
          Loading your collections…
        </p>
      ) : collections.length === 0 ? (
        <div className="rounded-box border border-dashed border-base-300 p-10 text-center">
          <p className="font-medium">No collections yet.</p>
          <p className="mt-1 text-sm text-base-content/80">
            Make one here, or open an image and choose Add to collection.
          </p>
        </div>
      ) : (
        <ul aria-label="Your collections" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-4">
          {collections.map((c) => (
            <CollectionCard
              key={c.id}
              userId={userId}
              collection={c}
              count={counts?.get(c.id)}
              onRename={() => setEditing({ kind: "rename", collection: c })}
              onDelete={() => setDeleting(c)}
            />
          ))}
        </ul>
      )}
      {userId && editing && (
        <CollectionForm
          userId={userId}
          smart={editing.kind === "new" && editing.smart}
          collection={editing.kind === "rename" ? editing.collection : undefined}
          withFilter={editing.kind === "new"}
          FilterFields={parts.FilterFields}
          onClose={() => setEditing(null)}
        />
      )}
      {userId && deleting && (
        <DeleteCollection userId={userId} collection={deleting} onClose={() => setDeleting(null)} />
      )}
    </div>
  );
}
