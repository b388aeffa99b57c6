import { expect, it } from "vitest";
import { describeDb, sqlState, type TestUser } from "../support/db.ts";
import { setTier } from "./fixtures.ts";

type Limits = {
  generations_today: number;
  daily_limit: number;
  remaining: number;
  reset_at: string;
  tier: string;
  timezone: string;
};

describeDb("daily limits and tier quotas", (ctx) => {
  const limitsOf = async (user: TestUser) =>
    (await ctx.db.run<{ l: Limits }>(user, "select public.get_my_limits() as l"))[0].l;
  const rowOf = async (user: TestUser) =>
    (
      await ctx.db.query<{ generations_today: number; reset_at: Date; timezone: string; subscription_tier: string }>(
        "select generations_today, reset_at, timezone, subscription_tier from public.user_daily_limits where user_id = $1",
        [user.id],
      )
    )[0];
  /** True when reset_at is exactly the first local midnight of `tz` after the transaction's now(). */
  const isNextLocalMidnight = async (user: TestUser, tz: string) => {
    const [r] = await ctx.db.query<{ ok: boolean }>(
      `select (reset_at at time zone $2)::time = '00:00' and (reset_at at time zone $2)::date = (now() at time zone $2)::date + 1 as ok
       from public.user_daily_limits where user_id = $1`,
      [user.id, tz],
    );
    return r.ok;
  };

  it("starts a new account on the free tier with nothing used and a reset at the next UTC midnight", async () => {
    const user = await ctx.db.createUser();
    const limits = await limitsOf(user);
    expect(limits).toMatchObject({ generations_today: 0, daily_limit: 5, remaining: 5, tier: "free", timezone: "UTC" });
    expect(await isNextLocalMidnight(user, "UTC")).toBe(true);
    expect(new Date(limits.reset_at).getTime()).toBe((await rowOf(user)).reset_at.getTime());
  });

  it("uses the time zone given at sign-up, and UTC when it is not a real zone", async () => {
    const kolkata = await ctx.db.createUser({ metadata: { timezone: "Asia/Kolkata" } });
    expect((await rowOf(kolkata)).timezone).toBe("Asia/Kolkata");
    expect(await isNextLocalMidnight(kolkata, "Asia/Kolkata")).toBe(true);
    const bogus = await ctx.db.createUser({ metadata: { timezone: "Mars/Olympus_Mons" } });
    expect((await rowOf(bogus)).timezone).toBe("UTC");
  });

  it("recreates a missing limits row on the first check", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query("delete from public.user_daily_limits where user_id = $1", [user.id]);
    expect(await limitsOf(user)).toMatchObject({ generations_today: 0, remaining: 5, tier: "free" });
    expect(await rowOf(user)).toBeDefined();
  });

  it("is readable by its owner only", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    expect(await ctx.db.run(owner, "select user_id from public.user_daily_limits")).toEqual([{ user_id: owner.id }]);
    expect(await ctx.db.run(stranger, "select 1 from public.user_daily_limits where user_id = $1", [owner.id])).toEqual(
      [],
    );
    expect(await sqlState(ctx.db.run("anon", "select 1 from public.user_daily_limits"))).toBe("42501");
    expect(await sqlState(ctx.db.run("anon", "select public.get_my_limits()"))).toBe("42501");
  });

  it("cannot be written by clients, not even by its owner", async () => {
    const owner = await ctx.db.createUser();
    await ctx.db.query("update public.user_daily_limits set generations_today = 4 where user_id = $1", [owner.id]);
    const attempts = [
      () =>
        ctx.db.run(owner, "update public.user_daily_limits set generations_today = 0 where user_id = $1", [owner.id]),
      () =>
        ctx.db.run(owner, "update public.user_daily_limits set subscription_tier = 'premium' where user_id = $1", [
          owner.id,
        ]),
      () => ctx.db.run(owner, "update public.user_daily_limits set reset_at = now() where user_id = $1", [owner.id]),
      () => ctx.db.run(owner, "delete from public.user_daily_limits where user_id = $1", [owner.id]),
      () =>
        ctx.db.run(
          owner,
          "insert into public.user_daily_limits (user_id, reset_at) values ($1, now()) on conflict (user_id) do update set generations_today = 0",
          [owner.id],
        ),
      () => ctx.db.run("anon", "update public.user_daily_limits set generations_today = 0"),
    ];
    for (const attempt of attempts) expect(await sqlState(attempt())).toBe("42501");
    const fresh = await ctx.db.createUser();
    await ctx.db.query("delete from public.user_daily_limits where user_id = $1", [fresh.id]);
    expect(
      await sqlState(
        ctx.db.run(
          fresh,
          "insert into public.user_daily_limits (user_id, reset_at) values ($1, now() + interval '1 day')",
          [fresh.id],
        ),
      ),
    ).toBe("42501");
    expect((await rowOf(owner)).generations_today).toBe(4);
  });

  it("counts the caller's own generations and refuses anyone else's id", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    expect(await ctx.db.run(owner, "select public.increment_generation_count($1) as n", [owner.id])).toEqual([
      { n: 1 },
    ]);
    expect(await ctx.db.run(owner, "select public.increment_generation_count($1) as n", [owner.id])).toEqual([
      { n: 2 },
    ]);
    expect(await sqlState(ctx.db.run(stranger, "select public.increment_generation_count($1)", [owner.id]))).toBe(
      "42501",
    );
    expect(await sqlState(ctx.db.run("anon", "select public.increment_generation_count($1)", [owner.id]))).toBe(
      "42501",
    );
    expect(await sqlState(ctx.db.run("service", "select public.increment_generation_count($1)", [owner.id]))).toBe(
      "42501",
    );
    expect(await sqlState(ctx.db.run(owner, "select public.increment_generation_count(null)"))).toBe("42501");
    expect((await rowOf(owner)).generations_today).toBe(2);
    expect((await limitsOf(owner)).remaining).toBe(3);
  });

  it("keeps the count until reset_at", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query(
      "update public.user_daily_limits set generations_today = 3, reset_at = now() + interval '1 minute' where user_id = $1",
      [user.id],
    );
    expect(await limitsOf(user)).toMatchObject({ generations_today: 3, remaining: 2 });
  });

  for (const tz of ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Australia/Lord_Howe"]) {
    it(`resets at local midnight in ${tz}: count to 0, reset_at to the next local midnight`, async () => {
      const user = await ctx.db.createUser({ metadata: { timezone: tz } });
      await ctx.db.query(
        "update public.user_daily_limits set generations_today = 5, reset_at = now() - interval '3 hours' where user_id = $1",
        [user.id],
      );
      const limits = await limitsOf(user);
      expect(limits).toMatchObject({ generations_today: 0, remaining: 5, timezone: tz });
      expect(await isNextLocalMidnight(user, tz)).toBe(true);
      const row = await rowOf(user);
      expect(row.generations_today).toBe(0);
      expect(row.reset_at.getTime()).toBeGreaterThan(Date.now());
      expect(row.reset_at.getTime() - Date.now()).toBeLessThanOrEqual(25 * 3600_000);
    });
  }

  it("resets exactly when now() reaches reset_at", async () => {
    const user = await ctx.db.createUser();
    const [{ reset }] = await ctx.db.as(user, async (tx) => {
      await tx.query("reset role");
      await tx.query("update public.user_daily_limits set generations_today = 2, reset_at = now() where user_id = $1", [
        user.id,
      ]);
      await tx.query("set local role authenticated");
      return tx.query<{ reset: boolean }>("select (public.get_my_limits() ->> 'generations_today')::int = 0 as reset");
    });
    expect(reset).toBe(true);
  });

  it("takes a time-zone change from the next reset on, not before", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query("update public.user_daily_limits set generations_today = 5 where user_id = $1", [user.id]);
    const before = await rowOf(user);
    const [{ r }] = await ctx.db.run<{ r: { timezone: string; applies_from: string } }>(
      user,
      "select public.set_my_timezone('Pacific/Chatham') as r",
    );
    expect(r.timezone).toBe("Pacific/Chatham");
    expect(new Date(r.applies_from).getTime()).toBe(before.reset_at.getTime());
    expect(await rowOf(user)).toEqual(before);
    expect(await limitsOf(user)).toMatchObject({ remaining: 0, timezone: "UTC" });
    expect(await ctx.db.run(user, "select timezone from public.user_preferences")).toEqual([
      { timezone: "Pacific/Chatham" },
    ]);

    await ctx.db.query("update public.user_daily_limits set reset_at = now() - interval '2 days' where user_id = $1", [
      user.id,
    ]);
    expect(await limitsOf(user)).toMatchObject({ generations_today: 0, remaining: 5, timezone: "Pacific/Chatham" });
    expect(await isNextLocalMidnight(user, "Pacific/Chatham")).toBe(true);
  });

  it("does not let a zone change start a fresh window sooner than 20 hours after the last reset", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query(
      "update public.user_daily_limits set generations_today = 5, reset_at = now() - interval '1 second' where user_id = $1",
      [user.id],
    );
    const [{ previous }] = await ctx.db.query<{ previous: Date }>(
      "select reset_at as previous from public.user_daily_limits where user_id = $1",
      [user.id],
    );
    await ctx.db.run(user, "select public.set_my_timezone('Pacific/Kiritimati')");
    await limitsOf(user);
    const row = await rowOf(user);
    expect(row.timezone).toBe("Pacific/Kiritimati");
    expect(row.reset_at.getTime() - previous.getTime()).toBeGreaterThanOrEqual(20 * 3600_000);
    const [{ midnight }] = await ctx.db.query<{ midnight: boolean }>(
      "select ($1::timestamptz at time zone 'Pacific/Kiritimati')::time = '00:00' as midnight",
      [row.reset_at],
    );
    expect(midnight).toBe(true);
  });

  it("refuses names that are not IANA time zones", async () => {
    const user = await ctx.db.createUser();
    for (const bad of ["Mars/Olympus_Mons", "posixrules", "localtime", "right/UTC", "+05:30", "", "UTC+3"]) {
      expect(await sqlState(ctx.db.run(user, "select public.set_my_timezone($1)", [bad])), bad).toBe("22023");
    }
    expect(await sqlState(ctx.db.run(user, "select public.set_my_timezone(null)"))).toBe("22023");
    expect(await sqlState(ctx.db.run("anon", "select public.set_my_timezone('UTC')"))).toBe("42501");
    for (const good of ["Europe/Paris", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "UTC"]) {
      expect(await sqlState(ctx.db.run(user, "select public.set_my_timezone($1)", [good])), good).toBeNull();
    }
  });

  it("takes the daily limit from the subscription tier", async () => {
    const user = await ctx.db.createUser();
    await setTier(ctx.db, user.id, "pro", 10);
    expect(await limitsOf(user)).toMatchObject({ tier: "pro", daily_limit: 999, remaining: 989 });
    await ctx.db.run(
      "service",
      "update public.user_daily_limits set subscription_tier = 'premium' where user_id = $1",
      [user.id],
    );
    expect(await limitsOf(user)).toMatchObject({ tier: "premium", daily_limit: 9999 });
    expect(
      await sqlState(
        ctx.db.run("service", "update public.user_daily_limits set subscription_tier = 'gold' where user_id = $1", [
          user.id,
        ]),
      ),
    ).toBe("23503");
  });

  it("defines tier quotas free 5, pro 999 and premium 9999, readable by anyone", async () => {
    const expected = [
      { tier: "free", daily_limit: 5 },
      { tier: "premium", daily_limit: 9999 },
      { tier: "pro", daily_limit: 999 },
    ];
    expect(await ctx.db.run("anon", "select tier, daily_limit from public.tier_quotas order by tier")).toEqual(
      expected,
    );
    const user = await ctx.db.createUser();
    expect(await ctx.db.run(user, "select tier, daily_limit from public.tier_quotas order by tier")).toEqual(expected);
  });

  it("keeps tier quotas out of reach of every API role, even the service key", async () => {
    const user = await ctx.db.createUser();
    for (const actor of ["anon", user, "service"] as const) {
      expect(await sqlState(ctx.db.run(actor, "update public.tier_quotas set daily_limit = 100000"))).toBe("42501");
      expect(
        await sqlState(ctx.db.run(actor, "insert into public.tier_quotas (tier, daily_limit) values ('free', 1)")),
      ).toBe("42501");
      expect(await sqlState(ctx.db.run(actor, "delete from public.tier_quotas"))).toBe("42501");
    }
  });
});
