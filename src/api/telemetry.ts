// The one request analytics make (docs/spec.md §7): inserts `app_events` and `web_vitals` rows. What waits
// for it, and when it goes, is src/sync/telemetry.ts. A send carries the access token of the session
// it was started for, so a sign-out that begins while it is on the wire cannot turn it into an
// anonymous request that row-level security refuses. Client-minted ids make a resend harmless.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { TelemetryItem } from "../db/telemetry-buffer";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { sanitizeForLog } from "./errors";

/** Why a send failed; a retryable one keeps its items for the next flush, any other drops them. */
export type SendFailure = { retryable: boolean; message: string };

// Network failures (status 0), an expired token, throttling and server trouble pass; anything else
// (a check constraint, row-level security) would fail the same way again.
const retryableStatus = (status: number) =>
  status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;

type Row = Record<string, unknown>;
type Written = { error: unknown; status: number };

// The tables are insert-only for clients (no SELECT, so no ON CONFLICT on the id either). The database
// lets a row whose id is already stored go quietly (supabase/migrations/20261124000800_*); two inserts
// of one new id at the same instant still meet the primary key and answer 409, which here means
// "done". A batch that meets one is written again row by row so the rest still land.
async function insertOnce(client: SupabaseClient, table: string, rows: Row[], token?: string): Promise<Written> {
  const insert = client.from(table).insert(rows);
  // supabase-js adds the client's current token only where no Authorization header is set.
  const written = await (token ? insert.setHeader("Authorization", `Bearer ${token}`) : insert);
  if (written.status !== 409) return written;
  if (rows.length === 1) return { error: null, status: 409 };
  for (const row of rows) {
    const one = await insertOnce(client, table, [row], token);
    if (one.error) return one;
  }
  return { error: null, status: 201 };
}

/**
 * Inserts the items; one already stored (same id) counts as sent, so a replay stores nothing twice.
 * With `accessToken` the requests carry it instead of whatever session the client holds by then.
 */
export async function sendTelemetry(
  items: readonly TelemetryItem[],
  client: () => SupabaseClient = supabase,
  accessToken?: string,
): Promise<Result<void, SendFailure>> {
  const events = items.flatMap((i) =>
    i.kind === "event" ? [{ id: i.id, user_id: i.userId, name: i.name, metadata: i.metadata }] : [],
  );
  const vitals = items.flatMap((i) =>
    i.kind === "vital"
      ? [{ id: i.id, user_id: i.userId, name: i.name, value: i.value, metric_id: i.metricId, delta: i.delta }]
      : [],
  );
  const writes = [["app_events", events] as const, ["web_vitals", vitals] as const].filter(([, r]) => r.length > 0);
  for (const [table, rows] of writes) {
    try {
      const { error, status } = await insertOnce(client(), table, rows, accessToken);
      if (error) return err({ retryable: retryableStatus(status), message: `${table}: ${sanitizeForLog(error)}` });
    } catch (e) {
      return err({ retryable: true, message: `${table}: ${sanitizeForLog(e)}` });
    }
  }
  return ok(undefined);
}
