import { randomUUID } from "node:crypto";
import pg from "pg";
import { expect, it } from "vitest";
import { describeDb, sqlState } from "../support/db.ts";
import { generationFor, insertAs, quotaLedger, type QuotaState, setTier } from "./fixtures.ts";

describeDb("quota reservations", (ctx) => {
  const { reserve, commit, release, held, used } = quotaLedger(ctx);

  it("can be called with the service key only", async () => {
    const user = await ctx.db.createUser();
    for (const fn of ["quota_reserve", "quota_commit", "quota_release"]) {
      expect(await sqlState(ctx.db.run("anon", `select public.${fn}($1, $2)`, [user.id, randomUUID()])), fn).toBe(
        "42501",
      );
      expect(await sqlState(ctx.db.run(user, `select public.${fn}($1, $2)`, [user.id, randomUUID()])), fn).toBe(
        "42501",
      );
    }
    expect(await sqlState(ctx.db.run(user, "select * from public.quota_reservations"))).toBe("42501");
    expect(
      await sqlState(
        ctx.db.run(user, "insert into public.quota_reservations (request_id, user_id) values ($1, $2)", [
          randomUUID(),
          user.id,
        ]),
      ),
    ).toBe("42501");
    expect(await sqlState(ctx.db.run("anon", "delete from public.quota_reservations"))).toBe("42501");
  });

  it("reserves a slot, and a repeated reserve of the same request takes no second one", async () => {
    const user = await ctx.db.createUser();
    const id = randomUUID();
    expect(await reserve(user, id)).toMatchObject({
      allowed: true,
      remaining: 4,
      daily_limit: 5,
      generations_today: 0,
      tier: "free",
    });
    expect(await reserve(user, id)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await held(user)).toBe(1);
    expect((await ctx.db.run<{ l: QuotaState }>(user, "select public.get_my_limits() as l"))[0].l.remaining).toBe(4);
  });

  it("counts a committed reservation once, however often it is committed", async () => {
    const user = await ctx.db.createUser();
    const id = randomUUID();
    await reserve(user, id);
    expect(await commit(user, id)).toMatchObject({ committed: true, generations_today: 1, remaining: 4 });
    expect(await commit(user, id)).toMatchObject({ committed: false, generations_today: 1, remaining: 4 });
    expect(await held(user)).toBe(0);
    expect(await used(user)).toBe(1);
  });

  it("gives the slot back when generation fails, and ignores unknown or settled request ids", async () => {
    const user = await ctx.db.createUser();
    const id = randomUUID();
    expect(await reserve(user, id)).toMatchObject({ remaining: 4 });
    expect(await release(user, id)).toMatchObject({ released: true, remaining: 5 });
    expect(await release(user, id)).toMatchObject({ released: false, remaining: 5 });
    expect(await release(user, randomUUID())).toMatchObject({ released: false, remaining: 5 });
    expect(await commit(user, id)).toMatchObject({ committed: false, generations_today: 0 });
    const done = randomUUID();
    await reserve(user, done);
    await commit(user, done);
    expect(await release(user, done)).toMatchObject({ released: false, generations_today: 1, remaining: 4 });
  });

  it("takes no slot for a request whose generation is already stored", async () => {
    const user = await ctx.db.createUser();
    const row = generationFor(user);
    await reserve(user, row.id);
    await insertAs(ctx.db, "service", "generations", row);
    await commit(user, row.id);
    expect(await reserve(user, row.id)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await held(user)).toBe(0);
    expect(await commit(user, row.id)).toMatchObject({ committed: false, generations_today: 1 });
  });

  it("refuses once generations and live reservations reach the daily limit", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query("update public.user_daily_limits set generations_today = 3 where user_id = $1", [user.id]);
    expect(await reserve(user, randomUUID())).toMatchObject({ allowed: true, remaining: 1 });
    expect(await reserve(user, randomUUID())).toMatchObject({ allowed: true, remaining: 0 });
    expect(await reserve(user, randomUUID())).toMatchObject({ allowed: false, remaining: 0 });
    expect(await held(user)).toBe(2);
  });

  it("stops counting a reservation after 10 minutes, yet still counts it if it is committed later", async () => {
    const user = await ctx.db.createUser();
    const ids = Array.from({ length: 5 }, () => randomUUID());
    for (const id of ids) expect(await reserve(user, id)).toMatchObject({ allowed: true });
    expect(await reserve(user, randomUUID())).toMatchObject({ allowed: false });

    await ctx.db.query(
      "update public.quota_reservations set created_at = now() - interval '11 minutes' where user_id = $1",
      [user.id],
    );
    expect(await reserve(user, randomUUID())).toMatchObject({ allowed: true, remaining: 4 });
    expect(await commit(user, ids[0])).toMatchObject({ committed: true, generations_today: 1, remaining: 3 });
  });

  it("renews an expired reservation that is repeated, if there is room", async () => {
    const user = await ctx.db.createUser();
    const id = randomUUID();
    await reserve(user, id);
    await ctx.db.query(
      "update public.quota_reservations set created_at = now() - interval '11 minutes' where request_id = $1",
      [id],
    );
    expect(await reserve(user, id)).toMatchObject({ allowed: true, remaining: 4 });
    const [{ fresh }] = await ctx.db.query<{ fresh: boolean }>(
      "select created_at > now() - interval '1 minute' as fresh from public.quota_reservations where request_id = $1",
      [id],
    );
    expect(fresh).toBe(true);
  });

  it("refuses a request id another person holds, and missing arguments", async () => {
    const a = await ctx.db.createUser();
    const b = await ctx.db.createUser();
    const id = randomUUID();
    await reserve(a, id);
    expect(await sqlState(reserve(b, id))).toBe("23505");
    expect(await release(b, id)).toMatchObject({ released: false });
    expect(await commit(b, id)).toMatchObject({ committed: false });
    expect(await held(a)).toBe(1);
    expect(await sqlState(ctx.db.run("service", "select public.quota_reserve(null, $1)", [id]))).toBe("22004");
    expect(await sqlState(ctx.db.run("service", "select public.quota_reserve($1, null)", [a.id]))).toBe("22004");
  });

  it("applies the local-midnight reset before reserving", async () => {
    const user = await ctx.db.createUser();
    await ctx.db.query(
      "update public.user_daily_limits set generations_today = 5, reset_at = now() - interval '1 hour' where user_id = $1",
      [user.id],
    );
    expect(await reserve(user, randomUUID())).toMatchObject({ allowed: true, generations_today: 0, remaining: 4 });
  });

  it("gives exactly five of twenty concurrent requests when five slots are left", async () => {
    const user = await ctx.db.createUser();
    await setTier(ctx.db, user.id, "pro", 994);
    const ids = Array.from({ length: 20 }, () => randomUUID());
    let results: boolean[];
    if (ctx.db.url) {
      // Twenty separate connections, all connected before any of them asks, so they really race.
      const clients = ids.map(() => new pg.Client({ connectionString: ctx.db.url! }));
      await Promise.all(clients.map((c) => c.connect()));
      try {
        await Promise.all(clients.map((c) => c.query("set role service_role")));
        results = await Promise.all(
          clients.map(
            async (c, i) =>
              (await c.query("select (public.quota_reserve($1, $2) ->> 'allowed')::boolean as ok", [user.id, ids[i]]))
                .rows[0].ok,
          ),
        );
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    } else {
      results = await Promise.all(ids.map(async (id) => (await reserve(user, id)).allowed === true));
    }
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(await held(user)).toBe(5);
    const [{ l }] = await ctx.db.run<{ l: QuotaState }>(user, "select public.get_my_limits() as l");
    expect(l).toMatchObject({ remaining: 0, daily_limit: 999, generations_today: 994 });
  });

  it("gives one slot to twenty concurrent repeats of the same request", async () => {
    const user = await ctx.db.createUser();
    const id = randomUUID();
    let results: boolean[];
    if (ctx.db.url) {
      const clients = Array.from({ length: 20 }, () => new pg.Client({ connectionString: ctx.db.url! }));
      await Promise.all(clients.map((c) => c.connect()));
      try {
        await Promise.all(clients.map((c) => c.query("set role service_role")));
        results = await Promise.all(
          clients.map(
            async (c) =>
              (await c.query("select (public.quota_reserve($1, $2) ->> 'allowed')::boolean as ok", [user.id, id]))
                .rows[0].ok,
          ),
        );
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    } else {
      results = await Promise.all(Array.from({ length: 20 }, async () => (await reserve(user, id)).allowed === true));
    }
    expect(results.every(Boolean)).toBe(true);
    expect(await held(user)).toBe(1);
  });

  it("take_stale_reservations takes the 10-minute-old reservations without a row, and names the images they left", async () => {
    const a = await ctx.db.createUser();
    const b = await ctx.db.createUser();
    const [stale, young, recorded, theirs] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await reserve(a, stale);
    await reserve(a, young);
    await reserve(a, recorded);
    await reserve(b, theirs);
    const image = (user: { id: string }, id: string, ext = "png") => `${user.id}/${id}.${ext}`;
    for (const name of [image(a, stale, "webp"), image(a, young), image(a, recorded), image(b, theirs)]) {
      await ctx.db.query(
        `insert into storage.objects (bucket_id, name, metadata) values ('generations', $1, '{"mimetype":"image/png"}')`,
        [name],
      );
    }
    await ctx.db.query(
      "update public.quota_reservations set created_at = now() - interval '11 minutes' where request_id = any($1::uuid[])",
      [[stale, recorded, theirs]],
    );
    // A row stored without its charge still holds its reservation (quota_commit settles it): it is not taken.
    await insertAs(
      ctx.db,
      "service",
      "generations",
      generationFor(a, { id: recorded, image_path: image(a, recorded) }),
    );
    for (const role of ["anon", a] as const) {
      expect(await sqlState(ctx.db.run(role, "select public.take_stale_reservations($1)", [a.id]))).toBe("42501");
    }
    const take = async (user: { id: string }) =>
      (
        await ctx.db.run<{ name: string }>("service", "select public.take_stale_reservations($1) as name", [user.id])
      ).map((r) => r.name);
    expect(await take(a)).toEqual([image(a, stale, "webp")]);
    const left = await ctx.db.query<{ request_id: string }>(
      "select request_id::text from public.quota_reservations where user_id = $1 order by request_id",
      [a.id],
    );
    expect(left.map((r) => r.request_id).sort()).toEqual([young, recorded].sort());
    // Taken once: a second sweep finds nothing, and the other person's is theirs to sweep.
    expect(await take(a)).toEqual([]);
    expect(await take(b)).toEqual([image(b, theirs)]);
    // The request, repeated, reserves again.
    expect(await reserve(a, stale)).toMatchObject({ allowed: true });
  });
});
