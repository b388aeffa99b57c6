// Rows the db-tier tests insert, built the way the generate function builds them.
import { randomUUID } from "node:crypto";
import type { Actor, Row, TestDb, TestUser } from "../support/db.ts";
import { newGeneration, type NewGeneration } from "../support/records.ts";

/** Overrides may be values the database must refuse (tests of its checks), so they are loosely typed. */
export type GenerationOverrides = { [K in keyof NewGeneration]?: NewGeneration[K] | string | number };

export function generationFor(user: TestUser, overrides: GenerationOverrides = {}): NewGeneration {
  const id = String(overrides.id ?? randomUUID());
  const row: NewGeneration = {
    ...newGeneration(id, user.id),
    prompt: "a lighthouse on a cliff at dawn",
    style: "photorealistic",
    seed: 42,
    model: "procedural-v1",
  };
  return { ...row, ...overrides } as NewGeneration;
}

/** Inserts a row as `actor` with exactly the keys given, the way PostgREST turns a JSON body into an insert. */
export async function insertAs(db: TestDb, actor: Actor, table: string, row: Row): Promise<void> {
  const keys = Object.keys(row);
  const cols = keys.map((k) => `"${k}"`).join(", ");
  const params = keys.map((_, i) => `$${i + 1}`).join(", ");
  // JSON values go as JSON text, as PostgREST passes them; pg would turn a JS array into a Postgres array.
  const values = Object.values(row).map((v) =>
    v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v,
  );
  await db.run(actor, `insert into public.${table} (${cols}) values (${params})`, values);
}
