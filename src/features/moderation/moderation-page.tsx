// /moderation: the operators' page (issue 42). Reported, flagged and held images newest first, each with
// its picture, prompt, owner, reports and the image check's scores, and what an operator can do to it;
// below, the extra terms the prompt check refuses. Anyone who is not an operator gets the not-found page,
// exactly as for a path that does not exist (its title too); the app server answers the path with 404.
import { useCallback, useEffect, useState, type ComponentType } from "react";
import type { QueueRow } from "../../api/moderation";
import { useOnline } from "../../lib/use-online";
import { Loading } from "../../ui/loading";
import { PageHeader } from "../../ui/page-header";
import { QueueItem } from "./queue-item";
import { TermList } from "./term-list";
import { useOperator } from "./use-operator";

type Props = {
  notFound: ComponentType;
  documentTitle: (title: string) => string;
  title: string;
};

export default function ModerationPage({ notFound: NotFound, documentTitle, title }: Props) {
  const operator = useOperator();
  useEffect(() => {
    if (operator === "yes") document.title = documentTitle(title);
  }, [operator, documentTitle, title]);
  if (operator === "checking") return <Loading label="Loading…" />;
  if (operator === "no") return <NotFound />;
  return <ModerationBoard title={title} notFound={NotFound} />;
}

type QueueState =
  | { status: "loading"; rows: QueueRow[] }
  | { status: "ready"; rows: QueueRow[] }
  | { status: "error"; rows: QueueRow[]; message: string }
  | { status: "denied"; rows: QueueRow[] };

function useQueue() {
  const [state, setState] = useState<QueueState>({ status: "loading", rows: [] });
  const online = useOnline();
  const load = useCallback(async () => {
    setState((s) => ({ status: "loading", rows: s.rows }));
    const { moderationQueue } = await import("../../api/moderation");
    const result = await moderationQueue();
    if (result.ok) setState({ status: "ready", rows: result.value });
    else if (result.error.kind === "denied") setState({ status: "denied", rows: [] });
    else setState((s) => ({ status: "error", rows: s.rows, message: result.error.error.message }));
  }, []);
  useEffect(() => {
    if (online) void load();
  }, [online, load]);
  return { ...state, reload: load, online };
}

function ModerationBoard({ title, notFound: NotFound }: { title: string; notFound: ComponentType }) {
  const queue = useQueue();
  // The role was taken back since this token was issued: the server refuses, and the page is not there.
  if (queue.status === "denied") return <NotFound />;
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title={title}
        lead="Reported, flagged and held images, newest first. Every action is recorded with who took it, when and why, and the owner reads the reason on their image."
      />
      <section aria-labelledby="queue-heading" className="mb-10">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="queue-heading" className="text-xl font-semibold">
            Queue
          </h2>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={queue.status === "loading" || !queue.online}
            onClick={() => void queue.reload()}
          >
            Refresh
          </button>
        </div>
        <p role="status" className="mb-3 text-sm text-base-content/80">
          {!queue.online
            ? "The queue needs a connection."
            : queue.status === "loading"
              ? "Loading the queue…"
              : queue.status === "ready"
                ? queue.rows.length === 0
                  ? "Nothing to review."
                  : `${queue.rows.length} ${queue.rows.length === 1 ? "image" : "images"} to review`
                : ""}
        </p>
        {queue.status === "error" && (
          <div role="alert" className="alert alert-error alert-soft mb-4 text-base-content">
            <span>{queue.message}</span>
            <button type="button" className="btn btn-sm" onClick={() => void queue.reload()}>
              Try again
            </button>
          </div>
        )}
        <ul aria-label="Images to review" className="flex flex-col gap-4">
          {queue.rows.map((row) => (
            <QueueItem key={row.generation_id} row={row} onDone={() => void queue.reload()} />
          ))}
        </ul>
      </section>
      <TermList />
    </div>
  );
}
