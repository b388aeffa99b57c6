// Defence in depth in the local backend's PGlite wrapper (supabase/local/db.ts): a statement that
// breaks the WebAssembly instance (json nested 10,000 deep overflows its stack: PGlite then answers
// neither rows nor an error, and the next error never returns) must not wedge the server. The wrapper
// answers 57P01 (503) and re-opens the database from its data directory; in memory it fails fast.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "../../supabase/local/db.ts";
import { allowConsoleError } from "../support/console-guard.ts";

const deep = "[".repeat(10_000) + "]".repeat(10_000);
const dirs: string[] = [];
/** What the wrapper logs when it finds its instance broken, as these tests break it on purpose. */
const allowBroken = () =>
  allowConsoleError(
    /PGlite instance broken/,
    "the test breaks the instance on purpose; the wrapper says so as it recovers",
  );
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("PGlite after a statement that breaks its instance", () => {
  it("answers 57P01, then re-opens from its data directory with the data intact", async () => {
    allowBroken();
    const dir = mkdtempSync(join(tmpdir(), "pc-recovery-"));
    dirs.push(dir);
    const db: Db = await openDb({ dataDir: dir });
    try {
      await db.exec("create table kept (x int); insert into kept values (42)");
      await expect(db.query("select $1::jsonb is null as n", [deep])).rejects.toMatchObject({ code: "57P01" });
      // The error that wedged the old instance now comes back as Postgres' own, promptly.
      const started = Date.now();
      await expect(db.query("select 'x'::uuid")).rejects.toMatchObject({ code: "22P02" });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await db.query("select x from kept")).rows).toEqual([{ x: 42 }]);
      await expect(db.transaction((tx) => tx.query("select 1 as one"))).resolves.toEqual({ rows: [{ one: 1 }] });
    } finally {
      await db.close();
    }
  }, 60_000);

  it("in memory, with nothing to re-open, fails fast instead of hanging", async () => {
    allowBroken();
    const db = await openDb({});
    await expect(db.query("select $1::jsonb is null as n", [deep])).rejects.toMatchObject({ code: "57P01" });
    await expect(db.query("select 'x'::uuid")).rejects.toMatchObject({ code: "57P01" });
  }, 60_000);

  it("passes parameters as text, so a bad boolean is Postgres' 22P02 as on PostgreSQL", async () => {
    const db = await openDb({});
    try {
      await expect(db.query("select $1::boolean as b", ["maybe"])).rejects.toMatchObject({ code: "22P02" });
      expect((await db.query("select $1::boolean as b, $2::int as i", [true, 3])).rows).toEqual([{ b: true, i: 3 }]);
    } finally {
      await db.close();
    }
  });
});
