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
