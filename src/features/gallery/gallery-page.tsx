// /gallery: everyone's published generations, newest first, a page at a time, with full-text search
// through ?q= (the top bar lands here too). Open to visitors. The page is prerendered without
// results; the rows load in the browser once it has hydrated.
import { useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import type { PublishedRow } from "../../api/gallery";
import { authRedirectPath } from "../../lib/auth-redirect";
import { useHydrated } from "../../lib/use-hydrated";
import { useSession } from "../../state/session-store";
import { Icon } from "../../ui/icons";
import { PageIcon } from "../../ui/page-icons";
import { Menu, type MenuItem } from "../../ui/menu";
import { PageHeader } from "../../ui/page-header";
import { GalleryItemDialog } from "./gallery-item-dialog";
import { ReportDialog } from "./report-dialog";
import { copyLink, galleryImagePath, galleryImageUrl, viewerOf, type Viewer } from "./share";
import { useGallery } from "./use-gallery";
import { usePublishedImage } from "./use-published-image";
import { Spinner } from "../../ui/spinner";
import { useCompareSelection } from "../../lib/use-compare-selection";
import { CompareBar } from "../../ui/compare-bar";

function GallerySearch({ q }: { q: string }) {
  const [, navigate] = useLocation();
  const [text, setText] = useState(q);
  const [last, setLast] = useState(q);
  if (q !== last) {
    // Follow the address when it changes elsewhere (the top bar, the back button).
    setLast(q);
    setText(q);
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = text.trim();
    navigate(next ? `/gallery?q=${encodeURIComponent(next)}` : "/gallery");
  };
  return (
    <form role="search" aria-label="Gallery" onSubmit={submit} className="mb-6 flex gap-2">
      <label className="input w-full">
        <Icon name="search" className="size-4 opacity-70" />
        <span className="sr-only">Search published images</span>
        <input
          type="search"
          name="q"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Search prompts, e.g. lighthouse at dusk"
          autoComplete="off"
          enterKeyHint="search"
        />
      </label>
      <button type="submit" className="btn btn-primary">
        Search
      </button>
    </form>
  );
}

/** A tile's menu: its own page, its link, and reporting it (signing in first for a visitor; not one's own). */
export function tileMenuItems(id: string, viewer: Viewer, onReport: () => void): MenuItem[] {
  const page = galleryImagePath(id);
  const items: MenuItem[] = [
    { kind: "link", label: "Open its page", to: page, icon: <Icon name="image" className="size-4 shrink-0" /> },
    {
      kind: "action",
      label: "Copy link",
      onSelect: () => void copyLink(galleryImageUrl(id)),
      icon: <PageIcon name="copy" className="size-4 shrink-0" />,
    },
  ];
  if (viewer === "other") {
    items.push({
      kind: "action",
      label: "Report",
      onSelect: onReport,
      icon: <Icon name="alert" className="size-4 shrink-0" />,
    });
  } else if (viewer === "visitor") {
    const to = authRedirectPath({ pathname: page });
    items.push({
      kind: "link",
      label: "Sign in to report",
      to,
      icon: <PageIcon name="lock" className="size-4 shrink-0" />,
    });
  }
  return items;
}

type TileProps = {
  row: PublishedRow;
  userId: string | undefined;
  onOpen: () => void;
  onReport: () => void;
  /** Defined while selecting to compare (decision 156). */
  selected?: boolean;
  onToggle?: (id: string) => void;
};

function GalleryTile({ row, userId, onOpen, onReport, selected, onToggle }: TileProps) {
  const { ref, image } = usePublishedImage(row.image_path, "tile");
  return (
    <li ref={ref} className="relative aspect-square rounded-box border border-base-300 bg-base-200">
      <button
        type="button"
        className="block size-full cursor-zoom-in overflow-hidden rounded-box focus-visible:outline-2 focus-visible:outline-offset-[-4px] focus-visible:outline-primary"
        aria-label={`Open: ${row.prompt}`}
        onClick={onOpen}
      >
        {image.status === "ready" ? (
          <img
            src={image.url}
            alt=""
            width={row.width}
            height={row.height}
            decoding="async"
            className="size-full object-cover"
          />
        ) : (
          // A still placeholder, not a spinner: daisyUI's spinner is an animated SVG mask, which the browser
          // repaints on the main thread every frame, and a screenful of them slowed the page's load
          // (docs/decisions/055-nothing-repaints-or-loads-that-is-not-needed.md). The button's name says what the tile is.
          <span className="grid size-full place-items-center text-base-content/50">
            <Icon name={image.status === "error" ? "alert" : "image"} className="size-8" />
          </span>
        )}
      </button>
      {/* The menu spans the tile's width, and its panel (ui/menu.tsx draws it w-64, from the button's right
          edge) takes exactly that width, so a tile in the left column of a phone's grid never opens it off
          the screen. Only the button and the panel take the pointer: the rest of the strip is the tile's. */}
      <div className="pointer-events-none absolute inset-x-1.5 top-1.5 text-right [&_.w-64]:pointer-events-auto [&_.w-64]:left-0 [&_.w-64]:w-auto [&_button]:pointer-events-auto">
        <Menu
          label={`Image options: ${row.prompt}`}
          buttonClassName="btn btn-circle btn-sm border-base-300 bg-base-100/90"
          buttonContent={<Icon name="menu" className="size-4" />}
          items={tileMenuItems(row.id, viewerOf(row.user_id, userId), onReport)}
        />
      </div>
      {selected !== undefined && onToggle && (
        <label className="absolute top-1.5 left-1.5 grid size-8 cursor-pointer place-items-center rounded-field bg-base-100/90 shadow">
          <input
            type="checkbox"
            className="checkbox checkbox-sm checkbox-primary"
            checked={selected}
            onChange={() => onToggle(row.id)}
            aria-label={`Select: ${row.prompt}`}
          />
        </label>
      )}
    </li>
  );
}

/** "1 result", "2 results", "24+ results" (more pages exist): a count of what is shown. */
function countOf(shown: number, next: string | undefined, noun: string): string {
  return `${shown}${next ? "+" : ""} ${noun}${shown === 1 && !next ? "" : "s"}`;
}

/** The tiles' grid, shared by the placeholders and the results so one takes the other's places. */
const GRID = "grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4";

/** Empty tiles shown while the first page loads: more than a phone's first screen holds. */
const PLACEHOLDER_TILES = 8;

/** The large view and the report dialog, one at a time; a reported image leaves the page (`hide`). */
function useItemDialogs(hide: (id: string) => void) {
  const [open, setOpen] = useState<PublishedRow | null>(null);
  const [reporting, setReporting] = useState<PublishedRow | null>(null);
  const dialogs = (
    <>
      {open && (
        <GalleryItemDialog
          row={open}
          onClose={() => setOpen(null)}
          onReport={() => {
            setOpen(null);
            setReporting(open);
          }}
        />
      )}
      {reporting && (
        <ReportDialog
          id={reporting.id}
          prompt={reporting.prompt}
          onClose={() => setReporting(null)}
          onReported={(id) => {
            setReporting(null);
            hide(id);
          }}
        />
      )}
    </>
  );
  return { open: setOpen, report: setReporting, dialogs };
}

export default function GalleryPage() {
  const hydrated = useHydrated();
  const urlQ = new URLSearchParams(useSearch()).get("q")?.trim() ?? "";
  // The prerendered page knows no query; the real one is read once the page has hydrated.
  const q = hydrated ? urlQ : "";
  const gallery = useGallery(q, hydrated);
  const userId = useSession().user?.id;
  const item = useItemDialogs(gallery.hide);
  const compare = useCompareSelection();
  const loadingFirst = gallery.status === "loading" && gallery.rows.length === 0;

  return (
    // At least a screen tall: the footer starts below the fold, so the results arriving (or "Nothing
    // published yet") never push it down in view (a layout shift Lighthouse measured at 0.15).
    <div className="mx-auto min-h-dvh w-full max-w-6xl">
      <PageHeader title="Gallery" lead="Images people chose to publish, newest first. Open one to reuse its recipe." />
      <GallerySearch q={q} />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p role="status" className="text-sm text-base-content/80">
          {loadingFirst
            ? "Loading published images…"
            : gallery.status === "offline"
              ? "The gallery needs a connection: it loads when you are back online."
              : gallery.status === "error"
                ? ""
                : q
                  ? `${countOf(gallery.rows.length, gallery.next, "result")} for “${q}”`
                  : countOf(gallery.rows.length, gallery.next, "published image")}
        </p>
        {gallery.rows.length > 1 && !compare.selecting && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={compare.start}>
            Select to compare
          </button>
        )}
      </div>
      {compare.selecting && <CompareBar ids={compare.ids} onCancel={compare.stop} />}
      {loadingFirst && (
        // The shape of the page to come, in the grid's own layout, so the tiles take these places.
        <ul aria-hidden="true" className={GRID}>
          {Array.from({ length: PLACEHOLDER_TILES }, (_, i) => (
            <li
              key={i}
              data-gallery-placeholder=""
              className="aspect-square rounded-box border border-base-300 bg-base-200"
            />
          ))}
        </ul>
      )}
      {gallery.rows.length > 0 && (
        <ul aria-label="Published images" className={GRID}>
          {gallery.rows.map((row) => (
            <GalleryTile
              key={row.id}
              row={row}
              userId={userId}
              onOpen={() => item.open(row)}
              onReport={() => item.report(row)}
              selected={compare.selecting ? compare.selected.has(row.id) : undefined}
              onToggle={compare.toggle}
            />
          ))}
        </ul>
      )}
      {gallery.status === "ready" && gallery.rows.length === 0 && (
        <div className="rounded-box border border-dashed border-base-300 p-10 text-center">
          <p className="font-medium">{q ? "Nothing published matches that search." : "Nothing published yet."}</p>
        </div>
      )}
      {gallery.status === "error" && (
        <div role="alert" className="alert alert-error alert-soft mt-4 text-base-content">
          <span>{gallery.error}</span>
          <button type="button" className="btn btn-sm" onClick={gallery.retry}>
            Try again
          </button>
        </div>
      )}
      {gallery.next && gallery.status !== "error" && gallery.status !== "offline" && (
        <div className="mt-6 flex justify-center">
          <button
            type="button"
            className="btn btn-outline"
            disabled={gallery.status === "loading" || !gallery.online}
            onClick={gallery.loadMore}
          >
            {gallery.status === "loading" && <Spinner size="xs" />}
            Load more
          </button>
        </div>
      )}
      {item.dialogs}
    </div>
  );
}
