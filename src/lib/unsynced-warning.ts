// The warning shown before a chosen sign-out would throw away work that exists only on this device
// (docs/decisions/018-signing-out-clears-the-device.md: signing out by choice removes queued requests and
// unsent changes with the cache).

export type UnsyncedCounts = { outbox: number; tasks: number };

export function hasUnsyncedWork(w: UnsyncedCounts): boolean {
  return w.outbox + w.tasks > 0;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2 changes not yet sent and 1 queued generation are only on this device. …" */
export function unsyncedWarning(w: UnsyncedCounts): string {
  const parts = [];
  if (w.outbox > 0) parts.push(plural(w.outbox, "change not yet sent", "changes not yet sent"));
  if (w.tasks > 0) parts.push(plural(w.tasks, "queued generation", "queued generations"));
  const total = w.outbox + w.tasks;
  return `${parts.join(" and ")} ${total === 1 ? "is" : "are"} only on this device. Signing out now removes ${total === 1 ? "it" : "them"} for good. Stay signed in and go online to send ${total === 1 ? "it" : "them"} first.`;
}
