// Applies the platform bootstrap, then each file of supabase/migrations in name order, each once.
import type { Db } from "./db.ts";

export async function bootstrap(db: Db): Promise<void> {
  const sql = await Deno.readTextFile(new URL("./bootstrap.sql", import.meta.url));
  await db.exec(sql);
}

export async function migrate(db: Db, dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isFile && e.name.endsWith(".sql")) files.push(e.name);
  files.sort();
  const applied = new Set(
    (await db.query<{ version: string }>("select version from local.schema_migrations")).rows.map((r) => r.version),
  );
  const done: string[] = [];
  for (const file of files) {
    const version = file.split("_")[0];
    if (applied.has(version)) continue;
    const sql = await Deno.readTextFile(`${dir}/${file}`);
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query("insert into local.schema_migrations (version, name) values ($1, $2)", [version, file]);
    });
    done.push(file);
  }
  return done;
}
