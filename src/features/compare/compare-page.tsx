// /compare?ids=a,b[,c[,d]]: 2 to 4 images side by side or two at a time under a slider, and a table of
// their recipes marking which fields differ (decision 156). Reached from History, Saved and the gallery
// through their "select to compare" mode, and from anywhere else that can name ids (collections, once
// they exist, link here the same way: lib/compare-link.ts). The address holds the ids alone, so it
// reopens the same comparison on another device: the person's own images from their library there,
// published ones from the gallery for anyone.
import { useMemo, useState } from "react";
import { Link, useSearch } from "wouter";
import { COMPARE_MAX, COMPARE_MIN, compareLink, parseCompareIds } from "../../lib/compare-link";
import { useSession } from "../../state/session-store";
import { showToast } from "../../state/toasts";
import { Icon } from "../../ui/icons";
import { PageIcon } from "../../ui/page-icons";
import { PageHeader } from "../../ui/page-header";
import { ComparePicture } from "./compare-picture";
import { CompareSlider } from "./compare-slider";
import { CompareTable } from "./compare-table";
import { diffRecipes } from "./recipe-diff";
import { useCompareItems, type CompareItem, type ReadyItem } from "./use-compare-items";

const LETTERS = ["A", "B", "C", "D"] as const;

type View = "side" | "slider";

async function copyAddress(ids: readonly string[]) {
  try {
    await navigator.clipboard.writeText(`${window.location.origin}${compareLink(ids)}`);
    showToast({ tone: "success", title: "Link copied", message: "It opens this comparison on any device." });
  } catch {
    showToast({ tone: "error", title: "Copy failed", message: "This browser did not allow copying." });
  }
}

function NothingToCompare({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="rounded-box border border-dashed border-base-300 p-10 text-center">
      <p className="font-medium">
        Choose {COMPARE_MIN} to {COMPARE_MAX} images to compare.
      </p>
      <p className="mt-1 text-sm text-base-content/80">
        In History, Saved or the gallery, choose “Select to compare”, pick the images, then Compare.
      </p>
      <div className="mt-3 flex flex-wrap justify-center gap-2">
        {signedIn && (
          <Link to="/history" className="btn btn-sm btn-primary">
            Go to History
          </Link>
        )}
        <Link to="/gallery" className={`btn btn-sm ${signedIn ? "btn-outline" : "btn-primary"}`}>
          Go to the gallery
        </Link>
      </div>
    </div>
  );
}

/** One image of the side-by-side view, with its letter, prompt, where it came from, and a way out. */
function SideFigure({ item, letter, ids }: { item: CompareItem; letter: string; ids: readonly string[] }) {
  const without = ids.filter((id) => id !== item.id);
  return (
    <figure className="flex min-w-0 flex-col gap-2" aria-label={`Image ${letter}`}>
      <div className="relative aspect-square overflow-hidden rounded-box border border-base-300 bg-base-200">
        {item.status === "ready" ? (
          <ComparePicture item={item} className="size-full object-contain" />
        ) : (
          <span className="grid size-full place-items-center p-3 text-center text-sm text-base-content/80">
            {item.status === "loading" ? "Loading…" : item.message}
          </span>
        )}
        <span className="badge badge-neutral absolute top-2 left-2">{letter}</span>
      </div>
      <figcaption className="flex items-start gap-2 text-sm">
        <span className="min-w-0 flex-1">
          <span className="line-clamp-2 break-words">
            {item.status === "ready" ? item.recipe.prompt : "Unavailable"}
          </span>
          {item.status === "ready" && (
            <span className="block text-xs text-base-content/70">
              {item.source === "library" ? "Your library" : "Gallery"}
            </span>
          )}
        </span>
        {ids.length > COMPARE_MIN && (
          <Link
            to={compareLink(without)}
            replace
            className="btn btn-ghost btn-xs btn-square shrink-0"
            aria-label={`Remove ${letter} from the comparison`}
          >
            <Icon name="close" className="size-4" />
          </Link>
        )}
      </figcaption>
    </figure>
  );
}

const SIDE_COLUMNS: Record<number, string> = {
  2: "grid-cols-2",
  3: "grid-cols-2 sm:grid-cols-3",
  4: "grid-cols-2 lg:grid-cols-4",
};

export default function ComparePage() {
  const search = useSearch();
  const ids = useMemo(() => parseCompareIds(search), [search]);
  const session = useSession();
  const userId = session.user?.id;
  const [view, setView] = useState<View>("side");
  // Until the session is known, the person's own images cannot be told from anyone else's.
  const items = useCompareItems(session.status === "checking" ? [] : ids, userId);
  const ready = items.filter((item): item is ReadyItem => item.status === "ready");
  const readyLetters = items.flatMap((item, i) => (item.status === "ready" ? [LETTERS[i]] : []));
  const rows = diffRecipes(ready.map((item) => item.recipe));

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader title="Compare" lead="Side by side or with a slider, and which settings differ." />
      {ids.length < COMPARE_MIN ? (
        <NothingToCompare signedIn={Boolean(userId)} />
      ) : session.status === "checking" ? (
        <p role="status" className="py-10 text-center text-base-content/80">
          Loading the images…
        </p>
      ) : (
        <div className="flex flex-col gap-8">
          <div role="toolbar" aria-label="Comparison" className="flex flex-wrap items-center gap-2">
            <div className="join" role="group" aria-label="View">
              <button
                type="button"
                className={`btn btn-sm join-item ${view === "side" ? "btn-primary" : "btn-outline"}`}
                aria-pressed={view === "side"}
                onClick={() => setView("side")}
              >
                Side by side
              </button>
              <button
                type="button"
                className={`btn btn-sm join-item ${view === "slider" ? "btn-primary" : "btn-outline"}`}
                aria-pressed={view === "slider"}
                onClick={() => setView("slider")}
              >
                Slider
              </button>
            </div>
            <button type="button" className="btn btn-ghost btn-sm ms-auto" onClick={() => void copyAddress(ids)}>
              <PageIcon name="copy" className="size-4" />
              Copy link
            </button>
          </div>
          {view === "side" ? (
            <section aria-label="Side by side" className={`grid gap-3 ${SIDE_COLUMNS[ids.length] ?? "grid-cols-2"}`}>
              {items.map((item, i) => (
                <SideFigure key={item.id} item={item} letter={LETTERS[i]} ids={ids} />
              ))}
            </section>
          ) : ready.length >= COMPARE_MIN ? (
            <CompareSlider items={ready} letters={readyLetters} />
          ) : (
            <p role="status" className="text-sm text-base-content/80">
              The slider needs two images that can be shown.
            </p>
          )}
          {ready.length > 0 && <CompareTable rows={rows} letters={readyLetters} />}
        </div>
      )}
    </div>
  );
}
