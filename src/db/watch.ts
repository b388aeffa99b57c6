// Live subscriptions for processes (the queue runner), outside React: Dexie's liveQuery re-runs the
// read whenever a write in any tab (or the service worker) touches what it read.
import { liveQuery } from "dexie";
import type { AppDb } from "./db";
import { queuedTasks } from "./queries";
import type { TaskRecord } from "./schema";

export function watchQueuedTasks(
  db: AppDb,
  userId: string,
  onChange: (tasks: TaskRecord[]) => void,
  onError: (error: unknown) => void = () => undefined,
): () => void {
  const subscription = liveQuery(() => queuedTasks(userId, db)).subscribe({ next: onChange, error: onError });
  return () => subscription.unsubscribe();
}
