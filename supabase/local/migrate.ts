// Applies the platform bootstrap, then each migration in name order, each once and in its own
// transaction. Runtime-neutral: the caller reads the SQL files (Deno for the server, Node for the
// test tiers) and hands their text here, so both run this one runner.
import type { Db } from "./db.ts";

export interface SqlFile {
  /** File name, e.g. 20240101000000_init.sql; the part before the first "_" is the version. */
  name: string;
  sql: string;
}

export async function bootstrap(db: Db, sql: string): Promise<void> {
  await db.exec(sql);
}

/** Applies the migrations not yet recorded in local.schema_migrations; answers the names applied. */
export async function migrate(db: Db, files: SqlFile[]): Promise<string[]> {
  const sorted = files.filter((f) => f.name.endsWith(".sql")).sort((a, b) => (a.name < b.name ? -1 : 1));
  const applied = new Set(
    (await db.query<{ version: string }>("select version from local.schema_migrations")).rows.map((r) => r.version),
  );
  const done: string[] = [];
  for (const { name, sql } of sorted) {
    const version = name.split("_")[0];
    if (applied.has(version)) continue;
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query("insert into local.schema_migrations (version, name) values ($1, $2)", [version, name]);
      });
    } catch (e) {
      throw new Error(`migration ${name} failed: ${(e as Error).message}`, { cause: e });
    }
    done.push(name);
  }
  return done;
}
