// Rows the person writes whole (custom styles, collections and their items): what the outbox still has
// to save or delete of them, and server rows laid under that, so a pending write never flickers back.
// Each kind says how its entries read (`changesOf`) and how its records are keyed; the folding and the
// laying are the same for all of them.
import type { AppDb } from "./db";
import { pendingEntries } from "./outbox";
import type { OutboxOp } from "./schema";

/** What one pending entry asks of rows of one kind: a row saved (its newest value) or deleted, by id. */
export type PendingChange<T> = { save: string; value: T } | { delete: string };

/** The rows of one kind the outbox has yet to save (newest values) or delete, by id. */
export type PendingRows<T> = { saved: Map<string, T>; deleted: Set<string> };

/** Folds the person's pending entries, oldest first, into the rows still being saved or deleted. */
export async function pendingRows<T>(
  db: AppDb,
  userId: string,
  changesOf: (op: OutboxOp) => ReadonlyArray<PendingChange<T>>,
): Promise<PendingRows<T>> {
  const rows: PendingRows<T> = { saved: new Map(), deleted: new Set() };
  for (const entry of await pendingEntries(db, userId)) {
    for (const change of changesOf({ kind: entry.kind, payload: entry.payload } as OutboxOp)) {
      if ("save" in change) {
        rows.saved.set(change.save, change.value);
        rows.deleted.delete(change.save);
      } else {
        rows.deleted.add(change.delete);
        rows.saved.delete(change.delete);
      }
    }
  }
  return rows;
}

/** A table of rows written whole: its primary key of a record, and the id the outbox names a key by. */
export type WholeRows<T, K> = {
  table: {
    bulkGet(keys: K[]): Promise<(T | undefined)[]>;
    bulkPut(records: readonly T[]): Promise<unknown>;
    bulkDelete(keys: readonly K[]): Promise<void>;
  };
  keyOf: (record: T) => K;
  idOf: (key: K) => string;
};

/**
 * Server records laid under the writes still waiting: one being saved or deleted here is left as this
 * device has it. With `held` (the keys of every record of the person's this device holds), the server's
 * records are the whole list: a held one it lacks goes, unless this device is saving it. A record held as
 * the server has it is not written again: a catch-up that finds nothing new writes nothing, so the live
 * views of the table are not read again. Answers how many server records were written. Call it inside a
 * transaction over the table and the outbox.
 */
export async function layUnderPending<T, K>(
  rows: WholeRows<T, K>,
  pending: PendingRows<unknown>,
  server: readonly T[],
  held?: readonly K[],
): Promise<number> {
  const id = (record: T) => rows.idOf(rows.keyOf(record));
  if (held) {
    const onServer = new Set(server.map(id));
    const gone = held.filter((k) => !onServer.has(rows.idOf(k)) && !pending.saved.has(rows.idOf(k)));
    await rows.table.bulkDelete(gone);
  }
  const laid = server.filter((r) => !pending.saved.has(id(r)) && !pending.deleted.has(id(r)));
  const current = await rows.table.bulkGet(laid.map(rows.keyOf));
  // The records are plain rows (strings, numbers, null, a smart collection's filter): their JSON tells them apart.
  const next = laid.filter((r, i) => current[i] === undefined || JSON.stringify(current[i]) !== JSON.stringify(r));
  if (next.length) await rows.table.bulkPut(next);
  return next.length;
}
