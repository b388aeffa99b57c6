// /gallery/<id>: one published image on a page of its own, for anyone, signed out too: the picture large,
// its prompt, style and every setting, "Make one like this" (the generator filled with its recipe, as
// the large view's "Use this recipe"), its link to copy or share, and reporting. The row is read as the
// current role, so the same rules as the gallery's decide: an image unpublished, deleted, held after
// reports, removed by an operator, or reported by this person is not found, and the page is the app's
// not-found page. The app server answers the address with that page and status 404 too, and writes
// the link-preview tags of an image that is there (scripts/gallery-page.mjs).
import { useCallback, useEffect, useState, type ComponentType } from "react";
import { Link, useLocation } from "wouter";
import type { PublishedRow } from "../../api/gallery";
import { useOnline } from "../../lib/use-online";
import { PageIcon } from "../../ui/page-icons";
import { Loading } from "../../ui/loading";
import { PublishedImageDetails, PublishedImageFrame } from "./published-image-frame";
import { ReportDialog } from "./report-dialog";

type Props = { notFound: ComponentType; documentTitle: (title: string) => string; title: string };

type RowState =
  | { id: string; status: "loading" }
  | { id: string; status: "found"; row: PublishedRow }
  | { id: string; status: "missing" }
  | { id: string; status: "error"; message: string };

/** The id in /gallery/<id> (the last segment, decoded), or "" when there is none. */
export function idFromPath(path: string): string {
  const last = path.replace(/\/+$/, "").split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return "";
  }
}

/** A title short enough for a browser tab. */
export function shortTitle(prompt: string, max = 60): string {
  const flat = prompt.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function usePublishedRow(id: string) {
  const online = useOnline();
  const [state, setState] = useState<RowState>({ id, status: "loading" });
  const load = useCallback(async () => {
    setState({ id, status: "loading" });
    const result = await import("../../api/gallery").then((m) => m.getPublished(id)).catch(() => null);
    if (!result) setState({ id, status: "error", message: "The image could not be loaded. Check your connection." });
    else if (!result.ok) setState({ id, status: "error", message: result.error.message });
    else setState(result.value ? { id, status: "found", row: result.value } : { id, status: "missing" });
  }, [id]);
  useEffect(() => {
    if (online) void load();
  }, [online, load]);
  const current: RowState = state.id === id ? state : { id, status: "loading" };
  return { state: current, online, retry: load };
}

export default function GalleryImagePage({ notFound: NotFound, documentTitle }: Props) {
  const [location, navigate] = useLocation();
  const id = idFromPath(location);
  const { state, online, retry } = usePublishedRow(id);
  const prompt = state.status === "found" ? state.row.prompt : null;
  useEffect(() => {
    if (prompt) document.title = documentTitle(shortTitle(prompt));
  }, [prompt, documentTitle]);

  if (state.status === "missing") return <NotFound />;
  if (state.status === "found") return <PublishedImageView row={state.row} onGone={() => navigate("/gallery")} />;
  if (!online && state.status === "loading") {
    return (
      <p role="status" className="mx-auto max-w-xl py-10 text-center text-base-content/80">
        This image needs a connection: it loads when you are back online.
      </p>
    );
  }
  if (state.status === "error") {
    return (
      <div role="alert" className="alert alert-error alert-soft mx-auto max-w-xl text-base-content">
        <span>{state.message}</span>
        <button type="button" className="btn btn-sm" onClick={() => void retry()}>
          Try again
        </button>
      </div>
    );
  }
  return <Loading label="Loading…" />;
}

function PublishedImageView({ row, onGone }: { row: PublishedRow; onGone: () => void }) {
  const [reporting, setReporting] = useState(false);
  return (
    <article className="mx-auto w-full max-w-6xl">
      <Link to="/gallery" className="btn btn-ghost btn-sm mb-4">
        <PageIcon name="arrowLeft" className="size-4" />
        Gallery
      </Link>
      <h1 className="mb-6 text-2xl font-bold break-words sm:text-3xl">{row.prompt}</h1>
      <div className="grid gap-6 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PublishedImageFrame row={row} minHeight="min-h-64" maxHeight="max-h-[75vh]" />
        <PublishedImageDetails
          row={row}
          recipeLabel="Make one like this"
          recipeClassName="btn btn-primary"
          onReport={() => setReporting(true)}
        />
      </div>
      {reporting && (
        <ReportDialog id={row.id} prompt={row.prompt} onClose={() => setReporting(false)} onReported={onGone} />
      )}
    </article>
  );
}
