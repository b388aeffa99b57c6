import { expect, it } from "vitest";
import { asRole } from "../../supabase/local/db.ts";
import { describeDb, sqlState } from "../support/db.ts";

// The local backend's asRole (supabase/local/db.ts), which the whole db tier runs through: each actor
// gets its role, its JWT claims and Supabase's per-role statement timeout, for one transaction only.
describeDb("acting as a role", (ctx) => {
  it("sets role, claims and statement timeout for each actor, inside the transaction only", async () => {
    const user = await ctx.db.createUser();
    const read = `select current_user::text as role, auth.uid()::text as uid,
                         current_setting('statement_timeout') as timeout`;
    expect(await ctx.db.run("anon", read)).toEqual([{ role: "anon", uid: null, timeout: "3s" }]);
    expect(await ctx.db.run(user, read)).toEqual([{ role: "authenticated", uid: user.id, timeout: "8s" }]);
    expect(await ctx.db.run("service", read)).toEqual([{ role: "service_role", uid: null, timeout: "0" }]);
    const [after] = await ctx.db.query(read);
    expect(after.role).not.toMatch(/^(anon|authenticated|service_role)$/);
  });

  it("refuses a role that is not one of the platform's before any SQL runs", async () => {
    let ran = false;
    await expect(
      asRole(ctx.db.db, { role: "postgres" }, async () => {
        ran = true;
      }),
    ).rejects.toThrow("unknown role postgres");
    expect(ran).toBe(false);
  });

  it("keeps claims holding quotes, backslashes and SQL exactly as given, and sets nothing else", async () => {
    const user = await ctx.db.createUser();
    const claims = {
      role: "authenticated",
      sub: user.id,
      email: "o'brien\\'); select set_config('role', 'service_role', true); --@example.com",
    };
    const [row] = await asRole(ctx.db.db, claims, async (tx) => {
      const read = `select current_user::text as role, current_setting('request.jwt.claims') as claims,
                           auth.uid()::text as uid, current_setting('transaction_read_only') as read_only`;
      return (await tx.query(read)).rows;
    });
    expect(row).toEqual({ role: "authenticated", claims: JSON.stringify(claims), uid: user.id, read_only: "off" });
  });

  it("runs read-only with the settings asked for, and refuses a write then", async () => {
    const user = await ctx.db.createUser();
    const opts = { readOnly: true, settings: { search_path: "auth, public" } };
    const read = "select current_setting('search_path') as path, current_setting('transaction_read_only') as ro";
    const [row] = await asRole(
      ctx.db.db,
      { role: "authenticated", sub: user.id },
      async (tx) => (await tx.query(read)).rows,
      opts,
    );
    expect(row).toEqual({ path: "auth, public", ro: "on" });
    const write = asRole(
      ctx.db.db,
      { role: "service_role" },
      (tx) => tx.query("create table public.never_made (x int)"),
      opts,
    );
    expect(await sqlState(write)).toBe("25006");
  });

  it("refuses a subject holding NUL as Postgres refuses such text", async () => {
    const run = asRole(ctx.db.db, { role: "authenticated", sub: "a\u0000b" }, (tx) => tx.query("select 1"));
    expect(await sqlState(run)).toBe("22021");
  });

  // PGlite runs on one thread with no timer to interrupt a statement: the setting is checked above.
  it.skipIf(ctx.kind === "pglite")(
    "cancels an anonymous statement that runs past its 3 s timeout",
    async () => {
      const started = Date.now();
      expect(await sqlState(ctx.db.run("anon", "select pg_sleep(3.5)"))).toBe("57014");
      expect(Date.now() - started).toBeLessThan(3400);
    },
    10_000,
  );
});
