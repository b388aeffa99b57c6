// Variations (decision 155, migration 20261126160000): record_generation stores the parent a generation
// varies and how; the parent is always the same person's (the server's own insert is refused otherwise);
// the owner reads the link, a stranger and a visitor see nothing of a private row, and no client can write
// it; a deleted parent leaves its variations unlinked, still saying how they were made.
import { expect, it } from "vitest";
import { describeDb, sqlState } from "../support/db.ts";
import { generationFor, quotaLedger } from "./fixtures.ts";

describeDb("variations", (ctx) => {
  const { reserve, record } = quotaLedger(ctx);

  /** A recorded generation of `user` (reserved first, as generate-image does); `over` may link a parent. */
  async function made(user: Parameters<typeof generationFor>[0], over: Record<string, unknown> = {}) {
    const row = generationFor(user, over);
    await reserve(user, row.id);
    return { row, recorded: await record(row) };
  }

  it("record_generation stores the parent and the kind, and the owner reads them", async () => {
    const owner = await ctx.db.createUser();
    const parent = await made(owner);
    const child = await made(owner, { parent_id: parent.row.id, variation: "subtle" });
    expect(child.recorded.row).toMatchObject({ parent_id: parent.row.id, variation: "subtle" });
    expect(parent.recorded.row).toMatchObject({ parent_id: null, variation: null });
    expect(
      await ctx.db.run(owner, "select id, variation from public.generations where parent_id = $1", [parent.row.id]),
    ).toEqual([{ id: child.row.id, variation: "subtle" }]);
  });

  it("refuses a parent that is another person's, one that does not exist, and a kind it does not know", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    const theirs = await made(stranger);
    expect(await sqlState(made(owner, { parent_id: theirs.row.id, variation: "strong" }))).toBe("23503");
    expect(await sqlState(made(owner, { parent_id: crypto.randomUUID(), variation: "strong" }))).toBe("23503");
    const mine = await made(owner);
    expect(await sqlState(made(owner, { parent_id: mine.row.id, variation: "wild" }))).toBe("23514");
    expect(await sqlState(made(owner, { parent_id: mine.row.id }))).toBe("23514");
    // Not even the service can move a link across two people afterwards.
    const child = await made(owner, { parent_id: mine.row.id, variation: "strong" });
    const moved = ctx.db.run("service", "update public.generations set parent_id = $2 where id = $1", [
      child.row.id,
      theirs.row.id,
    ]);
    expect(await sqlState(moved)).toBe("23503");
  });

  it("is invisible to strangers and visitors, and no client writes it", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    const parent = await made(owner);
    const other = await made(owner);
    const child = await made(owner, { parent_id: parent.row.id, variation: "strong" });
    const select = "select parent_id from public.generations where id = $1";
    expect(await ctx.db.run(stranger, select, [child.row.id])).toEqual([]);
    expect(await ctx.db.run("anon", select, [child.row.id])).toEqual([]);
    for (const actor of [owner, stranger]) {
      const update = ctx.db.run(actor, "update public.generations set parent_id = $2 where id = $1", [
        child.row.id,
        other.row.id,
      ]);
      expect(await sqlState(update)).toBe("42501");
    }
    expect(await sqlState(ctx.db.run(owner, "update public.generations set variation = 'subtle'"))).toBe("42501");
    expect(await ctx.db.run(owner, select, [child.row.id])).toEqual([{ parent_id: parent.row.id }]);
  });

  it("a deleted parent leaves its variations, unlinked, still saying how they were made", async () => {
    const owner = await ctx.db.createUser();
    const parent = await made(owner);
    const child = await made(owner, { parent_id: parent.row.id, variation: "subtle" });
    await ctx.db.run(owner, "delete from public.generations where id = $1", [parent.row.id]);
    expect(
      await ctx.db.run(owner, "select parent_id, variation from public.generations where id = $1", [child.row.id]),
    ).toEqual([{ parent_id: null, variation: "subtle" }]);
  });
});
