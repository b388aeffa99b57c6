// search_gallery (migrations 20261122000200, 20261126120000): the gallery's full-text search, run as the function's
// owner so the index is usable. It must show exactly what the select policy shows everyone (published
// rows, never a private one, whoever asks), newest first, and page with the gallery's cursor.
import { beforeAll, expect, it } from "vitest";
import { describeDb, type TestUser, usersOf } from "../support/db.ts";
import { generationFor, insertAs } from "./fixtures.ts";

describeDb("search_gallery", (ctx) => {
  const [owner, stranger] = usersOf(ctx, 2);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Four rows of one word, a second apart: three published, one private; plus an unrelated published one.
    const rows = [
      ["first", "a vermilion kite over dunes", true, "2026-11-01T10:00:00Z"],
      ["second", "vermilion kites at dusk", true, "2026-11-01T10:00:01Z"],
      ["private", "a vermilion secret", false, "2026-11-01T10:00:02Z"],
      ["third", "the vermilion harbour", true, "2026-11-01T10:00:03Z"],
      ["other", "a teal harbour", true, "2026-11-01T10:00:04Z"],
    ] as const;
    for (const [key, prompt, isPublic, createdAt] of rows) {
      const row = generationFor(owner, { prompt, is_public: isPublic });
      ids[key] = row.id;
      await insertAs(ctx.db, "service", "generations", { ...row, created_at: createdAt });
    }
  });

  const search = async (actor: "anon" | TestUser, args: string, params: unknown[]) =>
    (await ctx.db.run(actor, `select id from public.search_gallery(${args})`, params)).map((r) => r.id as string);

  it("finds published rows by a prompt word, stemmed, newest first, for visitors and strangers alike", async () => {
    const expected = [ids.third, ids.second, ids.first];
    expect(await search("anon", "p_query => $1", ["vermilion"])).toEqual(expected);
    expect(await search(stranger, "p_query => $1", ["vermilion"])).toEqual(expected);
    // "kites" and "kite" share a stem.
    expect(await search("anon", "p_query => $1", ["kites"])).toEqual([ids.second, ids.first]);
    expect(await search("anon", "p_query => $1", ['vermilion -dunes "at dusk"'])).toEqual([ids.second]);
  });

  it("never returns a private row, not even to its owner", async () => {
    expect(await search(owner, "p_query => $1", ["secret"])).toEqual([]);
    expect(await search(owner, "p_query => $1", ["vermilion"])).not.toContain(ids.private);
  });

  it("pages by created_at and id, and caps the page at 101 rows", async () => {
    const [second] = await ctx.db.query<{ created_at: string }>(
      "select created_at from public.generations where id = $1",
      [ids.second],
    );
    expect(
      await search("anon", "p_query => $1, p_before => $2, p_before_id => $3, p_limit => 1", [
        "vermilion",
        second.created_at,
        ids.second,
      ]),
    ).toEqual([ids.first]);
    expect(await search("anon", "p_query => $1, p_limit => 2", ["vermilion"])).toEqual([ids.third, ids.second]);
    // 103 more published rows of one word: a page larger than 101 is cut to 101.
    await ctx.db.run(
      "service",
      `insert into public.generations (id, user_id, prompt, style, provider, model, image_path, is_public)
       select gen_random_uuid(), $1::uuid, 'a cerulean study ' || i, 'anime', 'builtin', 'procedural-v1',
              $1::uuid::text || '/cap-' || i || '.png', true
       from generate_series(1, 103) as i`,
      [owner.id],
    );
    expect(await search("anon", "p_query => $1, p_limit => 500", ["cerulean"])).toHaveLength(101);
    expect(await search("anon", "p_query => $1, p_limit => 0", ["cerulean"])).toHaveLength(1);
  });

  it("answers an empty or odd query with no rows instead of an error", async () => {
    expect(await search("anon", "p_query => $1", [""])).toEqual([]);
    expect(await search("anon", "p_query => $1", ["&|!(("])).toEqual([]);
    expect(await search("anon", "p_query => null", [])).toEqual([]);
  });

  it("reads any run of - as one negation, for anon, owner and stranger alike (migration 20261126120000)", async () => {
    // Seeded runs from 2 to 481 signs, with and without spaces: the parser holds 32 operators, and
    // a run past that was an internal error (a 500, and a broken PGlite instance).
    let seed = 125;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const actor of ["anon", owner, stranger] as const) {
      for (let i = 0; i < 6; i++) {
        const run = Array.from({ length: 2 + (next() % 480) }, () => (next() % 3 ? "-" : "- ")).join("");
        expect(await search(actor, "p_query => $1", [run])).toEqual([]);
        expect(await search(actor, "p_query => $1", [`vermilion ${run}dunes`])).toEqual([ids.third, ids.second]);
      }
    }
  });

  it("refuses a query over 1,000 characters as an invalid argument (22023)", async () => {
    expect(await search("anon", "p_query => $1", ["a".repeat(1000)])).toEqual([]);
    for (const actor of ["anon", owner, stranger] as const) {
      await expect(search(actor, "p_query => $1", ["-".repeat(5000)])).rejects.toMatchObject({ code: "22023" });
    }
  });
});
