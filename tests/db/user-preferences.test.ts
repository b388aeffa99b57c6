import { expect, it } from "vitest";
import { describeDb, sqlState } from "../support/db.ts";

describeDb("user preferences", (ctx) => {
  it("are created at sign-up with the defaults of the spec", async () => {
    const user = await ctx.db.createUser();
    const rows = await ctx.db.run(
      user,
      "select default_style, default_quality, default_aspect_ratio, notifications_enabled, public_gallery_opt_in, timezone from public.user_preferences",
    );
    expect(rows).toEqual([
      {
        default_style: "photorealistic",
        default_quality: "high",
        default_aspect_ratio: "1:1",
        notifications_enabled: true,
        public_gallery_opt_in: false,
        timezone: "UTC",
      },
    ]);
  });

  it("can be changed by their owner, who cannot delete them", async () => {
    const user = await ctx.db.createUser();
    const [before] = await ctx.db.query<{ updated_at: Date }>(
      "select updated_at from public.user_preferences where user_id = $1",
      [user.id],
    );
    const updated = await ctx.db.run(
      user,
      "update public.user_preferences set default_style = 'anime', default_quality = 'ultra', default_aspect_ratio = '16:9', notifications_enabled = false, public_gallery_opt_in = true, timezone = 'Europe/Paris' where user_id = $1 returning default_style, timezone",
      [user.id],
    );
    expect(updated).toEqual([{ default_style: "anime", timezone: "Europe/Paris" }]);
    const [after] = await ctx.db.query<{ updated_at: Date }>(
      "select updated_at from public.user_preferences where user_id = $1",
      [user.id],
    );
    expect(after.updated_at.getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());
    expect(await sqlState(ctx.db.run(user, "delete from public.user_preferences where user_id = $1", [user.id]))).toBe(
      "42501",
    );
  });

  it("can be created by their owner when missing, with an upsert as supabase-js sends it", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query("delete from public.user_preferences where user_id = $1", [user.id]);
    const upsert = `insert into public.user_preferences (user_id, default_style, default_quality)
                    values ($1, 'watercolor', 'standard')
                    on conflict (user_id) do update set user_id = excluded.user_id, default_style = excluded.default_style, default_quality = excluded.default_quality
                    returning default_style, default_aspect_ratio`;
    expect(await ctx.db.run(user, upsert, [user.id])).toEqual([
      { default_style: "watercolor", default_aspect_ratio: "1:1" },
    ]);
    expect(await ctx.db.run(user, upsert, [user.id])).toHaveLength(1);
  });

  it("are invisible and untouchable to strangers and anon", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    expect(await ctx.db.run(stranger, "select 1 from public.user_preferences where user_id = $1", [owner.id])).toEqual(
      [],
    );
    expect(
      await ctx.db.run(
        stranger,
        "update public.user_preferences set default_style = 'neon' where user_id = $1 returning 1",
        [owner.id],
      ),
    ).toEqual([]);
    expect(
      await sqlState(ctx.db.run(stranger, "insert into public.user_preferences (user_id) values ($1)", [owner.id])),
    ).toBe("42501");
    await expect(
      ctx.db.run(stranger, "update public.user_preferences set user_id = $1 where user_id = $2", [
        owner.id,
        stranger.id,
      ]),
    ).rejects.toMatchObject({
      code: "42501",
      message: 'new row violates row-level security policy for table "user_preferences"',
    });
    expect(await sqlState(ctx.db.run("anon", "select * from public.user_preferences"))).toBe("42501");
    expect(await sqlState(ctx.db.run("anon", "update public.user_preferences set default_style = 'neon'"))).toBe(
      "42501",
    );
    const [prefs] = await ctx.db.query("select default_style from public.user_preferences where user_id = $1", [
      owner.id,
    ]);
    expect(prefs).toEqual({ default_style: "photorealistic" });
  });

  it("accept only the product's styles, qualities, aspect ratios and IANA time zones", async () => {
    const user = await ctx.db.createUser();
    const set = (col: string, value: string) =>
      ctx.db.run(user, `update public.user_preferences set ${col} = $1 where user_id = $2`, [value, user.id]);
    expect(await sqlState(set("default_style", "vaporwave"))).toBe("23514");
    expect(await sqlState(set("default_quality", "best"))).toBe("23514");
    expect(await sqlState(set("default_aspect_ratio", "4:3"))).toBe("23514");
    expect(await sqlState(set("timezone", "Mars/Olympus_Mons"))).toBe("23514");
    expect(await sqlState(set("timezone", "posix/Europe/Paris"))).toBe("23514");
    expect(await sqlState(set("default_style", "3d-render"))).toBeNull();
    expect(await sqlState(set("timezone", "Australia/Lord_Howe"))).toBeNull();
  });
});
