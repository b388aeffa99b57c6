// Collections (decision 157): the owner makes, saves again, renames, reads and deletes their collections
// and puts their own images into their hand-made ones; a stranger and a visitor see and change nothing of
// either table. The limits equal the shared vocabulary's (the SQL checks and validateCollectionFilter agree
// case by case), the caps hold, an item goes with its collection, its generation and its account.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import {
  COLLECTION_ITEMS_MAX,
  COLLECTION_NAME_MAX,
  COLLECTIONS_PER_PERSON_MAX,
  validateCollectionFilter,
  validateCollectionName,
} from "#shared/vocabulary/collections.ts";
import { type Actor, describeDb, sqlState, type TestDb, type TestUser, usersOf } from "../support/db.ts";
import { generationFor, insertAs } from "./fixtures.ts";

/** The outbox's save, as PostgREST runs supabase-js's `.upsert(row, { onConflict: "id" })`. */
const SAVE = `insert into public.collections (id, user_id, name, filter) values ($1, $2, $3, $4::jsonb)
              on conflict (id) do update set id = excluded.id, user_id = excluded.user_id,
                name = excluded.name, filter = excluded.filter
              returning name, filter`;
/** The outbox's add, as PostgREST runs `.upsert(rows, { onConflict: "collection_id,generation_id", ignoreDuplicates: true })`. */
const ADD = `insert into public.collection_items (collection_id, generation_id, user_id)
             select $1, g, $2 from unnest($3::uuid[]) g
             on conflict (collection_id, generation_id) do nothing
             returning generation_id`;

function saveAs(
  db: TestDb,
  actor: Actor,
  user: TestUser,
  name: string,
  filter: unknown = null,
  id: string = randomUUID(),
) {
  return db.run(actor, SAVE, [id, user.id, name, filter === null ? null : JSON.stringify(filter)]);
}

/** A hand-made collection of `user`'s (made by the service, whatever the test is about) and its id. */
async function handMade(db: TestDb, user: TestUser, name = "Foxes"): Promise<string> {
  const id = randomUUID();
  await saveAs(db, "service", user, name, null, id);
  return id;
}

/** `n` images of `user`'s, stored as generate-image stores them; their ids. */
async function imagesOf(db: TestDb, user: TestUser, n = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const row = generationFor(user);
    await insertAs(db, "service", "generations", row);
    ids.push(row.id);
  }
  return ids;
}

const addAs = (db: TestDb, actor: Actor, user: TestUser, collectionId: string, ids: string[]) =>
  db.run(actor, ADD, [collectionId, user.id, ids]);

/** Filters as JSON text (what PostgREST hands the database, what JSON.parse hands the vocabulary). */
const FILTERS = [
  '{"text":"fox"}',
  '{"text":"  fox  "}',
  '{"text":""}',
  '{"text":"   "}',
  '{"text":"\\u3000\\u00a0\\ufeff"}',
  '{"text":"\\u200b"}',
  '{"text":"\\u0085"}',
  `{"text":"${"w".repeat(200)}"}`,
  `{"text":"${"w".repeat(201)}"}`,
  `{"text":"${"😀".repeat(200)}"}`,
  `{"text":"${"😀".repeat(201)}"}`,
  '{"text":7}',
  '{"text":null}',
  '{"text":"a\\u0000b"}',
  '{"text":"\\ud800"}',
  '{"style":"anime"}',
  '{"style":"Anime"}',
  '{"style":"custom-1"}',
  '{"style":["anime"]}',
  '{"quality":"ultra"}',
  '{"quality":"max"}',
  '{"aspectRatio":"9:16"}',
  '{"aspectRatio":"4:3"}',
  '{"engine":"builtin"}',
  '{"engine":"pollinations-flux"}',
  '{"engine":"OpenAI"}',
  '{"engine":"-dash"}',
  '{"engine":"builtin\\n"}',
  `{"engine":"${"e".repeat(40)}"}`,
  `{"engine":"${"e".repeat(41)}"}`,
  '{"engine":""}',
  '{"saved":true}',
  '{"saved":false,"published":true}',
  '{"saved":"yes"}',
  '{"published":1}',
  '{"from":"2026-01-01"}',
  '{"to":"2026-12-31"}',
  '{"from":"2026-01-01","to":"2026-01-01"}',
  '{"from":"2026-02-01","to":"2026-01-31"}',
  '{"from":"2026-13-01"}',
  '{"from":"2026-02-31"}',
  '{"to":"2026-1-1"}',
  '{"to":"２０２６-01-01"}',
  '{"from":"2026-01-01T00:00:00Z"}',
  '{"from":20260101}',
  '{"withinDays":1}',
  '{"withinDays":3650}',
  '{"withinDays":7.0}',
  '{"withinDays":1e3}',
  '{"withinDays":7.00000000000000000001}',
  '{"withinDays":0}',
  '{"withinDays":3651}',
  '{"withinDays":7.5}',
  '{"withinDays":-7}',
  '{"withinDays":1e400}',
  '{"withinDays":"7"}',
  '{"withinDays":null}',
  "{}",
  "[]",
  '"fox"',
  "null",
  "7",
  '{"size":"big"}',
  '{"text":"fox","unknown":1}',
  '{"__proto__":{"text":"fox"}}',
  '{"text":"fox","text":""}',
  '{"text":"a fox","style":"anime","quality":"high","aspectRatio":"16:9","engine":"builtin","saved":true,"published":false,"from":"2026-01-01","to":"2026-06-30","withinDays":30}',
];

