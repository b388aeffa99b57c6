// The person's library at a glance: totals (made, saved, published) and the newest images, read
// live from this device.
import { useLiveQuery } from "dexie-react-hooks";
import { Link } from "wouter";
import { generationCounts, newestGenerations } from "../../db/queries";
import type { GenerationRecord } from "../../db/schema";
import { useTileImage } from "../../sync/use-tile-image";
import { Icon } from "../../ui/icons";

export const RECENT_COUNT = 6;

function RecentTile({ record }: { record: GenerationRecord }) {
  // The kept thumbnail, else (online) the stored image, whose thumbnail is then kept: use-tile-image.ts.
  const src = useTileImage(record).src;
  return (
    <li className="aspect-square overflow-hidden rounded-box border border-base-300 bg-base-200">
      {src ? (
        <img
          src={src}
          crossOrigin="anonymous"
          alt={record.prompt}
          width={record.width}
          height={record.height}
          className="size-full object-cover"
        />
      ) : (
        <span className="grid size-full place-items-center text-base-content/50">
          <Icon name="image" className="size-6" />
          <span className="sr-only">{record.prompt}</span>
        </span>
      )}
    </li>
  );
}

export function LibrarySummary({ userId }: { userId: string }) {
  const counts = useLiveQuery(() => generationCounts(userId), [userId]);
  const recent = useLiveQuery(() => newestGenerations(userId, RECENT_COUNT), [userId]);
  const totals = [
    { label: "Made", value: counts?.total },
    { label: "Saved", value: counts?.saved },
    { label: "Published", value: counts?.published },
  ];
  return (
    <section aria-labelledby="library-title" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 id="library-title" className="card-title text-lg">
          Your library
        </h2>
        <dl className="grid grid-cols-3 gap-3">
          {totals.map((t) => (
            <div key={t.label} className="rounded-box bg-base-200 p-3">
              <dt className="text-sm text-base-content/80">{t.label}</dt>
              <dd className="text-2xl font-bold tabular-nums">{t.value?.toLocaleString() ?? "–"}</dd>
            </div>
          ))}
        </dl>
        <div className="flex items-center justify-between gap-2">
          <h3 className="font-semibold">Recent</h3>
          <Link to="/history" className="link text-sm">
            See all in History
          </Link>
        </div>
        {recent && recent.length > 0 ? (
          <ul aria-label="Recent generations" className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {recent.map((r) => (
              <RecentTile key={r.id} record={r} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-base-content/80">
            {recent ? "Nothing generated yet." : "Loading…"}{" "}
            {recent && (
              <Link to="/generate" className="link">
                Generate an image
              </Link>
            )}
          </p>
        )}
      </div>
    </section>
  );
}
