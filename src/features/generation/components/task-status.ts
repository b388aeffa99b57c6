// How a queued task presents itself (docs/spec.md §4): the status colour, the badge label, and for a task
// that waits, why and until when. Pure, so the wording is tested without rendering.
import type { TaskRecord, TaskStatus } from "../../../db/schema";
import { isGenerating } from "../../../db/tasks";

export const STATUS_BADGE: Record<TaskStatus, string> = {
  queued: "Queued",
  running: "Generating...",
  done: "Complete",
  error: "Failed",
};

/** Dot colours: blue queued, yellow running, green done, red error. */
export const STATUS_DOT: Record<TaskStatus, string> = {
  queued: "bg-info",
  running: "bg-warning",
  done: "bg-success",
  error: "bg-error",
};

/** The badge's border takes the status colour; its text stays the body colour for contrast. */
export const STATUS_BADGE_CLASS: Record<TaskStatus, string> = {
  queued: "border-info",
  running: "border-warning",
  done: "border-success",
  error: "border-error",
};

/** "14:05" in the person's own clock. */
export function clockTime(iso: string, locale?: string): string {
  return new Date(iso).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", hour12: false });
}

/** Why a queued task is not running yet; null when it simply waits for a free slot. */
export function waitText(task: Pick<TaskRecord, "status" | "wait">, nowMs: number): string | null {
  if (task.status !== "queued" || !task.wait) return null;
  const { reason, until } = task.wait;
  switch (reason) {
    case "offline":
      return "Waiting for connection";
    case "auth":
      return "Waiting for sign-in";
    case "quota":
      return until ? `Held until ${clockTime(until)} — daily limit` : "Held — daily limit";
    case "backoff": {
      if (!until) return "Retrying soon";
      const seconds = Math.ceil((Date.parse(until) - nowMs) / 1000);
      return seconds > 0 ? `Retrying in ${seconds}s` : "Retrying now";
    }
  }
}

export type TaskCounts = Record<TaskStatus, number>;

/**
 * The queue's counters. Running counts what is being generated (docs/spec.md §4's running count): a task
 * whose image is drawn while the next one is already sent in its slot is finishing and not counted
 * (decision 123), until its answer makes it done.
 */
export function countTasks(tasks: readonly Pick<TaskRecord, "status" | "drawnAt">[]): TaskCounts {
  const counts: TaskCounts = { queued: 0, running: 0, done: 0, error: 0 };
  for (const t of tasks) if (t.status !== "running" || isGenerating(t)) counts[t.status] += 1;
  return counts;
}