const NAMES = [
  "Foxes",
  "n".repeat(COLLECTION_NAME_MAX),
  "n".repeat(COLLECTION_NAME_MAX + 1),
  "😀".repeat(COLLECTION_NAME_MAX),
  "",
  " ",
  " padded",
  "padded ",
  "\u00a0padded",
  "padded\u2028",
  "in\u3000between",
  "\u200bzero-width",
];

/** What the database says of `sql` applied to one value: false when it refuses the value itself. */
async function sqlAccepts(db: TestDb, sql: string, value: string): Promise<boolean> {
  try {
    const [{ ok }] = await db.query<{ ok: boolean }>(sql, [value]);
    return ok;
  } catch (e) {
    // Text Postgres cannot hold (NUL, a lone surrogate) is refused before the check is asked.
    expect((e as { code?: string }).code).toMatch(/^22/);
    return false;
  }
}

describeDb("collections", (ctx) => {
  const [owner, stranger] = usersOf(ctx, 2);

  it("are made, saved again, renamed, read and deleted by their owner", async () => {
    const id = randomUUID();
    const smart = { text: "fox", quality: "high" };
    expect(await saveAs(ctx.db, owner, owner, "Foxes", smart, id)).toEqual([{ name: "Foxes", filter: smart }]);
    expect(await saveAs(ctx.db, owner, owner, "Foxes", smart, id)).toHaveLength(1);
    expect(await saveAs(ctx.db, owner, owner, "Red foxes", { ...smart, saved: true }, id)).toEqual([
      { name: "Red foxes", filter: { ...smart, saved: true } },
    ]);
    const [row] = await ctx.db.run(
      owner,
      "select user_id, created_at, updated_at from public.collections where id = $1",
      [id],
    );
    expect(row.user_id).toBe(owner.id);
    expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());
    expect(await ctx.db.run(owner, "delete from public.collections where id = $1 returning 1", [id])).toHaveLength(1);
  });

  it("take the owner's own images into a hand-made collection, once each, and let them out again", async () => {
    const id = await handMade(ctx.db, owner);
    const images = await imagesOf(ctx.db, owner, 2);
    expect(await addAs(ctx.db, owner, owner, id, images)).toHaveLength(2);
    // The outbox's resend adds nothing and refuses nothing.
    expect(await addAs(ctx.db, owner, owner, id, images)).toEqual([]);
    expect(
      await ctx.db.run(owner, "select generation_id from public.collection_items where collection_id = $1", [id]),
    ).toHaveLength(2);
    // An item is added or removed, never changed.
    expect(
      await sqlState(
        ctx.db.run(owner, "update public.collection_items set added_at = now() where collection_id = $1", [id]),
      ),
    ).toBe("42501");
    const removed = await ctx.db.run(
      owner,
      "delete from public.collection_items where collection_id = $1 and generation_id = any($2::uuid[]) returning 1",
      [id, images],
    );
    expect(removed).toHaveLength(2);
  });

  it("are invisible and untouchable to strangers and visitors, items included", async () => {
    const id = await handMade(ctx.db, owner);
    const [image] = await imagesOf(ctx.db, owner);
    await addAs(ctx.db, owner, owner, id, [image]);
    for (const table of ["collections", "collection_items"]) {
      expect(await ctx.db.run(stranger, `select 1 from public.${table} where user_id = $1`, [owner.id])).toEqual([]);
      expect(
        await ctx.db.run(stranger, `delete from public.${table} where user_id = $1 returning 1`, [owner.id]),
      ).toEqual([]);
      expect(await sqlState(ctx.db.run("anon", `select 1 from public.${table}`))).toBe("42501");
      expect(await sqlState(ctx.db.run("anon", `delete from public.${table}`))).toBe("42501");
    }
    expect(
      await ctx.db.run(stranger, "update public.collections set name = 'Mine' where id = $1 returning 1", [id]),
    ).toEqual([]);
    expect(await sqlState(ctx.db.run("anon", "update public.collections set name = 'Mine' where id = $1", [id]))).toBe(
      "42501",
    );
    // Nor made in the owner's name, nor taken over by an upsert on the owner's id, nor filled.
    expect(await sqlState(saveAs(ctx.db, stranger, owner, "Fake"))).toBe("42501");
    expect(await sqlState(saveAs(ctx.db, stranger, stranger, "Mine now", null, id))).toBe("42501");
    expect(await sqlState(saveAs(ctx.db, "anon", owner, "Anon"))).toBe("42501");
    const [other] = await imagesOf(ctx.db, owner);
    expect(await sqlState(addAs(ctx.db, stranger, owner, id, [other]))).toBe("42501");
    expect(await sqlState(addAs(ctx.db, "anon", owner, id, [other]))).toBe("42501");
    expect(await ctx.db.run(owner, "select name from public.collections where id = $1", [id])).toEqual([
      { name: "Foxes" },
    ]);
    expect(
      await ctx.db.run(owner, "select generation_id from public.collection_items where collection_id = $1", [id]),
    ).toEqual([{ generation_id: image }]);
  });

  it("take an image only of the person's own into only their own hand-made collection", async () => {
    const mine = await handMade(ctx.db, owner);
    const theirs = await handMade(ctx.db, stranger);
    const smart = randomUUID();
    await saveAs(ctx.db, owner, owner, "Smart", { saved: true }, smart);
    const [myImage] = await imagesOf(ctx.db, owner);
    const [theirImage] = await imagesOf(ctx.db, stranger);
    expect(await sqlState(addAs(ctx.db, owner, owner, theirs, [myImage]))).toBe("42501");
    expect(await sqlState(addAs(ctx.db, owner, owner, mine, [theirImage]))).toBe("42501");
    await expect(addAs(ctx.db, owner, owner, smart, [myImage])).rejects.toThrow(/smart collection/);
    // Gone on the server (a collection or image deleted meanwhile): the foreign key says so, the client drops it.
    expect(await sqlState(addAs(ctx.db, owner, owner, randomUUID(), [myImage]))).toBe("23503");
    expect(await sqlState(addAs(ctx.db, owner, owner, mine, [randomUUID()]))).toBe("23503");
    // Not even the service can put an image into another person's collection.
    expect(await sqlState(addAs(ctx.db, "service", stranger, mine, [theirImage]))).toBe("42501");
    expect(await ctx.db.run(owner, "select 1 from public.collection_items where collection_id = $1", [mine])).toEqual(
      [],
    );
  });

  it("keep their id, their owner and their kind", async () => {
    const handMadeId = await handMade(ctx.db, owner);
    const smartId = randomUUID();
    await saveAs(ctx.db, owner, owner, "Smart", { engine: "builtin" }, smartId);
    await expect(saveAs(ctx.db, owner, owner, "Foxes", { saved: true }, handMadeId)).rejects.toThrow(
      /cannot become smart/,
    );
    await expect(saveAs(ctx.db, owner, owner, "Smart", null, smartId)).rejects.toThrow(/cannot become smart/);
    await expect(
      ctx.db.run("service", "update public.collections set id = $2 where id = $1", [smartId, randomUUID()]),
    ).rejects.toThrow(/keeps its id/);
    expect(
      await sqlState(ctx.db.run(owner, "update public.collections set created_at = now() where id = $1", [smartId])),
    ).toBe("42501");
  });

  it("hold the name and filter limits of the shared vocabulary", async () => {
    const at = (n: number) => "n".repeat(n);
    expect(await saveAs(ctx.db, owner, owner, at(COLLECTION_NAME_MAX))).toHaveLength(1);
    for (const name of [at(COLLECTION_NAME_MAX + 1), "", " padded", "padded\u3000", "\t"]) {
      expect(await sqlState(saveAs(ctx.db, owner, owner, name)), JSON.stringify(name)).toBe("23514");
    }
    for (const filter of [{}, { size: "big" }, { withinDays: 0 }, { from: "2026-02-01", to: "2026-01-01" }, []]) {
      expect(await sqlState(saveAs(ctx.db, owner, owner, "Smart", filter)), JSON.stringify(filter)).toBe("23514");
    }
  });

  it("number at most 200 per person; a save of one already there still goes through", async () => {
    const person = await ctx.db.createUser();
    await ctx.db.run(
      person,
      `insert into public.collections (id, user_id, name)
       select gen_random_uuid(), $1, 'Collection ' || i from generate_series(1, $2::int) i`,
      [person.id, COLLECTIONS_PER_PERSON_MAX - 1],
    );
    const last = randomUUID();
    expect(await saveAs(ctx.db, person, person, "The last", null, last)).toHaveLength(1);
    await expect(saveAs(ctx.db, person, person, "One more")).rejects.toThrow(/at most 200 collections/);
    expect(await saveAs(ctx.db, person, person, "The last, renamed", null, last)).toHaveLength(1);
    // Another person's count is their own.
    expect(await saveAs(ctx.db, stranger, stranger, "Not full")).toHaveLength(1);
  });

  it(`hold at most ${COLLECTION_ITEMS_MAX} images each`, async () => {
    const person = await ctx.db.createUser();
    const id = await handMade(ctx.db, person);
    await ctx.db.run(
      "service",
      `insert into public.generations (id, user_id, prompt, provider, model, image_path)
       select g, $1::uuid, 'a fox', 'builtin', 'm', $1::text || '/' || g || '.png'
         from (select gen_random_uuid() as g from generate_series(1, $2::int)) s`,
      [person.id, COLLECTION_ITEMS_MAX + 1],
    );
    const ids = (await ctx.db.query("select id from public.generations where user_id = $1", [person.id])).map(
      (r) => r.id as string,
    );
    expect(await addAs(ctx.db, person, person, id, ids.slice(0, COLLECTION_ITEMS_MAX))).toHaveLength(
      COLLECTION_ITEMS_MAX,
    );
    await expect(addAs(ctx.db, person, person, id, ids.slice(COLLECTION_ITEMS_MAX))).rejects.toThrow(
      /at most 10000 images/,
    );
    // A resend of what is there adds nothing, so it is not refused.
    expect(await addAs(ctx.db, person, person, id, ids.slice(0, 3))).toEqual([]);
  }, 120_000);

  it("lose an item with its generation, and everything with the collection or the account", async () => {
    const person = await ctx.db.createUser();
    const id = await handMade(ctx.db, person);
    const images = await imagesOf(ctx.db, person, 2);
    await addAs(ctx.db, person, person, id, images);
    await ctx.db.run(person, "delete from public.generations where id = $1", [images[0]]);
    const left = () => ctx.db.query("select generation_id from public.collection_items where collection_id = $1", [id]);
    expect(await left()).toEqual([{ generation_id: images[1] }]);
    await ctx.db.run(person, "delete from public.collections where id = $1", [id]);
    expect(await left()).toEqual([]);
    const again = await handMade(ctx.db, person);
    await addAs(ctx.db, person, person, again, [images[1]]);
    await ctx.db.query("delete from auth.users where id = $1", [person.id]);
    for (const table of ["collections", "collection_items"]) {
      expect(await ctx.db.query(`select 1 from public.${table} where user_id = $1`, [person.id])).toEqual([]);
    }
  });

  it("are both published to realtime", async () => {
    const rows = await ctx.db.query(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime'
         and tablename in ('collections', 'collection_items') order by 1`,
    );
    expect(rows.map((r) => r.tablename)).toEqual(["collection_items", "collections"]);
  });

  it("check a filter as the vocabulary does", async () => {
    const disagreements: string[] = [];
    for (const text of FILTERS) {
      const vocabulary = validateCollectionFilter(JSON.parse(text)) === null;
      const sql = await sqlAccepts(ctx.db, "select public.is_collection_filter($1::jsonb) as ok", text);
      if (vocabulary !== sql) disagreements.push(`${text}: vocabulary ${vocabulary}, SQL ${sql}`);
    }
    expect(disagreements).toEqual([]);
    // Both sides take some and refuse some: the table is not one-sided.
    const taken = FILTERS.filter((t) => validateCollectionFilter(JSON.parse(t)) === null);
    expect(taken.length).toBeGreaterThan(10);
    expect(FILTERS.length - taken.length).toBeGreaterThan(30);
  });

  it("check a name as the vocabulary does, as the client stores it (trimmed)", async () => {
    const disagreements: string[] = [];
    for (const name of NAMES) {
      const vocabulary = validateCollectionName(name) === null && name === name.trim();
      const sql = await sqlAccepts(ctx.db, "select public.is_collection_name($1) as ok", name);
      if (vocabulary !== sql) disagreements.push(`${JSON.stringify(name)}: vocabulary ${vocabulary}, SQL ${sql}`);
    }
    expect(disagreements).toEqual([]);
  });
});
