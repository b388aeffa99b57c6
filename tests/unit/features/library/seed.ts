// Generations for the library's page tests, written to the app's Dexie (fake-indexeddb) the way
// the pull writes them (toGenerationRecord, so each carries its search words).
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { db } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { generationRow } from "../../../support/records.ts";

let n = 0;

export function row(patch: Partial<GenerationRow> = {}): GenerationRow {
  n += 1;
  const id = patch.id ?? `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  return generationRow(id, "u1", {
    prompt: `prompt number ${n}`,
    style: "photorealistic",
    seed: 42,
    model: "procedural-v1",
    created_at: new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString(),
    ...patch,
  });
}

export async function seed(rows: GenerationRow[], images?: Map<string, Blob>): Promise<void> {
  await db.generations.bulkPut(rows.map((r) => toGenerationRecord(r)));
  const held = rows.flatMap((r) => {
    const image = images?.get(r.id);
    return image ? [{ id: r.id, userId: r.user_id, image }] : [];
  });
  await db.images.bulkPut(held);
}

export async function resetDb(): Promise<void> {
  await Promise.all(db.tables.map((t) => t.clear()));
}
