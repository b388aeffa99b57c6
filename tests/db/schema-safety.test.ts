import { expect, it } from "vitest";
import { describeDb } from "../support/db.ts";

// House rules every migration must keep (README.md, "Working on it"), checked on the catalog so a new table or
// function cannot slip through without them.
describeDb("schema safety", (ctx) => {
  it("enables row-level security on every table in public", async () => {
    const rows = await ctx.db.query<{ table: string }>(
      `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    );
    expect(rows).toEqual([]);
  });

  it("pins search_path to '' on every security definer function", async () => {
    const rows = await ctx.db.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private') and p.prosecdef
         and not coalesce('search_path=""' = any(p.proconfig), false)`,
    );
    expect(rows).toEqual([]);
  });

  it("lets only the service role run the quota functions, and no client role run private ones", async () => {
    const rows = await ctx.db.query<{ fn: string; anon: boolean; authenticated: boolean; service_role: boolean }>(
      `select p.oid::regprocedure::text as fn,
              has_function_privilege('anon', p.oid, 'execute') as anon,
              has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
              has_function_privilege('service_role', p.oid, 'execute') as service_role
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname in ('quota_reserve', 'quota_commit', 'quota_release', 'get_my_limits', 'set_my_timezone', 'increment_generation_count')
       order by 1`,
    );
    expect(rows).toEqual([
      { fn: "get_my_limits()", anon: false, authenticated: true, service_role: false },
      { fn: "increment_generation_count(uuid)", anon: false, authenticated: true, service_role: false },
      { fn: "quota_commit(uuid,uuid)", anon: false, authenticated: false, service_role: true },
      { fn: "quota_release(uuid,uuid)", anon: false, authenticated: false, service_role: true },
      { fn: "quota_reserve(uuid,uuid)", anon: false, authenticated: false, service_role: true },
      { fn: "set_my_timezone(text)", anon: false, authenticated: true, service_role: false },
    ]);
    const [schema] = await ctx.db.query(
      "select has_schema_privilege('anon', 'private', 'usage') as anon, has_schema_privilege('authenticated', 'private', 'usage') as authenticated",
    );
    expect(schema).toEqual({ anon: false, authenticated: false });
  });

  it("names every policy of ours as a sentence, one per table and operation", async () => {
    const rows = await ctx.db.query<{ table: string; cmd: string; n: number; names: string[] }>(
      `select tablename as table, cmd, count(*)::int as n, array_agg(policyname::text) as names from pg_policies
       where schemaname = 'public' or (schemaname = 'storage' and policyname ilike '%generation images%')
       group by tablename, cmd`,
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      expect(r.n, `${r.table} ${r.cmd}`).toBe(1);
      for (const name of r.names) expect(name).toMatch(/^[A-Z][a-z-]*( [a-z0-9-]+){3,}$/);
    }
  });
});
