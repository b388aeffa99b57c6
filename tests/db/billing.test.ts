// The billing tables and the tier they set (decision 148): a subscription is its owner's to read and the
// server's alone to write, Stripe ids are never readable by a client, the tier is written only through
// the service's sync, and a paid tier falls back to free on its own once its paid time has passed.
import { expect, it } from "vitest";
import { describeDb, sqlState, type TestUser, usersOf } from "../support/db.ts";

type Limits = { tier: string; daily_limit: number; remaining: number };

const HOUR_MS = 3_600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** A subscription as the sync hands it to billing_apply_subscription. */
function paid(plan: "creator" | "pro", paidUntilMs: number, extra: Record<string, unknown> = {}) {
  return {
    status: "active",
    plan,
    tier: plan === "creator" ? "pro" : "premium",
    current_period_end: iso(paidUntilMs),
    cancel_at_period_end: false,
    ends_at: null,
    grace_until: null,
    paid_until: iso(paidUntilMs),
    ...extra,
  };
}

describeDb("billing tables and the paid tier", (ctx) => {
  const [owner, stranger] = usersOf(ctx, 2);
  const apply = async (user: TestUser, sub: object | null, syncedAt = new Date().toISOString()) =>
    (
      await ctx.db.run<{ r: Limits & { applied: boolean } }>(
        "service",
        "select public.billing_apply_subscription($1, $2::jsonb, $3) as r",
        [user.id, sub === null ? null : JSON.stringify(sub), syncedAt],
      )
    )[0].r;
  const limitsOf = async (user: TestUser) =>
    (await ctx.db.run<{ l: Limits }>(user, "select public.get_my_limits() as l"))[0].l;

  it("puts the person on the plan's tier and keeps the subscription row readable by its owner only", async () => {
    expect(await apply(owner, paid("creator", 30 * 24 * HOUR_MS))).toMatchObject({ tier: "pro", daily_limit: 999 });
    expect(await limitsOf(owner)).toMatchObject({ tier: "pro", daily_limit: 999 });
    expect(await ctx.db.run(owner, "select plan, tier, status from public.subscriptions")).toEqual([
      { plan: "creator", tier: "pro", status: "active" },
    ]);
    expect(await ctx.db.run(stranger, "select 1 from public.subscriptions where user_id = $1", [owner.id])).toEqual([]);
    expect(await sqlState(ctx.db.run("anon", "select 1 from public.subscriptions"))).toBe("42501");
  });

  it("lets no client write a subscription, the tier or the sync", async () => {
    await apply(owner, paid("creator", 30 * 24 * HOUR_MS));
    const attempts: [string, unknown[]][] = [
      ["update public.subscriptions set tier = 'premium' where user_id = $1", [owner.id]],
      [
        "insert into public.subscriptions (user_id, status, plan, tier, synced_at) values ($1, 'active', 'pro', 'premium', now())",
        [stranger.id],
      ],
      ["delete from public.subscriptions where user_id = $1", [owner.id]],
      ["update public.user_daily_limits set subscription_tier = 'premium' where user_id = $1", [owner.id]],
      ["update public.user_daily_limits set subscription_tier_until = null where user_id = $1", [owner.id]],
      ["select public.billing_apply_subscription($1, null, now())", [owner.id]],
    ];
    for (const [sql, params] of attempts) {
      expect(await sqlState(ctx.db.run(owner, sql, params)), sql).toBe("42501");
      expect(await sqlState(ctx.db.run("anon", sql, params)), sql).toBe("42501");
    }
    expect(await limitsOf(owner)).toMatchObject({ tier: "pro" });
  });

  it("keeps Stripe customers and events from every client role", async () => {
    await ctx.db.run("service", "insert into public.billing_customers (user_id, stripe_customer_id) values ($1, $2)", [
      owner.id,
      `cus_${owner.id.slice(0, 8)}`,
    ]);
    await ctx.db.run("service", "insert into public.stripe_events (id, type) values ($1, 'invoice.paid')", [
      `evt_${owner.id.slice(0, 8)}`,
    ]);
    for (const table of ["billing_customers", "stripe_events"]) {
      expect(await sqlState(ctx.db.run(owner, `select 1 from public.${table}`)), table).toBe("42501");
      expect(await sqlState(ctx.db.run("anon", `select 1 from public.${table}`)), table).toBe("42501");
    }
    expect(
      await sqlState(
        ctx.db.run(owner, "insert into public.billing_customers (user_id, stripe_customer_id) values ($1, 'cus_x')", [
          owner.id,
        ]),
      ),
    ).toBe("42501");
  });

  it("falls back to free once the paid time has passed, with no event and no sync", async () => {
    const user = await ctx.db.createUser();
    await apply(user, paid("pro", 24 * HOUR_MS, { cancel_at_period_end: true, ends_at: iso(24 * HOUR_MS) }));
    expect(await limitsOf(user)).toMatchObject({ tier: "premium", daily_limit: 9999 });
    // The period's end comes (the clock is the database's, so the end is moved instead).
    await ctx.db.query(
      "update public.user_daily_limits set subscription_tier_until = now() - interval '1 second' where user_id = $1",
      [user.id],
    );
    expect(await limitsOf(user)).toMatchObject({ tier: "free", daily_limit: 5 });
    const [row] = await ctx.db.query(
      "select subscription_tier, subscription_tier_until from public.user_daily_limits where user_id = $1",
      [user.id],
    );
    expect(row).toEqual({ subscription_tier: "free", subscription_tier_until: null });
  });

  it("gives a grace period's tier after a failed renewal and free once it is over", async () => {
    const user = await ctx.db.createUser();
    const grace = iso(7 * 24 * HOUR_MS);
    await apply(user, paid("creator", 7 * 24 * HOUR_MS, { status: "past_due", grace_until: grace }));
    expect(await limitsOf(user)).toMatchObject({ tier: "pro" });
    await apply(user, paid("creator", -HOUR_MS, { status: "past_due", grace_until: iso(-HOUR_MS) }));
    expect(await limitsOf(user)).toMatchObject({ tier: "free" });
    expect(await ctx.db.run(user, "select status from public.subscriptions")).toEqual([{ status: "past_due" }]);
  });

  it("lets a sync that read Stripe earlier change nothing after a later one", async () => {
    const user = await ctx.db.createUser();
    const later = new Date().toISOString();
    const earlier = new Date(Date.now() - 60_000).toISOString();
    expect((await apply(user, paid("pro", 30 * 24 * HOUR_MS), later)).applied).toBe(true);
    const stale = await apply(
      user,
      { ...paid("creator", 30 * 24 * HOUR_MS), status: "canceled", paid_until: null },
      earlier,
    );
    expect(stale).toMatchObject({ applied: false, tier: "premium" });
    expect(await ctx.db.run(user, "select plan, status from public.subscriptions")).toEqual([
      { plan: "pro", status: "active" },
    ]);
  });

  it("returns to free and forgets the row when the customer has no subscription", async () => {
    const user = await ctx.db.createUser();
    await apply(user, paid("creator", 30 * 24 * HOUR_MS));
    expect(await apply(user, null)).toMatchObject({ tier: "free", applied: true });
    expect(await ctx.db.query("select 1 from public.subscriptions where user_id = $1", [user.id])).toEqual([]);
  });

  it("leaves a tier it did not give alone when the customer never subscribed", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query("update public.user_daily_limits set subscription_tier = 'premium' where user_id = $1", [
      user.id,
    ]);
    expect(await apply(user, null)).toMatchObject({ tier: "premium", applied: false });
    expect(await limitsOf(user)).toMatchObject({ tier: "premium" });
  });

  it("rewrites the subscription row only when the read changed it, and refuses a stale read after it is gone", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.run("service", "insert into public.billing_customers (user_id, stripe_customer_id) values ($1, $2)", [
      user.id,
      `cus_${user.id.slice(0, 12)}`,
    ]);
    const sub = paid("creator", 30 * 24 * HOUR_MS);
    await apply(user, sub);
    const stamp = async () =>
      (await ctx.db.query("select updated_at from public.subscriptions where user_id = $1", [user.id]))[0]?.updated_at;
    const first = await stamp();
    await apply(user, sub);
    expect(await stamp()).toEqual(first);
    const gone = new Date().toISOString();
    await apply(user, null, gone);
    const stale = new Date(Date.parse(gone) - 1000).toISOString();
    expect(await apply(user, sub, stale)).toMatchObject({ applied: false, tier: "free" });
    expect(await ctx.db.query("select 1 from public.subscriptions where user_id = $1", [user.id])).toEqual([]);
  });

  it("is in the realtime publication, so every device hears a change of plan", async () => {
    const rows = await ctx.db.query(
      "select 1 from pg_publication_tables where pubname = 'supabase_realtime' and tablename = 'subscriptions'",
    );
    expect(rows).toHaveLength(1);
  });
});
