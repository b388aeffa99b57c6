// When a queued task may be sent: the one rule the queue's lane (to choose, and when to look again) and
// the send (to refuse a stale choice) share. Pure.
import type { TaskWait } from "../db/schema";

export function isDue(wait: TaskWait | undefined, now: number, online: boolean): boolean {
  if (!online) return false;
  if (!wait) return true;
  switch (wait.reason) {
    case "offline":
      return true;
    case "auth":
      // Lifted by a fresh session (the runner clears these waits), never by time.
      return false;
    case "quota":
    case "backoff":
      return wait.until === undefined ? wait.reason === "backoff" : Date.parse(wait.until) <= now;
  }
}

/** When a timed wait ends (epoch ms); undefined when the wait has no time (or one that cannot be read). */
export function waitEnd(wait: TaskWait | undefined): number | undefined {
  const at = wait?.until ? Date.parse(wait.until) : NaN;
  return Number.isFinite(at) ? at : undefined;
}
