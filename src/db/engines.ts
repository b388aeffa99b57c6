// Which image engines this deployment offers, as the health function last said (ids only, the default
// first among equals). Kept on the device so the generator's engine choice shows offline too; the list
// is the deployment's, not the person's, so it is kept under one key for everyone on this browser.
import type { AppDb } from "./db";

export const ENGINES_KEY = "engines";

export type EngineList = { available: string[]; default: string; checkedAt: string };

const isList = (v: unknown): v is EngineList => {
  const o = v as Partial<EngineList> | null;
  return Boolean(
    o &&
    Array.isArray(o.available) &&
    o.available.every((p) => typeof p === "string") &&
    typeof o.default === "string" &&
    typeof o.checkedAt === "string",
  );
};

export async function readEngines(db: AppDb): Promise<EngineList | null> {
  const value = (await db.meta.get(ENGINES_KEY))?.value;
  return isList(value) ? value : null;
}

export async function saveEngines(db: AppDb, list: EngineList): Promise<void> {
  await db.meta.put({ key: ENGINES_KEY, value: list });
}
