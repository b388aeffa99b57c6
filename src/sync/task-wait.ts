// When a queued task may be sent: the one rule the scheduler (to choose) and the send (to refuse a
// stale choice) share. Pure, so the machines stay pure.
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

/** The soonest moment a timed wait ends, in ms since the epoch; null when none is timed. */
export function nextWakeAt(waits: (TaskWait | undefined)[], now: number): number | null {
  let soonest: number | null = null;
  for (const wait of waits) {
    if (!wait?.until || (wait.reason !== "quota" && wait.reason !== "backoff")) continue;
    const at = Date.parse(wait.until);
    if (at > now && (soonest === null || at < soonest)) soonest = at;
  }
  return soonest;
}
