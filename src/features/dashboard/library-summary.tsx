// The person's library at a glance: totals (made, saved, published) and the newest images, read
// live from this device.
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { signedImageUrl } from "../../api/library";
import { generationCounts, recentGenerations, type GenerationWithImage } from "../../db/queries";
import { Icon } from "../../ui/icons";

export const RECENT_COUNT = 6;

/**
 * The cached thumbnail (a data: URL), else the cached image as an object URL, else a signed URL (which
 * caches the bytes for next time).
 */
function useThumbnail(record: GenerationWithImage): string | undefined {
  const { thumbnail } = record;
  const blob = record.image;
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    if (thumbnail) {
      setSrc(thumbnail);
      return;
    }
    if (blob) {
      const url = URL.createObjectURL(blob);
      setSrc(url);
      return () => URL.revokeObjectURL(url);
    }
    void signedImageUrl(record.imagePath, record.id).then((r) => {
      if (live && r.ok) setSrc(r.value);
    });
    return () => {
      live = false;
    };
  }, [thumbnail, blob, record.imagePath, record.id]);
  return src;
}

function RecentTile({ record }: { record: GenerationWithImage }) {
  const src = useThumbnail(record);
  return (
    <li className="aspect-square overflow-hidden rounded-box border border-base-300 bg-base-200">
      {src ? (
        <img
          src={src}
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
  const recent = useLiveQuery(() => recentGenerations(userId, RECENT_COUNT), [userId]);
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
