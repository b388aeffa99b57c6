// Realtime Authorization for private channels, as Supabase Realtime decides it: RLS policies on
// realtime.messages, evaluated as the channel's token (role and claims) with `realtime.topic` set to
// the channel's name. Reading (receiving broadcast, seeing presence) is a SELECT of a probe row
// written as the database owner; writing (sending broadcast, tracking presence) is an INSERT as the
// token's role. Both run inside a savepoint that is rolled back, so no row is ever kept.
import type { Claims, Db, Sql } from "../db.ts";

export type Extension = "broadcast" | "presence";
/** null: not asked yet (hosted leaves a check unevaluated until it is needed). */
export type Permission = boolean | null;
export interface Policies {
  broadcast: { read: Permission; write: Permission };
  presence: { read: Permission; write: Permission };
}

export const noPolicies = (): Policies => ({
  broadcast: { read: null, write: null },
  presence: { read: null, write: null },
});

/** A policy's own statement may not hold the database longer than an authenticated request may. */
const CHECK_TIMEOUT = "8s";

async function inRolledBackScope<T>(db: Db, fn: (tx: Sql) => Promise<T>): Promise<T> {
  return await db.transaction(async (tx) => {
    await tx.query("savepoint realtime_authorization");
    try {
      return await fn(tx);
    } finally {
      await tx.query("rollback to savepoint realtime_authorization");
    }
  });
}

async function actAs(tx: Sql, claims: Claims, topic: string) {
  await tx.query(
    `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
            set_config('realtime.topic', $4, true), set_config('statement_timeout', $5, true)`,
    [claims.role, JSON.stringify(claims), claims.sub ?? "", topic, CHECK_TIMEOUT],
  );
}

/** Which of `extensions` the token may read on `topic` (a failing policy reads as a refusal). */
export async function readPermissions(
  db: Db,
  claims: Claims,
  topic: string,
  extensions: Extension[],
  log: (msg: string, extra?: Record<string, unknown>) => void,
): Promise<Partial<Record<Extension, boolean>>> {
  try {
    return await inRolledBackScope(db, async (tx) => {
      const probes = extensions.map((extension) => ({ extension, id: crypto.randomUUID() }));
      for (const p of probes) {
        await tx.query("insert into realtime.messages (id, topic, extension) values ($1, $2, $3)", [
          p.id,
          topic,
          p.extension,
        ]);
      }
      await actAs(tx, claims, topic);
      const { rows } = await tx.query<{ id: string }>(
        "select id::text as id from realtime.messages where id = any($1::uuid[])",
        [probes.map((p) => p.id)],
      );
      const seen = new Set(rows.map((r) => r.id));
      return Object.fromEntries(probes.map((p) => [p.extension, seen.has(p.id)]));
    });
  } catch (e) {
    log("realtime: read policy failed", { topic, error: String(e) });
    return Object.fromEntries(extensions.map((x) => [x, false]));
  }
}

/** Whether the token may send `extension` messages on `topic` (its INSERT passes RLS). */
export async function writePermission(
  db: Db,
  claims: Claims,
  topic: string,
  extension: Extension,
  log: (msg: string, extra?: Record<string, unknown>) => void,
): Promise<boolean> {
  try {
    return await inRolledBackScope(db, async (tx) => {
      await actAs(tx, claims, topic);
      try {
        await tx.query("insert into realtime.messages (topic, extension) values ($1, $2)", [topic, extension]);
        return true;
      } catch (e) {
        if ((e as { code?: string }).code === "42501") return false;
        throw e;
      }
    });
  } catch (e) {
    log("realtime: write policy failed", { topic, error: String(e) });
    return false;
  }
}
