import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeDb, sqlState, type TestUser, usersOf } from "../support/db.ts";
import { insertAs } from "./fixtures.ts";

describeDb("app events and web vitals", (ctx) => {
  const [owner, stranger] = usersOf(ctx, 2);

  it("records an event of the signed-in user, and replays of it once", async () => {
    const id = randomUUID();
    await insertAs(ctx.db, owner, "app_events", {
      id,
      user_id: owner.id,
      name: "generation.started",
      metadata: { style: "anime" },
    });
    await ctx.db.run(
      owner,
      "insert into public.app_events (id, user_id, name) values ($1, $2, 'generation.started') on conflict do nothing",
      [id, owner.id],
    );
    await insertAs(ctx.db, owner, "app_events", { name: "page.viewed" });
    const rows = await ctx.db.query("select name, metadata from public.app_events where user_id = $1 order by name", [
      owner.id,
    ]);
    expect(rows).toEqual([
      { name: "generation.started", metadata: { style: "anime" } },
      { name: "page.viewed", metadata: {} },
    ]);
  });

  it("lets a resend of a stored id go quietly (no 409 to log), and tells no one whose id it was", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    const id = randomUUID();
    await insertAs(ctx.db, owner, "app_events", { id, user_id: owner.id, name: "first" });
    await insertAs(ctx.db, owner, "app_events", { id, user_id: owner.id, name: "resent" });
    await insertAs(ctx.db, stranger, "app_events", { id, user_id: stranger.id, name: "guessed" });
    const vital = randomUUID();
    const row = { id: vital, user_id: owner.id, name: "LCP", value: 1200, metric_id: "m", delta: 1200 };
    await insertAs(ctx.db, owner, "web_vitals", row);
    await insertAs(ctx.db, owner, "web_vitals", { ...row, value: 9999 });
    expect(await ctx.db.query("select user_id, name from public.app_events where id = $1", [id])).toEqual([
      { user_id: owner.id, name: "first" },
    ]);
    expect(await ctx.db.query("select value from public.web_vitals where id = $1", [vital])).toEqual([{ value: 1200 }]);
  });

  it("refuses events from anon, for someone else, or that are malformed", async () => {
    expect(await sqlState(insertAs(ctx.db, "anon", "app_events", { user_id: owner.id, name: "x" }))).toBe("42501");
    expect(await sqlState(insertAs(ctx.db, stranger, "app_events", { user_id: owner.id, name: "x" }))).toBe("42501");
    expect(await sqlState(insertAs(ctx.db, owner, "app_events", { user_id: owner.id, name: "" }))).toBe("23514");
    expect(
      await sqlState(insertAs(ctx.db, owner, "app_events", { user_id: owner.id, name: "x", metadata: [1, 2] })),
    ).toBe("23514");
    expect(
      await sqlState(
        insertAs(ctx.db, owner, "app_events", { user_id: owner.id, name: "x", metadata: { blob: "z".repeat(9000) } }),
      ),
    ).toBe("23514");
    expect(
      await sqlState(insertAs(ctx.db, owner, "app_events", { user_id: owner.id, name: "x", created_at: "2000-01-01" })),
    ).toBe("42501");
  });

  it("keeps events write-only for clients", async () => {
    for (const actor of ["anon", owner] as const) {
      expect(await sqlState(ctx.db.run(actor, "select * from public.app_events"))).toBe("42501");
      expect(await sqlState(ctx.db.run(actor, "update public.app_events set name = 'y'"))).toBe("42501");
      expect(await sqlState(ctx.db.run(actor, "delete from public.app_events"))).toBe("42501");
    }
    expect(
      (
        await ctx.db.run("service", "select count(*)::int as n from public.app_events where user_id = $1", [owner.id])
      )[0].n,
    ).toBe(2);
  });

  it("rates web vitals with the thresholds of the spec", async () => {
    const cases: [string, number, string][] = [
      ["FCP", 1800, "good"],
      ["FCP", 1800.5, "needs-improvement"],
      ["FCP", 3000, "needs-improvement"],
      ["FCP", 3001, "poor"],
      ["CLS", 0, "good"],
      ["CLS", 0.1, "good"],
      ["CLS", 0.11, "needs-improvement"],
      ["CLS", 0.25, "needs-improvement"],
      ["CLS", 0.26, "poor"],
      ["INP", 200, "good"],
      ["INP", 201, "needs-improvement"],
      ["INP", 500, "needs-improvement"],
      ["INP", 501, "poor"],
      ["LCP", 2500, "good"],
      ["LCP", 2501, "needs-improvement"],
      ["LCP", 4000, "needs-improvement"],
      ["LCP", 4001, "poor"],
      ["FID", 100, "good"],
      ["FID", 101, "needs-improvement"],
      ["FID", 300, "needs-improvement"],
      ["FID", 301, "poor"],
    ];
    const ids: string[] = [];
    for (const [name, value] of cases) {
      const id = randomUUID();
      ids.push(id);
      await insertAs(ctx.db, owner, "web_vitals", {
        id,
        user_id: owner.id,
        name,
        value,
        metric_id: `v4-${id}`,
        delta: value,
      });
    }
    const rows = await ctx.db.run<{ id: string; rating: string }>(
      "service",
      "select id, rating from public.web_vitals where id = any($1::uuid[])",
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r.rating]));
    expect(cases.map(([name, value], i) => `${name} ${value} ${byId.get(ids[i])}`)).toEqual(
      cases.map(([n, v, r]) => `${n} ${v} ${r}`),
    );
  });

  it("refuses unknown metrics, impossible values, a client-chosen rating and other people's ids", async () => {
    const base = { user_id: owner.id, name: "LCP", value: 1000 };
    expect(await sqlState(insertAs(ctx.db, owner, "web_vitals", { ...base, name: "TTFB" }))).toBe("23514");
    expect(await sqlState(insertAs(ctx.db, owner, "web_vitals", { ...base, value: -1 }))).toBe("23514");
    expect(
      await sqlState(
        ctx.db.run(owner, "insert into public.web_vitals (user_id, name, value) values ($1, 'LCP', 'NaN')", [owner.id]),
      ),
    ).toBe("23514");
    expect(
      await sqlState(
        ctx.db.run(owner, "insert into public.web_vitals (user_id, name, value) values ($1, 'LCP', 'Infinity')", [
          owner.id,
        ]),
      ),
    ).toBe("23514");
    // The rating is computed from the value by the database, never sent.
    await expect(insertAs(ctx.db, owner, "web_vitals", { ...base, rating: "good" })).rejects.toMatchObject({
      code: "428C9",
      message: 'cannot insert a non-DEFAULT value into column "rating"',
    });
    expect(await sqlState(insertAs(ctx.db, stranger, "web_vitals", base))).toBe("42501");
    expect(await sqlState(insertAs(ctx.db, "anon", "web_vitals", base))).toBe("42501");
    expect(await sqlState(ctx.db.run(owner, "select * from public.web_vitals"))).toBe("42501");
    expect(await sqlState(ctx.db.run(owner, "delete from public.web_vitals"))).toBe("42501");
  });

  it("takes at most 100 rows a statement (PT413) and 600 a person a minute (PT429), as owner, stranger and server", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    const events = (n: number) =>
      `insert into public.app_events (name) select 'burst.' || i from generate_series(1, ${n}) as i`;
    const vitals = (n: number) =>
      `insert into public.web_vitals (name, value) select 'LCP', i from generate_series(1, ${n}) as i`;
    const count = async (table: string, who: TestUser) =>
      Number((await ctx.db.query(`select count(*) as n from public.${table} where user_id = $1`, [who.id]))[0].n);
    for (const [table, insert] of [
      ["app_events", events],
      ["web_vitals", vitals],
    ] as const) {
      expect(await sqlState(ctx.db.run(owner, insert(101)))).toBe("PT413");
      expect(await count(table, owner)).toBe(0); // refused whole
      for (let i = 0; i < 6; i++) await ctx.db.run(owner, insert(100));
      expect(await sqlState(ctx.db.run(owner, insert(1)))).toBe("PT429");
      expect(await count(table, owner)).toBe(600);
      // Another person's minute is their own.
      await ctx.db.run(stranger, insert(100));
      expect(await count(table, stranger)).toBe(100);
      // The server is bounded per statement only.
      expect(
        await sqlState(
          ctx.db.run(
            "service",
            insert(101).replace("(name", "(user_id, name").replace("select ", `select '${owner.id}'::uuid, `),
          ),
        ),
      ).toBe("PT413");
      await ctx.db.run(
        "service",
        insert(100).replace("(name", "(user_id, name").replace("select ", `select '${owner.id}'::uuid, `),
      );
      expect(await count(table, owner)).toBe(700);
    }
  });
});
