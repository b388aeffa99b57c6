// record_generation: the generation row and its quota charge in one transaction (migration
// 20261124000100). A crash between an insert and a separate commit can no longer leave an image uncharged.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeDb, sqlState, type TestUser } from "../support/db.ts";
import { generationFor, quotaLedger } from "./fixtures.ts";

describeDb("record_generation", (ctx) => {
  const { reserve, record, used, held } = quotaLedger(ctx);

  it("can be called with the service key only", async () => {
    const user = await ctx.db.createUser();
    const row = JSON.stringify(generationFor(user));
    expect(await sqlState(ctx.db.run("anon", "select public.record_generation($1::jsonb)", [row]))).toBe("42501");
    expect(await sqlState(ctx.db.run(user, "select public.record_generation($1::jsonb)", [row]))).toBe("42501");
    expect(await used(user)).toBe(0);
  });

  it("stores the row and charges its reservation in the same call", async () => {
    const user = await ctx.db.createUser();
    const row = generationFor(user);
    expect(await reserve(user, row.id)).toMatchObject({ allowed: true });
    const r = await record(row);
    expect(r).toMatchObject({ created: true, committed: true, quota: { generations_today: 1, remaining: 4 } });
    expect(r.row).toMatchObject({ id: row.id, user_id: user.id, prompt: row.prompt, is_saved: false });
    expect(r.row).not.toHaveProperty("search");
    expect(typeof r.row!.created_at).toBe("string");
    expect(await used(user)).toBe(1);
    expect(await held(user)).toBe(0);
  });

  it("charges nothing when the row already exists (a replay or a concurrent duplicate)", async () => {
    const user = await ctx.db.createUser();
    const row = generationFor(user);
    await reserve(user, row.id);
    await record(row);
    expect(await record(row)).toEqual({ created: false });
    expect(await used(user)).toBe(1);
  });

  it("rolls the charge back with the row when the row is refused", async () => {
    const user = await ctx.db.createUser();
    const row = generationFor(user, { prompt: "" });
    await reserve(user, row.id);
    expect(await sqlState(record(row))).toBe("23514");
    expect(await used(user)).toBe(0);
    expect(await held(user)).toBe(1);
    expect((await ctx.db.query("select 1 from public.generations where id = $1", [row.id])).length).toBe(0);
  });

  it("fails with a foreign key violation for a user who no longer exists", async () => {
    const row = generationFor({ id: randomUUID() } as TestUser);
    expect(await sqlState(record(row))).toBe("23503");
  });
});
