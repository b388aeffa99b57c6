import { beforeAll, expect, it } from "vitest";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { describeDb, sqlState, type TestUser, usersOf } from "../support/db.ts";
import { generationFor, insertAs, rowCount } from "./fixtures.ts";

describeDb("generations", (ctx) => {
  const [owner, stranger] = usersOf(ctx, 2);
  const privateRow = { id: "" };
  const publishedRow = { id: "" };

  beforeAll(async () => {
    const a = generationFor(owner, { prompt: "a private study of a red fox" });
    const b = generationFor(owner, { prompt: "a published castle on a hill", is_public: true });
    await insertAs(ctx.db, "service", "generations", a);
    await insertAs(ctx.db, "service", "generations", b);
    privateRow.id = a.id;
    publishedRow.id = b.id;
  });

  const visibleIds = async (actor: "anon" | TestUser) =>
    (await ctx.db.run<{ id: string }>(actor, "select id from public.generations where user_id = $1", [owner.id]))
      .map((r) => r.id)
      .sort();

  it("shows the owner all their rows, and anon and strangers only the published one", async () => {
    expect(await visibleIds(owner)).toEqual([privateRow.id, publishedRow.id].sort());
    expect(await visibleIds(stranger)).toEqual([publishedRow.id]);
    expect(await visibleIds("anon")).toEqual([publishedRow.id]);
  });

  it("refuses an owner's insert of a row of their own: only the server makes generations", async () => {
    const row = generationFor(owner, { is_public: true });
    expect(await sqlState(insertAs(ctx.db, owner, "generations", row))).toBe("42501");
    expect(await ctx.db.run(owner, "select id from public.generations where id = $1", [row.id])).toEqual([]);
    await insertAs(ctx.db, "service", "generations", row);
    const [got] = await ctx.db.run(owner, "select prompt, is_public, is_saved from public.generations where id = $1", [
      row.id,
    ]);
    expect(got).toEqual({ prompt: row.prompt, is_public: true, is_saved: false });
  });

  it("refuses inserts from anon and rows claimed for someone else", async () => {
    expect(await sqlState(insertAs(ctx.db, "anon", "generations", generationFor(owner)))).toBe("42501");
    expect(await sqlState(insertAs(ctx.db, stranger, "generations", generationFor(owner)))).toBe("42501");
  });

  it("refuses a row pointing at another person's image, even published by its own author", async () => {
    // Even the server cannot store such a row: the image path is bound to the row's owner.
    const theft = generationFor(stranger, { image_path: `${owner.id}/${privateRow.id}.png`, is_public: true });
    expect(await sqlState(insertAs(ctx.db, stranger, "generations", theft))).toBe("42501");
    expect(await sqlState(insertAs(ctx.db, "service", "generations", theft))).toBe("23514");
    const nested = generationFor(stranger, { image_path: `${stranger.id}/${owner.id}/x.png` });
    expect(await sqlState(insertAs(ctx.db, "service", "generations", nested))).toBe("23514");
  });

  it("keeps created_at and search out of the client's hands", async () => {
    const row = { ...generationFor(owner), created_at: "2999-01-01T00:00:00Z" };
    expect(await sqlState(insertAs(ctx.db, owner, "generations", row))).toBe("42501");
  });

  it("lets the owner save and unpublish, the server publish, and nothing else", async () => {
    // Publishing goes through publish-generation (the server's checks), never an owner's patch.
    expect(
      await sqlState(
        ctx.db.run(owner, "update public.generations set is_public = true where id = $1", [privateRow.id]),
      ),
    ).toBe("42501");
    const updated = await ctx.db.run(
      owner,
      "update public.generations set is_saved = true where id = $1 returning id",
      [privateRow.id],
    );
    expect(updated).toHaveLength(1);
    await ctx.db.run("service", "update public.generations set is_public = true where id = $1", [privateRow.id]);
    expect(await visibleIds("anon")).toContain(privateRow.id);
    await ctx.db.run(owner, "update public.generations set is_public = false where id = $1", [privateRow.id]);
    expect(await visibleIds("anon")).not.toContain(privateRow.id);

    // Any other column is the server's: the prompt, the owner, the image.
    const others: [string, unknown[]][] = [
      ["prompt = 'edited'", [privateRow.id]],
      ["user_id = $2", [privateRow.id, stranger.id]],
      ["image_path = 'x'", [privateRow.id]],
    ];
    for (const [set, params] of others) {
      const update = ctx.db.run(owner, `update public.generations set ${set} where id = $1`, params);
      expect(await sqlState(update), set).toBe("42501");
    }
  });

  it("does not let a stranger publish, save or delete the owner's rows", async () => {
    const published = await ctx.db.run(
      stranger,
      "update public.generations set is_public = true where id = $1 returning id",
      [privateRow.id],
    );
    expect(published).toHaveLength(0);
    const unpublished = await ctx.db.run(
      stranger,
      "update public.generations set is_public = false where id = $1 returning id",
      [publishedRow.id],
    );
    expect(unpublished).toHaveLength(0);
    const deleted = await ctx.db.run(stranger, "delete from public.generations where user_id = $1 returning id", [
      owner.id,
    ]);
    expect(deleted).toHaveLength(0);
    expect(await sqlState(ctx.db.run("anon", "delete from public.generations"))).toBe("42501");
    expect(await sqlState(ctx.db.run("anon", "update public.generations set is_public = true"))).toBe("42501");
    expect(await rowCount(ctx.db, "generations", owner.id)).toBeGreaterThanOrEqual(2);
  });

  it("lets the owner delete their own row", async () => {
    const row = generationFor(owner);
    await insertAs(ctx.db, "service", "generations", row);
    const deleted = await ctx.db.run(owner, "delete from public.generations where id = $1 returning id", [row.id]);
    expect(deleted).toEqual([{ id: row.id }]);
  });

  it("accepts the 27 styles of the product and refuses others", async () => {
    const [{ n }] = await ctx.db.query<{ n: number }>(
      "select count(*)::int as n from unnest($1::text[]) s where public.is_style_id(s)",
      [STYLE_IDS],
    );
    expect(n).toBe(27);
    await insertAs(ctx.db, "service", "generations", generationFor(owner, { style: "nano-banana" }));
    expect(
      await sqlState(insertAs(ctx.db, "service", "generations", generationFor(owner, { style: "vaporwave" }))),
    ).toBe("23514");
  });

  it("validates prompt, negative prompt, quality, aspect ratio and size", async () => {
    const bad = [
      { prompt: "" },
      { prompt: "   \n\t " },
      { prompt: "x".repeat(501) },
      { negative_prompt: "y".repeat(301) },
      { quality: "best" },
      { aspect_ratio: "4:3" },
      { width: 0 },
      { height: 10_000 },
    ];
    for (const b of bad) {
      expect(
        await sqlState(insertAs(ctx.db, "service", "generations", generationFor(owner, b))),
        JSON.stringify(b).slice(0, 40),
      ).toBe("23514");
    }
    await insertAs(
      ctx.db,
      "service",
      "generations",
      generationFor(owner, {
        prompt: "x".repeat(500),
        negative_prompt: "y".repeat(300),
        quality: "ultra",
        aspect_ratio: "9:16",
        width: 1024,
        height: 1536,
      }),
    );
  });

  it("finds generations by words of their prompt", async () => {
    const rows = [
      generationFor(owner, { prompt: "Dragons circling a ruined castle" }),
      generationFor(owner, { prompt: "A quiet harbour with fishing boats" }),
      generationFor(owner, { prompt: "The castle gardens in spring" }),
    ];
    for (const r of rows) await insertAs(ctx.db, "service", "generations", r);
    const search = (q: string) =>
      ctx.db.run<{ id: string }>(
        owner,
        "select id from public.generations where search @@ websearch_to_tsquery('english', $1) and id = any($2::uuid[])",
        [q, rows.map((r) => r.id)],
      );
    expect((await search("castle")).map((r) => r.id).sort()).toEqual([rows[0].id, rows[2].id].sort());
    expect((await search("castle -dragon")).map((r) => r.id)).toEqual([rows[2].id]);
    expect((await search("boat")).map((r) => r.id)).toEqual([rows[1].id]);
  });

  it("lists published generations newest first to anyone", async () => {
    const older = generationFor(stranger, { is_public: true });
    const newer = generationFor(stranger, { is_public: true });
    await ctx.db.query(
      `insert into public.generations (id, user_id, prompt, provider, model, image_path, is_public, created_at)
       values ($1, $2, 'older', 'builtin', 'm', $3, true, now() - interval '1 hour'),
              ($4, $2, 'newer', 'builtin', 'm', $5, true, now())`,
      [older.id, stranger.id, older.image_path, newer.id, newer.image_path],
    );
    const rows = await ctx.db.run<{ id: string }>(
      "anon",
      "select id from public.generations where is_public order by created_at desc",
    );
    const ids = rows.map((r) => r.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
  });

  it("is announced to realtime subscribers", async () => {
    const rows = await ctx.db.query(
      "select 1 from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'generations'",
    );
    expect(rows).toHaveLength(1);
  });

  it("goes away with its owner's account", async () => {
    const leaving = await ctx.db.createUser();
    await insertAs(ctx.db, "service", "generations", generationFor(leaving));
    await ctx.db.query("delete from auth.users where id = $1", [leaving.id]);
    expect(await rowCount(ctx.db, "generations", leaving.id)).toBe(0);
  });
});
