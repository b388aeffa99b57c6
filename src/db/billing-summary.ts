// The person's last known billing summary (plan, status, dates, invoices: src/api/billing.ts), kept in
// `meta` so /billing shows it offline, labelled with when it was read. Whoever reads a summary from the
// server stores it here (the billing page, the payment-success page, the plan lane after a change of the
// person's subscription); every view reads it live.
import { db as appDb, type AppDb } from "./db";

export type KeptSummary<T> = { summary: T; at: string };

/** Ends with the user id, so clearing other users' cache (user-data.ts) takes it with the rest. */
export const billingSummaryKey = (userId: string) => `billing.summary.${userId}`;

export async function keepBillingSummary<T>(
  userId: string,
  summary: T,
  db: AppDb = appDb,
  now: () => Date = () => new Date(),
): Promise<void> {
  await db.meta.put({ key: billingSummaryKey(userId), value: { summary, at: now().toISOString() } });
}

export async function getBillingSummary<T>(userId: string, db: AppDb = appDb): Promise<KeptSummary<T> | null> {
  const value = (await db.meta.get(billingSummaryKey(userId)))?.value as Partial<KeptSummary<T>> | undefined;
  return value?.summary && typeof value.at === "string" ? { summary: value.summary, at: value.at } : null;
}
