// A generation's lineage on the device (decision 155): rows the server links by parent_id become records
// Dexie finds by variation.of (schema 9); the strip reads parent, the parent's variations (this one among
// them) and this one's own, oldest first, each once, and another person's records never join it.
import { afterEach, expect, it } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { recipeRows } from "#src/lib/generation-recipe.ts";
import { readLineage, stripOf } from "#src/features/variations/lineage.ts";
import { generationRow } from "../../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 12, minute)).toISOString();
const row = (id: string, minute: number, over: Partial<GenerationRow> = {}) =>
  generationRow(id, "alice", { prompt: "A red fox", created_at: at(minute), ...over });

it("reads parent, siblings and children oldest first, and the strip holds each once", async () => {
  db = openAppDb(`lineage-${crypto.randomUUID()}`);
  const rows = [
    row("p", 0),
    row("b", 2, { parent_id: "p", variation: "subtle" }),
    row("a", 1, { parent_id: "p", variation: "strong" }),
    row("c", 3, { parent_id: "a", variation: "strong" }),
    generationRow("x", "mallory", { created_at: at(4), parent_id: "a", variation: "subtle" }),
  ];
  await db.generations.bulkPut(rows.map(toGenerationRecord));
  const a = (await db.generations.get("a"))!;
  expect(a.variation).toEqual({ of: "p", kind: "strong" });
  const lineage = await readLineage(db, a);
  expect(lineage.parent?.id).toBe("p");
  expect(lineage.siblings.map((r) => r.id)).toEqual(["a", "b"]);
  expect(lineage.children.map((r) => r.id)).toEqual(["c"]);
  expect(stripOf(a, lineage).map((r) => r.id)).toEqual(["p", "a", "b", "c"]);

  const parent = (await db.generations.get("p"))!;
  const top = await readLineage(db, parent);
  expect(top.parent).toBeNull();
  expect(stripOf(parent, top).map((r) => r.id)).toEqual(["p", "a", "b"]);
  expect(recipeRows({ ...a, id: a.id }).find((r) => r.label === "Variation")?.value).toBe(
    "Strong, of an earlier image",
  );
  expect(recipeRows(parent).some((r) => r.label === "Variation")).toBe(false);
});

it("a variation whose parent was deleted (parent_id null) is no longer linked", () => {
  const record = toGenerationRecord(row("d", 5, { parent_id: null, variation: "subtle" }));
  expect(record.variation).toBeUndefined();
});
