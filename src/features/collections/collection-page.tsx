// /collections/<id>: one collection's images, newest first, read live from this device (so it works
// offline and follows changes from other devices), with a words filter over them. A smart collection
// shows its filter as chips and edits it in a form. Images can be selected to download as one zip,
// taken out of a hand-made collection, added to other collections, or compared; a tile opens the large
// view. The list is read once and again only when it changes; the words filter runs over it in memory.
import { useMemo, useState } from "react";
import { Link, useLocation } from "wouter";
import { removeFromCollection } from "../../db/collections";
import type { CollectionRecord } from "../../db/schema";
import { filterGenerations } from "../../db/search";
import { useToggleSet } from "../../lib/use-toggle-set";
import { useSession } from "../../state/session-store";
import { PageHeader } from "../../ui/page-header";
import { SearchField } from "../../ui/search-field";
import { CollectionForm } from "./collection-form";
import { useCollectionHead, useCollectionImages, type CollectionWithHead } from "./collection-reads";
import type { LibraryParts } from "./library-parts";
import { filterChips } from "./smart-filter";

/** The collection id of a /collections/<id> address. */
function collectionIdFromPath(path: string): string {
  return decodeURIComponent(path.replace(/\/+$/, "").split("/")[2] ?? "");
}

function CollectionNotFound() {
  return (
    <div className="mx-auto w-full max-w-xl py-10 text-center">
      <h1 className="text-2xl font-bold">Collection not found</h1>
      <p className="mt-2 text-base-content/80">
        It may have been deleted, on this device or another, or the link is not one of your collections.
      </p>
      <Link to="/collections" className="btn btn-primary mt-4">
        All collections
      </Link>
    </div>
  );
}

const NOTHING: ReadonlySet<string> = new Set();

function FilterChips({ collection, onEdit }: { collection: CollectionRecord; onEdit: () => void }) {
  if (!collection.filter) return null;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2">
      <ul aria-label="Filter" className="flex flex-wrap gap-2">
        {filterChips(collection.filter).map((chip) => (
          <li key={chip} className="badge badge-soft badge-secondary text-base-content">
            {chip}
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onEdit}>
        Edit filter
      </button>
    </div>
  );
}

function CollectionView({ userId, read, parts }: { userId: string; read: CollectionWithHead; parts: LibraryParts }) {
  const { Grid, SelectionBar, OpenGeneration, FilterFields } = parts;
  const { collection } = read;
  const images = useCollectionImages(userId, read);
  const [words, setWords] = useState("");
  // The words filter runs over the whole list, in memory, in the keystroke's own render (not a deferred one,
  // which React slices over frames: the filter and the rows in view take a few ms); until the whole list is
  // read, a filtered view waits for it.
  const typed = words.trim();
  const items = useMemo(() => {
    if (!typed) return images?.items;
    return images?.complete ? filterGenerations(images.items, userId, { text: typed }) : undefined;
  }, [images, typed, userId]);
  const { chosen, setChosen, toggle } = useToggleSet();
  // Nothing chosen (as while typing in the filter) is always the same empty set, so a keystroke that changes
  // the list does not make a new selection, which would draw every row of the grid again.
  const selected = useMemo(
    () => (chosen.size === 0 ? NOTHING : new Set((items ?? []).filter((r) => chosen.has(r.id)).map((r) => r.id))),
    [items, chosen],
  );
  // The same object until the selection changes, so the grid's memoized rows are not all drawn again.
  const selection = useMemo(() => ({ selected, toggle }), [selected, toggle]);
  const [openId, setOpenId] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const smart = collection.filter !== null;
  const count = (typed ? items?.length : images?.total) ?? items?.length ?? 0;

  return (
    <div className="mx-auto w-full max-w-6xl">
      <Link to="/collections" className="link link-hover text-sm">
        ← All collections
      </Link>
      <PageHeader
        title={collection.name}
        lead={smart ? "A smart collection: every image whose recipe matches its filter." : undefined}
      />
      <FilterChips collection={collection} onEdit={() => setEditing(true)} />
      <div role="search" aria-label="Filter this collection by words">
        <SearchField
          label="Filter by words"
          placeholder="Filter by words of the prompt"
          value={words}
          onChange={setWords}
        />
      </div>
      <div className="mt-4">
        {items === undefined ? (
          <p role="status" className="py-10 text-center text-base-content/80">
            Loading the collection…
          </p>
        ) : (
          <>
            <p role="status" className="mb-3 text-sm text-base-content/80">
              {typed || images?.total !== undefined
                ? `${count === 1 ? "1 image" : `${count.toLocaleString()} images`}${typed ? (count === 1 ? " matches" : " match") : ""}`
                : "Counting the images…"}
            </p>
            {/* While the collection holds images, its bar and grid stay mounted, even when the words match none:
                a keystroke then changes the grid's rows, never builds the grid anew. */}
            {(images?.items.length ?? 0) > 0 ? (
              <>
                {count === 0 && <p className="mb-3 font-medium">No images match.</p>}
                <SelectionBar
                  userId={userId}
                  items={items}
                  selected={selected}
                  onChoose={setChosen}
                  zipName={collection.name}
                  deletable={false}
                >
                  {!smart && (
                    <button
                      type="button"
                      className="btn btn-outline btn-sm"
                      disabled={selected.size === 0}
                      onClick={() =>
                        void removeFromCollection(userId, collection.id, [...selected]).then(() => setChosen(new Set()))
                      }
                    >
                      Remove from collection
                    </button>
                  )}
                </SelectionBar>
                <Grid
                  items={items}
                  total={count}
                  label={`Images in ${collection.name}`}
                  onOpen={setOpenId}
                  selection={selection}
                />
              </>
            ) : (
              <div className="rounded-box border border-dashed border-base-300 p-10 text-center">
                <p className="font-medium">
                  {smart ? "No images match this filter yet." : "No images in this collection yet."}
                </p>
                {!smart && (
                  <p className="mt-1 text-sm text-base-content/80">
                    Open an image in your history and choose Add to collection.
                  </p>
                )}
              </div>
            )}
          </>
        )}
      </div>
      {openId && <OpenGeneration id={openId} userId={userId} onClose={() => setOpenId(null)} />}
      {editing && (
        <CollectionForm
          userId={userId}
          collection={collection}
          smart={smart}
          withFilter
          FilterFields={FilterFields}
          onClose={() => setEditing(false)}
        />
      )}
    </div>
  );
}

export default function CollectionPage({ parts }: { parts: LibraryParts }) {
  const userId = useSession().user?.id;
  const [location] = useLocation();
  const id = collectionIdFromPath(location);
  // null once read and not found (deleted here or elsewhere, or not this person's).
  const read = useCollectionHead(userId, id);
  if (read === undefined || !userId) {
    return (
      <p role="status" className="py-10 text-center text-base-content/80">
        Loading the collection…
      </p>
    );
  }
  if (read === null) return <CollectionNotFound />;
  return <CollectionView key={read.collection.id} userId={userId} read={read} parts={parts} />;
}
