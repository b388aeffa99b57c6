// A generation's lineage on this device (decision 155): the image it varies (its parent), the other
// variations of that parent (its siblings), and its own variations (its children), each oldest first, read
// from Dexie by the `variation.of` index (schema 9) so it shows offline and updates live as variations
// arrive. Only the person's own records are read.
import type { AppDb } from "../../db/db";
import type { GenerationRecord } from "../../db/schema";

export type Lineage = {
  /** The generation this lineage was read for (a view that moved on does not show a lineage read before). */
  of: string;
  parent: GenerationRecord | null;
  /** The parent's variations, this one among them, oldest first; empty when it varies nothing. */
  siblings: GenerationRecord[];
  children: GenerationRecord[];
};

const oldestFirst = (a: GenerationRecord, b: GenerationRecord) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;

async function variationsOf(db: AppDb, id: string, userId: string): Promise<GenerationRecord[]> {
  const rows = await db.generations.where("variation.of").equals(id).toArray();
  return rows.filter((r) => r.userId === userId).sort(oldestFirst);
}

export async function readLineage(db: AppDb, record: GenerationRecord): Promise<Lineage> {
  const parentId = record.variation?.of;
  const [parent, siblings, children] = await Promise.all([
    parentId ? db.generations.get(parentId) : undefined,
    parentId ? variationsOf(db, parentId, record.userId) : [],
    variationsOf(db, record.id, record.userId),
  ]);
  return { of: record.id, parent: parent && parent.userId === record.userId ? parent : null, siblings, children };
}

/** The strip's order: the parent, then its variations (this one among them), then this one's variations. */
export function stripOf(record: GenerationRecord, lineage: Lineage): GenerationRecord[] {
  const middle = lineage.siblings.some((r) => r.id === record.id) ? lineage.siblings : [record];
  const all = [...(lineage.parent ? [lineage.parent] : []), ...middle, ...lineage.children];
  return all.filter((r, i) => all.findIndex((o) => o.id === r.id) === i);
}
