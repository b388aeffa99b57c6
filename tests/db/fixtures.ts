// Rows the db-tier tests insert, built the way the generate function builds them.
import { randomUUID } from "node:crypto";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import type { Actor, Row, TestDb, TestUser } from "../support/db.ts";

/** A generations row as the generate function inserts it: every column but the database's created_at. */
export type NewGeneration = Omit<GenerationRow, "created_at">;

/** Overrides may be values the database must refuse (tests of its checks), so they are loosely typed. */
export type GenerationOverrides = { [K in keyof NewGeneration]?: NewGeneration[K] | string | number };

export function generationFor(user: TestUser, overrides: GenerationOverrides = {}): NewGeneration {
  const id = String(overrides.id ?? randomUUID());
  const row: NewGeneration = {
    id,
    user_id: user.id,
    prompt: "a lighthouse on a cliff at dawn",
    negative_prompt: "",
    style: "photorealistic",
    quality: "standard",
    aspect_ratio: "1:1",
    width: 1024,
    height: 1024,
    seed: 42,
    provider: "builtin",
    model: "procedural-v1",
    image_path: `${user.id}/${id}.png`,
    is_public: false,
    is_saved: false,
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
