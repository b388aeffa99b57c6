// The local backend's PostgreSQL pool outlives a connection the server ends: an idle connection
// terminated by the server (a restart, an administrator, a database dropped while the pool closes) is
// noted, not an uncaught error that ends the process, and the next query opens a new connection.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgres, type Db } from "../../supabase/local/db.ts";
import { ADMIN_URL, createDatabase, postgresAvailable } from "../support/postgres.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("a PostgreSQL connection ended by the server (needs PostgreSQL at 127.0.0.1:5432)", () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let db: Db;

  beforeAll(async () => {
    database = await createDatabase("pc_conn_loss");
    db = openPostgres(database.url, { poolSize: 2 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it("is noted and replaced: the next query answers", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const [{ pid }] = (await db.query<{ pid: number }>("select pg_backend_pid() as pid")).rows;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query("select pg_terminate_backend($1)", [pid]);
    await admin.end();
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("idle database connection ended")),
    );
    const [{ answer }] = (await db.query<{ answer: number }>("select 41 + 1 as answer")).rows;
    expect(answer).toBe(42);
    warn.mockRestore();
  });
});
