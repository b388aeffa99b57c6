// One collection in the list: its newest image as a preview, its name (the link to it), how many images it
// holds or "Smart", and Rename and Delete.
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect } from "react";
import { Link } from "wouter";
import type { CollectionRecord } from "../../db/schema";
import { readTileImagesAhead, useTileImage } from "../../sync/use-tile-image";
import { firstScreenIds, readCardList, releaseCardList } from "./collection-reads";
import { Icon } from "../../ui/icons";

type Props = {
  userId: string;
  collection: CollectionRecord;
  /** Hand-made: how many images it holds. */
  count: number | undefined;
  onRename: () => void;
  onDelete: () => void;
};

function Preview({ record }: { record: { id: string; imagePath: string } }) {
  const image = useTileImage(record);
  return image.src ? (
    <span className="absolute inset-0 bg-cover bg-center" style={{ backgroundImage: `url("${image.src}")` }} />
  ) : null;
}

export function CollectionCard({ userId, collection, count, onRename, onDelete }: Props) {
  // Its newest image (a smart collection's first match), read live so the preview follows what it holds.
  // The whole list read for it is held for the collection's page, which its link opens.
  const list = useLiveQuery(() => readCardList(userId, collection), [userId, collection]);
  useEffect(() => () => releaseCardList(collection.id), [collection.id]);
  const newest = list?.[0];
  const smart = collection.filter !== null;
  const size = smart ? "Smart" : count === 1 ? "1 image" : `${(count ?? 0).toLocaleString()} images`;
  return (
    <li className="card overflow-hidden border border-base-300 bg-base-100">
      <Link
        to={`/collections/${collection.id}`}
        onClick={() => list && readTileImagesAhead(firstScreenIds(list))}
        className="group block focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
      >
        <span className="relative grid aspect-[4/3] place-items-center bg-base-200 text-base-content/50">
          <Icon name={smart ? "sliders" : "folder"} className="size-10" />
          {newest && <Preview record={newest} />}
        </span>
        <span className="block px-4 pt-3 font-semibold break-words group-hover:underline">{collection.name}</span>
      </Link>
      <div className="flex flex-wrap items-center gap-1 px-4 pt-1 pb-3">
        <span
          className={
            smart
              ? "badge badge-soft badge-secondary text-base-content"
              : "text-sm whitespace-nowrap text-base-content/80"
          }
        >
          {size}
        </span>
        <span className="ms-auto flex gap-1">
          {(
            [
              ["Rename", onRename],
              ["Delete", onDelete],
            ] as const
          ).map(([action, onClick]) => (
            <button
              key={action}
              type="button"
              className="btn btn-ghost btn-xs"
              aria-label={`${action} ${collection.name}`}
              onClick={onClick}
            >
              {action}
            </button>
          ))}
        </span>
      </div>
    </li>
  );
}
