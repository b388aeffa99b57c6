// The databases a backend-tier suite runs against: PGlite always, and the machine's PostgreSQL when one
// answers (skipped, and titled so, when none does), with a backend started on either for one suite.
import { type Backend, startBackend } from "./backend.ts";
import { ADMIN_URL, createDatabase, postgresAvailable } from "./postgres.ts";

const hasPostgres = await postgresAvailable();

/** The rows of a `describe.each` over both databases. */
export const BACKEND_TARGETS = [
  { title: "PGlite", postgres: false, skip: false },
  {
    title: hasPostgres ? "PostgreSQL" : `PostgreSQL (skipped: no server at ${ADMIN_URL})`,
    postgres: true,
    skip: !hasPostgres,
  },
];

/**
 * Starts the backend on PGlite, or on a new PostgreSQL database named after `prefix`; stopping the
 * backend then drops that database too.
 */
export async function startBackendOn(
  postgres: boolean,
  prefix: string,
  env?: Record<string, string>,
): Promise<Backend> {
  if (!postgres) return startBackend({ env });
  const db = await createDatabase(prefix);
  let backend: Backend;
  try {
    backend = await startBackend({ databaseUrl: db.url, env });
  } catch (e) {
    await db.drop();
    throw e;
  }
  return {
    ...backend,
    async stop() {
      await backend.stop();
      await db.drop();
    },
  };
}
