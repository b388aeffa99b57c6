// Engine health (migration 20261124000600): the generate function notes each engine call; anyone
// reads the last 24 hours as per-engine figures, and nobody but the function writes or reads a row.
import { beforeEach, expect, it } from "vitest";
import { describeDb, sqlState } from "../support/db.ts";

type Health = { provider: string; attempts: number; failures: number; p50_ms: number | null; p95_ms: number | null };

describeDb("engine health", (ctx) => {
  const note = (provider: string, ok: boolean, code: string | null, ms: number) =>
    ctx.db.run("service", "select public.record_engine_attempt($1, $2, $3, $4)", [provider, ok, code, ms]);
  const health = async (actor: "anon" | "service" = "anon") =>
    ctx.db.run<Health>(actor, "select * from public.engine_health()");

  beforeEach(async () => {
    await ctx.db.query("delete from private.engine_attempts");
  });

  it("gives each engine's calls, failures and p50/p95 time to image over the last 24 hours", async () => {
    for (let ms = 100; ms <= 2000; ms += 100) await note("builtin", true, null, ms); // 20 images
    await note("builtin", false, "server_error", 5);
    await note("builtin", false, "nsfw_content", 7); // moderation: a call, not a failure
    await note("replicate", false, "timeout", 110_000);
    // A call two days old is not shown.
    await ctx.db.query(
      "insert into private.engine_attempts (provider, ok, ms, at) values ('replicate', true, 1, now() - interval '2 days')",
    );
    expect(await health()).toEqual([
      { provider: "builtin", attempts: 22, failures: 1, p50_ms: 1050, p95_ms: 1905 },
      { provider: "replicate", attempts: 1, failures: 1, p50_ms: null, p95_ms: null },
    ]);
  });

  it("is readable by visitors and people, writable by the server only, and no single call is readable", async () => {
    const user = await ctx.db.createUser();
    expect(await ctx.db.run(user, "select * from public.engine_health()")).toEqual([]);
    expect(await sqlState(ctx.db.run("anon", "select public.record_engine_attempt('builtin', true, null, 1)"))).toBe(
      "42501",
    );
    expect(await sqlState(ctx.db.run(user, "select public.record_engine_attempt('builtin', true, null, 1)"))).toBe(
      "42501",
    );
    expect(await sqlState(ctx.db.run("anon", "select * from private.engine_attempts"))).toBe("42501");
    expect(await sqlState(ctx.db.run(user, "select * from private.engine_attempts"))).toBe("42501");
  });

  it("refuses what it cannot keep, and lets calls older than a week go", async () => {
    expect(await sqlState(note("", true, null, 1))).toBe("23514");
    expect(await sqlState(note("builtin", true, null, 4_000_000))).toBe("23514");
    await ctx.db.query(
      "insert into private.engine_attempts (provider, ok, ms, at) values ('builtin', true, 1, now() - interval '8 days')",
    );
    await note("builtin", true, null, 3);
    expect((await ctx.db.query<{ n: number }>("select count(*)::int as n from private.engine_attempts"))[0].n).toBe(1);
  });
});
