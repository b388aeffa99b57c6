// A backend whose database holds a test file's own tables, functions or policies: copies of the
// product's migrations with the file's fixture migration written last, handed to the backend as
// MIGRATIONS_DIR. The product's migrations folder itself is never touched.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Backend } from "./backend.ts";
import { startBackendOn } from "./backend-targets.ts";

const PRODUCT_MIGRATIONS = "supabase/migrations";

/** A migration of a test file's own, run after every product migration (its name sorts last). */
export interface FixtureMigration {
  /** The file name, `<timestamp>_<name>.sql`, with a timestamp later than any product migration's. */
  file: string;
  sql: string;
}

/**
 * A test file's own migration named `name`, its SQL the template this tags (fixtureMigration("x")`create …`):
 * the file `99999999999999_<name>.sql`, whose timestamp sorts after every product migration's.
 */
export function fixtureMigration(name: string): (sql: TemplateStringsArray, ...values: unknown[]) => FixtureMigration {
  return (sql, ...values) => ({ file: `99999999999999_${name}.sql`, sql: String.raw({ raw: sql }, ...values) });
}

/**
 * SQL that opens fixture `tables` (schema-qualified) to every reader: row-level security on, the policy
 * "everyone reads", select for anon and authenticated, everything for the service role; with `serverWrites`,
 * also the policy "the server writes".
 */
export function everyoneReads(tables: string[], { serverWrites = false } = {}): string {
  const writes = (t: string) =>
    serverWrites
      ? [`create policy "the server writes" on ${t} for all to service_role using (true) with check (true);`]
      : [];
  return tables
    .flatMap((t) => [
      `alter table ${t} enable row level security;`,
      `create policy "everyone reads" on ${t} for select using (true);`,
      ...writes(t),
      `grant select on ${t} to anon, authenticated;`,
      `grant all on ${t} to service_role;`,
    ])
    .join("\n");
}

/** A new temporary migrations folder: the product's migrations and, last, `fixture`. */
function migrationsWith(fixture: FixtureMigration): string {
  const dir = mkdtempSync(join(tmpdir(), "pc-migrations-"));
  for (const f of readdirSync(PRODUCT_MIGRATIONS)) {
    if (f.endsWith(".sql")) copyFileSync(join(PRODUCT_MIGRATIONS, f), join(dir, f));
  }
  writeFileSync(join(dir, fixture.file), fixture.sql);
  return dir;
}

/**
 * Starts the backend (on PGlite, or on a new PostgreSQL database named after `prefix`) with the
 * product's migrations and `fixture`; stopping it also removes the migrations folder.
 */
export async function startBackendWithFixture(
  postgres: boolean,
  prefix: string,
  fixture: FixtureMigration,
  env: Record<string, string> = {},
): Promise<Backend> {
  const dir = migrationsWith(fixture);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let backend: Backend;
  try {
    backend = await startBackendOn(postgres, prefix, { ...env, MIGRATIONS_DIR: dir });
  } catch (e) {
    removeDir();
    throw e;
  }
  return {
    ...backend,
    async stop() {
      await backend.stop();
      removeDir();
    },
  };
}
