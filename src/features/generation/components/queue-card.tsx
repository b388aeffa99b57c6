// The Generation Queue card (docs/spec.md §2, §4, §9): hidden without tasks; concurrency 1–4 with − and +;
// Clear all; Queued / Running / Done / Failed counters; the first 10 tasks, each with a status dot,
// prompt, badge, style and remove button, a waiting reason or the failure with Retry; then
// '... and N more tasks'.
import { useEffect, useState } from "react";
import { STYLE_BY_ID, isStyleId } from "#shared/vocabulary/styles.ts";
import type { TaskRecord } from "../../../db/schema";
import { Icon } from "../../../ui/icons";
import { ConcurrencyControl } from "./concurrency-control";
import { STATUS_BADGE, STATUS_BADGE_CLASS, STATUS_DOT, countTasks, waitText } from "./task-status";

/** docs/spec.md §9: the queue list shows 10 tasks. */
export const QUEUE_LIST_COUNT = 10;

export type QueueCardProps = {
  tasks: readonly TaskRecord[];
  concurrency: number;
  onConcurrency: (n: number) => void;
  onClear: () => void;
  onRemove: (taskId: string) => void;
  onRetry: (taskId: string) => void;
};

/** The clock, ticking each second only while a task counts down to a retry. */
function useSecondClock(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

const COUNTERS = [
  ["Queued", "queued"],
  ["Running", "running"],
  ["Done", "done"],
  ["Failed", "error"],
] as const;

export function QueueCard({ tasks, concurrency, onConcurrency, onClear, onRemove, onRetry }: QueueCardProps) {
  const now = useSecondClock(tasks.some((t) => t.status === "queued" && t.wait?.reason === "backoff"));
  if (tasks.length === 0) return null;
  const counts = countTasks(tasks);
  const shown = tasks.slice(0, QUEUE_LIST_COUNT);
  const more = tasks.length - shown.length;
  return (
    <section aria-labelledby="queue-title" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="queue-title" className="card-title text-lg">
            Generation Queue
          </h2>
          <div className="flex items-center gap-2">
            <span className="text-sm text-base-content/80">Concurrency</span>
            <ConcurrencyControl
              value={concurrency}
              onChange={onConcurrency}
              names={{ value: "Concurrency", less: "Decrease concurrency", more: "Increase concurrency" }}
            />
            <button type="button" className="btn btn-ghost btn-sm" onClick={onClear}>
              Clear all
            </button>
          </div>
        </div>
        <dl aria-label="Queue counters" className="grid grid-cols-4 gap-2 text-center">
          {COUNTERS.map(([label, key]) => (
            <div key={key} className="flex flex-col rounded-field bg-base-200 px-1 py-2">
              <dt className="text-xs text-base-content/80">{label}</dt>
              <dd className="order-first text-xl font-bold">{counts[key]}</dd>
            </div>
          ))}
        </dl>
        <ul aria-label="Queued tasks" className="flex max-h-80 flex-col gap-2 overflow-y-auto pr-1" tabIndex={0}>
          {shown.map((task) => (
            <TaskRow key={task.id} task={task} now={now} onRemove={onRemove} onRetry={onRetry} />
          ))}
        </ul>
        {more > 0 && (
          <p className="text-center text-sm text-base-content/80">
            ... and {more} more {more === 1 ? "task" : "tasks"}
          </p>
        )}
      </div>
    </section>
  );
}

function TaskRow({
  task,
  now,
  onRemove,
  onRetry,
}: {
  task: TaskRecord;
  now: number;
  onRemove: (id: string) => void;
  onRetry: (id: string) => void;
}) {
  const waiting = waitText(task, now);
  const builtIn = isStyleId(task.style) ? STYLE_BY_ID[task.style].label : task.style;
  // A task made with a custom style (decision 152) says so by its name.
  const style = task.customStyle ? `${task.customStyle.name} (your style)` : builtIn;
  return (
    <li className="flex items-start gap-3 rounded-field border border-base-300 p-2.5">
      <span className={`mt-1.5 size-2.5 shrink-0 rounded-full ${STATUS_DOT[task.status]}`} aria-hidden="true" />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="truncate text-sm font-medium" title={task.prompt}>
          {task.prompt}
        </p>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
          <span className={`badge badge-outline badge-sm text-base-content ${STATUS_BADGE_CLASS[task.status]}`}>
            {STATUS_BADGE[task.status]}
          </span>
          <span className="text-base-content/80">{style}</span>
          {waiting && <span className="text-base-content/80">· {waiting}</span>}
        </div>
        {task.status === "error" && (
          <div className="flex flex-wrap items-center gap-2 text-xs">
            <span className="font-semibold text-base-content">{task.error?.message || "Generation failed"}</span>
            <button type="button" className="btn btn-outline btn-xs" onClick={() => onRetry(task.id)}>
              <Icon name="refresh" className="size-3" />
              Retry
            </button>
          </div>
        )}
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-xs btn-square"
        aria-label={`Remove task: ${task.prompt}`}
        onClick={() => onRemove(task.id)}
      >
        <Icon name="close" className="size-4" />
      </button>
    </li>
  );
}
