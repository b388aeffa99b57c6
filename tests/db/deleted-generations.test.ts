// A generation the person deleted stays deleted (migration 20261124000700): a late retry of its
// request id reserves nothing and stores nothing, so it is neither redrawn nor charged twice.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeDb } from "../support/db.ts";
import { generationFor, quotaLedger } from "./fixtures.ts";

describeDb("deleted generations stay deleted", (ctx) => {
  const { reserve, record, used, held } = quotaLedger(ctx);

  it("a retry of a deleted generation's request id reserves nothing, stores nothing and charges nothing", async () => {
    const user = await ctx.db.createUser();
    const id = randomUUID();
    expect((await reserve(user, id)).allowed).toBe(true);
    expect((await record(generationFor(user, { id }))).created).toBe(true);
    expect(await used(user)).toBe(1);
    await ctx.db.run(user, "delete from public.generations where id = $1", [id]);

    const again = await reserve(user, id);
    expect(again).toMatchObject({ allowed: false, deleted: true });
    expect(await held(user)).toBe(0);
    expect(await record(generationFor(user, { id }))).toEqual({ created: false, deleted: true });
    expect(await ctx.db.query("select id from public.generations where id = $1", [id])).toEqual([]);
    expect(await used(user)).toBe(1);
  });

  it("another person's deleted id is not theirs to be told about, and a new id is unaffected", async () => {
    const alice = await ctx.db.createUser();
    const bob = await ctx.db.createUser();
    const id = randomUUID();
    await reserve(alice, id);
    await record(generationFor(alice, { id }));
    await ctx.db.run(alice, "delete from public.generations where id = $1", [id]);
    expect((await reserve(bob, id)).deleted).toBeUndefined();
    expect((await reserve(alice, randomUUID())).deleted).toBeUndefined();
  });

  it("deleting an account removes its generations without remembering them", async () => {
    const leaving = await ctx.db.createUser();
    const id = randomUUID();
    await reserve(leaving, id);
    await record(generationFor(leaving, { id }));
    await ctx.db.query("delete from auth.users where id = $1", [leaving.id]);
    expect(await ctx.db.query("select id from private.generation_tombstones where user_id = $1", [leaving.id])).toEqual(
      [],
    );
  });
});
