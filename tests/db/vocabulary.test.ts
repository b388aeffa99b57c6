import { expect, it } from "vitest";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { TIER_DAILY_QUOTA, TIERS } from "#shared/vocabulary/tiers.ts";
import { describeDb } from "../support/db.ts";

// Where SQL repeats a list of the shared vocabulary, the database must say exactly what the vocabulary
// says: a style or a tier quota changed on one side only fails here.
describeDb("SQL equals the vocabulary", (ctx) => {
  it("public.is_style_id accepts every style id of the vocabulary", async () => {
    const rows = await ctx.db.query<{ id: string; ok: boolean }>(
      `select id, public.is_style_id(id) as ok from unnest($1::text[]) as id`,
      [STYLE_IDS],
    );
    expect(rows.filter((r) => !r.ok).map((r) => r.id)).toEqual([]);
    expect(rows).toHaveLength(STYLE_IDS.length);
  });

  it("public.is_style_id accepts nothing else", async () => {
    // The function's own list, read from its definition, must be the vocabulary's list, no more.
    const [{ definition }] = await ctx.db.query<{ definition: string }>(
      `select pg_get_functiondef('public.is_style_id(text)'::regprocedure) as definition`,
    );
    const listed = [...definition.matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1]).filter((s) => s !== "");
    expect([...new Set(listed)].sort()).toEqual([...STYLE_IDS].sort());
    const others = ["", "Anime", "anime ", " anime", "banana", "photo-realistic", "3d"];
    const rows = await ctx.db.query<{ ok: boolean | null }>(
      `select public.is_style_id(x) as ok from unnest($1::text[]) as x`,
      [others],
    );
    expect(rows.map((r) => r.ok)).toEqual(others.map(() => false));
    const [nullStyle] = await ctx.db.query<{ ok: boolean }>(`select public.is_style_id(null) as ok`);
    expect(nullStyle.ok).toBe(false);
  });

  it("public.tier_quotas holds exactly the vocabulary's daily quota per tier", async () => {
    const rows = await ctx.db.query<{ tier: string; daily_limit: number }>(
      `select tier, daily_limit from public.tier_quotas order by tier`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.tier, r.daily_limit]))).toEqual(TIER_DAILY_QUOTA);
    expect(rows.map((r) => r.tier).sort()).toEqual([...TIERS].sort());
  });
});
