// Custom styles (decision 152): the owner reads, uses and deletes their own; only a premium owner makes or
// changes one; a stranger and a visitor see nothing; the service may do everything. The table's limits equal
// the shared vocabulary's, and a generation row names the custom style it was made with.
import { expect, it } from "vitest";
import {
  CUSTOM_STYLE_NAME_MAX,
  CUSTOM_STYLE_NEGATIVE_MAX,
  CUSTOM_STYLE_WORDS_MAX,
} from "../../supabase/functions/_shared/vocabulary/custom-styles.ts";
import { describeDb, sqlState, type TestDb, type TestUser } from "../support/db.ts";

const INSERT = `insert into public.custom_styles (id, user_id, name, prompt, negative_prompt, quality, aspect_ratio)
                values (gen_random_uuid(), $1, $2, $3, '', 'high', '16:9') returning id`;

async function setTier(db: TestDb, user: TestUser, tier: string): Promise<void> {
  await db.run("service", "update public.user_daily_limits set subscription_tier = $2 where user_id = $1", [
    user.id,
    tier,
  ]);
}

describeDb("custom styles", (ctx) => {
  it("are made, changed, read and deleted by a premium owner", async () => {
    const owner = await ctx.db.createUser();
    await setTier(ctx.db, owner, "premium");
    const [{ id }] = await ctx.db.run(owner, INSERT, [owner.id, "Moody film", "35mm film, teal and orange"]);
    expect(
      await ctx.db.run(owner, "update public.custom_styles set name = 'Film' where id = $1 returning name", [id]),
    ).toEqual([{ name: "Film" }]);
    expect(await ctx.db.run(owner, "select name, quality, aspect_ratio from public.custom_styles")).toEqual([
      { name: "Film", quality: "high", aspect_ratio: "16:9" },
    ]);
    expect(await ctx.db.run(owner, "delete from public.custom_styles where id = $1 returning 1", [id])).toHaveLength(1);
  });

  it("take the outbox's upsert as supabase-js sends it, again and again", async () => {
    const owner = await ctx.db.createUser();
    await setTier(ctx.db, owner, "premium");
    const id = crypto.randomUUID();
    const upsert = `insert into public.custom_styles (id, user_id, name, prompt)
                    values ($1, $2, $3, 'words')
                    on conflict (id) do update set id = excluded.id, user_id = excluded.user_id,
                      name = excluded.name, prompt = excluded.prompt
                    returning name`;
    expect(await ctx.db.run(owner, upsert, [id, owner.id, "First"])).toEqual([{ name: "First" }]);
    expect(await ctx.db.run(owner, upsert, [id, owner.id, "Renamed"])).toEqual([{ name: "Renamed" }]);
    // Another person's style cannot be taken over by an upsert on its id.
    const stranger = await ctx.db.createUser();
    await setTier(ctx.db, stranger, "premium");
    expect(await sqlState(ctx.db.run(stranger, upsert, [id, stranger.id, "Mine now"]))).toBe("42501");
  });

  it("cannot be made or changed below premium, but stay readable and deletable", async () => {
    const owner = await ctx.db.createUser();
    await setTier(ctx.db, owner, "pro");
    expect(await sqlState(ctx.db.run(owner, INSERT, [owner.id, "Mine", "words"]))).toBe("42501");
    await setTier(ctx.db, owner, "premium");
    const [{ id }] = await ctx.db.run(owner, INSERT, [owner.id, "Mine", "words"]);
    await setTier(ctx.db, owner, "free");
    expect(
      await ctx.db.run(owner, "update public.custom_styles set name = 'Changed' where id = $1 returning 1", [id]),
    ).toEqual([]);
    expect(await ctx.db.run(owner, "select name from public.custom_styles")).toEqual([{ name: "Mine" }]);
    expect(await ctx.db.run(owner, "delete from public.custom_styles where id = $1 returning 1", [id])).toHaveLength(1);
  });

  it("stop being made once the paid time has passed, as the quota reads the tier", async () => {
    const owner = await ctx.db.createUser();
    await setTier(ctx.db, owner, "premium");
    await ctx.db.run(
      "service",
      "update public.user_daily_limits set subscription_tier_until = now() - interval '1 minute' where user_id = $1",
      [owner.id],
    );
    expect(await sqlState(ctx.db.run(owner, INSERT, [owner.id, "Late", "words"]))).toBe("42501");
    await ctx.db.run(
      "service",
      "update public.user_daily_limits set subscription_tier_until = now() + interval '1 day' where user_id = $1",
      [owner.id],
    );
    expect(await ctx.db.run(owner, INSERT, [owner.id, "In time", "words"])).toHaveLength(1);
  });

  it("are invisible and untouchable to strangers and visitors", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    await setTier(ctx.db, owner, "premium");
    await setTier(ctx.db, stranger, "premium");
    const [{ id }] = await ctx.db.run(owner, INSERT, [owner.id, "Mine", "words"]);
    expect(await ctx.db.run(stranger, "select 1 from public.custom_styles where id = $1", [id])).toEqual([]);
    expect(
      await ctx.db.run(stranger, "update public.custom_styles set name = 'x' where id = $1 returning 1", [id]),
    ).toEqual([]);
    expect(await ctx.db.run(stranger, "delete from public.custom_styles where id = $1 returning 1", [id])).toEqual([]);
    // A premium stranger cannot make a style in the owner's name either.
    expect(await sqlState(ctx.db.run(stranger, INSERT, [owner.id, "Fake", "words"]))).toBe("42501");
    expect(await sqlState(ctx.db.run("anon", "select * from public.custom_styles"))).toBe("42501");
    expect(await sqlState(ctx.db.run("anon", INSERT, [owner.id, "Anon", "words"]))).toBe("42501");
    expect(await ctx.db.run("service", "select name from public.custom_styles where id = $1", [id])).toEqual([
      { name: "Mine" },
    ]);
  });

  it("let the service write whatever the tier, and the owner never write user_id or times", async () => {
    const owner = await ctx.db.createUser();
    const [{ id }] = await ctx.db.run("service", INSERT, [owner.id, "Given", "words"]);
    expect(await ctx.db.run(owner, "select name from public.custom_styles where id = $1", [id])).toEqual([
      { name: "Given" },
    ]);
    await setTier(ctx.db, owner, "premium");
    expect(
      await sqlState(ctx.db.run(owner, "update public.custom_styles set created_at = now() where id = $1", [id])),
    ).toBe("42501");
  });

  it("hold the limits of the shared vocabulary", async () => {
    const owner = await ctx.db.createUser();
    await setTier(ctx.db, owner, "premium");
    const at = (n: number) => "a".repeat(n);
    expect(
      await ctx.db.run(owner, INSERT, [owner.id, at(CUSTOM_STYLE_NAME_MAX), at(CUSTOM_STYLE_WORDS_MAX)]),
    ).toHaveLength(1);
    expect(await sqlState(ctx.db.run(owner, INSERT, [owner.id, at(CUSTOM_STYLE_NAME_MAX + 1), "w"]))).toBe("23514");
    expect(await sqlState(ctx.db.run(owner, INSERT, [owner.id, "n", at(CUSTOM_STYLE_WORDS_MAX + 1)]))).toBe("23514");
    expect(await sqlState(ctx.db.run(owner, INSERT, [owner.id, " padded", "w"]))).toBe("23514");
    const negative = `insert into public.custom_styles (id, user_id, name, prompt, negative_prompt)
                      values (gen_random_uuid(), $1, 'n', 'w', $2)`;
    expect(await sqlState(ctx.db.run(owner, negative, [owner.id, at(CUSTOM_STYLE_NEGATIVE_MAX + 1)]))).toBe("23514");
    const preview = `insert into public.custom_styles (id, user_id, name, prompt, preview)
                     values (gen_random_uuid(), $1, 'n', 'w', $2)`;
    expect(await sqlState(ctx.db.run(owner, preview, [owner.id, "javascript:alert(1)"]))).toBe("23514");
    expect(await ctx.db.run(owner, preview, [owner.id, "data:image/jpeg;base64,AAAA"])).toEqual([]);
  });

  it("go with their account, and a generation names the custom style it was made with", async () => {
    const owner = await ctx.db.createUser();
    await setTier(ctx.db, owner, "premium");
    const [{ id }] = await ctx.db.run(owner, INSERT, [owner.id, "Mine", "words"]);
    const row = {
      id: crypto.randomUUID(),
      user_id: owner.id,
      prompt: "a fox, words",
      provider: "builtin",
      model: "m",
      image_path: `${owner.id}/x.png`,
      custom_style_id: id,
      custom_style_name: "Mine",
    };
    const [{ answer }] = await ctx.db.run("service", "select public.record_generation($1::jsonb) as answer", [
      JSON.stringify(row),
    ]);
    expect(answer.row).toMatchObject({ custom_style_id: id, custom_style_name: "Mine" });
    await ctx.db.query("delete from auth.users where id = $1", [owner.id]);
    expect(await ctx.db.query("select 1 from public.custom_styles where user_id = $1", [owner.id])).toEqual([]);
  });
});
