// What the moderation db tests share: operators (a token whose app_metadata says so, as the auth server
// issues after `npm run operator -- grant`), published images with their stored objects, reports, and
// the reads of every gallery path (the table, search_gallery, a stored image as Storage reads it).
import type { Actor, TestDb, TestUser } from "../support/db.ts";
import { generationFor, insertAs } from "./fixtures.ts";

/** A new person made an operator in auth.users, with a token that carries the role. */
export async function createOperator(db: TestDb): Promise<TestUser> {
  const person = await db.createUser();
  await grantOperator(db, person);
  return { ...person, claims: { ...person.claims, app_metadata: { provider: "email", role: "operator" } } };
}

/** What the admin API does for `npm run operator -- grant`: app_metadata.role in auth.users. */
export async function grantOperator(db: TestDb, person: TestUser): Promise<void> {
  await db.query(
    `update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || '{"role":"operator"}' where id = $1`,
    [person.id],
  );
}

/** What `npm run operator -- revoke` does: the role leaves auth.users (the person's token still claims it). */
export async function revokeOperator(db: TestDb, person: TestUser): Promise<void> {
  await db.query(`update auth.users set raw_app_meta_data = raw_app_meta_data - 'role' where id = $1`, [person.id]);
}

/** An image of `owner` stored by the server, published or not, with its object in the bucket. */
export async function storedImage(
  db: TestDb,
  owner: TestUser,
  published = true,
): Promise<{ id: string; path: string }> {
  const row = generationFor(owner, { prompt: "a harbour of red boats at dusk", is_public: published });
  await insertAs(db, "service", "generations", row);
  await db.run(
    "service",
    `insert into storage.objects (bucket_id, name, metadata) values ('generations', $1, '{"mimetype":"image/png"}')`,
    [row.image_path],
  );
  return { id: row.id, path: row.image_path };
}

export function report(db: TestDb, actor: Actor, id: string, reason = "violence", note: string | null = null) {
  return db.run(actor, "select public.report_generation($1, $2, $3) as result", [id, reason, note]);
}

export function moderate(
  db: TestDb,
  actor: Actor,
  id: string,
  action: string,
  reason: string | null,
  until: string | null = null,
) {
  return db.run(actor, "select public.moderate_generation($1, $2, $3, $4) as result", [id, action, reason, until]);
}

/** Whether `actor` reads the row through the table (REST and realtime's policy). */
export async function seesRow(db: TestDb, actor: Actor, id: string): Promise<boolean> {
  return (await db.run(actor, "select id from public.generations where id = $1", [id])).length === 1;
}

/** Whether `actor` finds the row with a gallery search for its prompt. */
export async function findsInSearch(db: TestDb, actor: Actor, id: string): Promise<boolean> {
  const rows = await db.run(actor, "select id from public.search_gallery('harbour boats', null, null, 101)");
  return rows.some((r) => r.id === id);
}

/** Whether `actor` may download the stored image, read as the Storage API reads for a download. */
export function viewsImage(db: TestDb, actor: Actor, path: string): Promise<boolean> {
  return db.as(actor, async (tx) => {
    await tx.query("select set_config('storage.operation', 'storage.object.get_authenticated', true)");
    const rows = await tx.query("select 1 from storage.objects where bucket_id = 'generations' and name = $1", [path]);
    return rows.length === 1;
  });
}

/** Every gallery read at once: the table, search and the image. */
export async function galleryShows(db: TestDb, actor: Actor, image: { id: string; path: string }) {
  return {
    row: await seesRow(db, actor, image.id),
    search: await findsInSearch(db, actor, image.id),
    image: await viewsImage(db, actor, image.path),
  };
}

export const SHOWN = { row: true, search: true, image: true };
export const HIDDEN = { row: false, search: false, image: false };
