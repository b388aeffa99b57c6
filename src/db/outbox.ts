// The outbox: writes the server has not confirmed yet, one queue per user, sent in the order they
// were made (`seq`, auto-incremented). Entries are added inside the transaction of the local change
// (src/db/library.ts), removed only once the server confirmed them (src/sync/push.ts), so a
// reload or a crash at any point sends an entry again rather than never: every kind is idempotent.
import { liveQuery } from "dexie";
import type { AppDb } from "./db";
import type { OutboxConflict, OutboxEntry, OutboxOp } from "./schema";

const iso = (now: number) => new Date(now).toISOString();

/** Adds an entry; call it inside the transaction that applies the change locally. */
export async function addOutboxEntry(db: AppDb, userId: string, op: OutboxOp, now: number = Date.now()) {
  const entry: OutboxEntry = {
    id: crypto.randomUUID(),
    userId,
    kind: op.kind,
    payload: op.payload,
    attempts: 0,
    createdAt: iso(now),
    status: "pending",
  };
  await db.outbox.add(entry);
  return entry;
}

/** The user's pending entries, oldest first (the order they must reach the server in). */
export function pendingEntries(db: AppDb, userId: string): Promise<OutboxEntry[]> {
  // Equal index keys come back in primary-key order, so this is `seq` order.
  return db.outbox.where("[userId+status]").equals([userId, "pending"]).toArray();
}

/** The entry the drain must send next, or undefined when the user's queue is empty. */
export function headEntry(db: AppDb, userId: string): Promise<OutboxEntry | undefined> {
  return db.outbox.where("[userId+status]").equals([userId, "pending"]).first();
}

/** The server applied the entry: it is done for good. */
export async function completeEntry(db: AppDb, seq: number): Promise<void> {
  await db.outbox.delete(seq);
}

/** A failure worth another try: counted, and not sent again before `until`. */
export async function deferEntry(db: AppDb, seq: number, until: number): Promise<void> {
  await db.outbox
    .where("seq")
    .equals(seq)
    .modify((e) => {
      e.attempts += 1;
      e.nextAttemptAt = iso(until);
    });
}

/** Waits for something other than time (a sign-in); lifted by releaseWaits. */
export async function parkEntry(db: AppDb, seq: number, reason: string): Promise<void> {
  await db.outbox.update(seq, { parkedReason: reason });
}

/** Lifts the waits of one kind: "auth" when a session came back, "backoff" when the network did. */
export async function releaseWaits(db: AppDb, userId: string, which: "auth" | "backoff"): Promise<number> {
  return db.outbox
    .where("[userId+status]")
    .equals([userId, "pending"])
    .filter((e) => (which === "auth" ? e.parkedReason !== undefined : e.nextAttemptAt !== undefined))
    .modify((e) => {
      if (which === "auth") delete e.parkedReason;
      else delete e.nextAttemptAt;
    });
}

/** The entry cannot be applied: it leaves the queue and stays listed for the person. */
export async function markConflict(
  db: AppDb,
  seq: number,
  conflict: Omit<OutboxConflict, "notified" | "at">,
  now: number = Date.now(),
): Promise<void> {
  await db.outbox.update(seq, { status: "conflict", conflict: { ...conflict, at: iso(now), notified: false } });
}

/** The person has seen a conflict and lets it go. */
export async function dismissConflict(db: AppDb, id: string): Promise<void> {
  await db.outbox
    .where("id")
    .equals(id)
    .and((e) => e.status === "conflict")
    .delete();
}

/**
 * Conflicts nobody has been told about yet, marked told in the same transaction: of several tabs
 * asking at once exactly one gets each conflict, so each is announced once.
 */
export async function claimUnnotifiedConflicts(db: AppDb, userId: string): Promise<OutboxEntry[]> {
  return db.transaction("rw", db.outbox, async () => {
    const fresh = await db.outbox
      .where("[userId+status]")
      .equals([userId, "conflict"])
      .filter((e) => e.conflict?.notified === false)
      .toArray();
    for (const e of fresh) await db.outbox.update(e.seq!, { conflict: { ...e.conflict!, notified: true } });
    return fresh;
  });
}

/**
 * Hears every change of the user's pending entries (count and newest seq), whichever tab or worker
 * wrote it: the drain's "after each write" trigger. Returns the unsubscribe.
 */
export function watchPending(
  db: AppDb,
  userId: string,
  onChange: (pending: { count: number; newestSeq: number | null }) => void,
  onError: (error: unknown) => void = () => undefined,
): () => void {
  const read = async () => {
    const pending = db.outbox.where("[userId+status]").equals([userId, "pending"]);
    const [count, newest] = await Promise.all([pending.count(), pending.clone().last()]);
    return { count, newestSeq: newest?.seq ?? null };
  };
  const subscription = liveQuery(read).subscribe({ next: onChange, error: onError });
  return () => subscription.unsubscribe();
}
