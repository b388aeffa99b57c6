// Pulls which image engines the deployment offers (the health function) into Dexie, at most once per
// page and only online; the generator reads the list from there (src/db/engines.ts), offline too.
import { fetchConfiguredEngines } from "../api/engine-health";
import type { AppDb } from "../db/db";
import { saveEngines } from "../db/engines";
import { isOnline } from "../lib/online";

let asked: Promise<void> | null = null;

export function refreshEngines(db: AppDb, now: () => Date = () => new Date()): Promise<void> {
  if (asked) return asked;
  if (!isOnline()) return Promise.resolve();
  asked = fetchConfiguredEngines().then(async (engines) => {
    if (!engines.ok) {
      asked = null; // asked again on the next page that wants it
      return;
    }
    await saveEngines(db, { ...engines.value, checkedAt: now().toISOString() });
  });
  return asked;
}
