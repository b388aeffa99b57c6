// Broadcasts that originate in the database, as Supabase Realtime serves them (its replication of
// realtime.messages): every committed INSERT into realtime.messages that has an id, a topic, an event,
// `private` and a payload (JSON or bytes) is sent to the channels of that topic, a private one only to
// members whose SELECT policies let them read it, with the message id as the broadcast's `meta.id`.
// realtime.send, realtime.send_binary and realtime.broadcast_changes (bootstrap.sql) write such rows.
// The service hears of a row from local.announce_message()'s NOTIFY, which Postgres delivers at
// commit and never for a rolled-back transaction. Messages are handled one at a time, in commit order.
// Rows are kept as long as hosted keeps them (it drops each day's partition once the day is older than
// 72 hours) and then deleted: see sweep().
import type { Db } from "../db.ts";
import { type Hub, messageBytes, type RateWindow, topicKey, type UserMessage } from "./hub.ts";
import { MAX_PAYLOAD_BYTES } from "./socket-session.ts";

/** Hosted's retention of realtime.messages, counted back from now to the start of that day. */
const RETENTION_HOURS = 72;

/** A row of realtime.messages as announced (or, when too large to announce, read back). */
type Announced = {
  id: string | null;
  inserted_at: string;
  truncated?: boolean;
  topic?: string | null;
  event?: string | null;
  private?: boolean | null;
  /** jsonb as Postgres writes it, kept as text so that numbers keep their digits. */
  payload?: string | null;
  /** Base64 of the bytea. */
  binary_payload?: string | null;
};

export interface DatabaseBroadcasts {
  /** Handles one NOTIFY payload (queued behind the ones before it). */
  push(note: string): void;
  /** Resolves once every queued message has been handled. */
  drain(): Promise<void>;
  /** Deletes the messages hosted would no longer keep; returns how many. */
  sweep(): Promise<number>;
}

export function createDatabaseBroadcasts(deps: {
  db: Db;
  hub: Hub;
  messages: RateWindow;
  log: (msg: string, extra?: Record<string, unknown>) => void;
}): DatabaseBroadcasts {
  const { db, hub, log } = deps;
  let queue: Promise<void> = Promise.resolve();

  async function readBack(key: Announced): Promise<Announced | null> {
    const { rows } = await db.query<Announced>(
      `select id::text as id, inserted_at::text as inserted_at, topic, event, private, payload::text as payload,
              encode(binary_payload, 'base64') as binary_payload
       from realtime.messages where id = $1::uuid and inserted_at = $2::timestamp`,
      [key.id, key.inserted_at],
    );
    return rows[0] ?? null;
  }

  async function handle(note: Announced): Promise<void> {
    const row = note.truncated ? await readBack(note) : note;
    if (!row) return;
    // Hosted skips a row missing any of these (it logs UnableToBroadcastChanges).
    const { id, topic, event } = row;
    if (!id || typeof topic !== "string" || typeof event !== "string" || typeof row.private !== "boolean") return;
    let message: UserMessage;
    if (typeof row.binary_payload === "string") {
      message = { encoding: "binary", event, payload: fromBase64(row.binary_payload), meta: { id } };
    } else if (typeof row.payload === "string") {
      message = { encoding: "json", event, payload: new TextEncoder().encode(row.payload), meta: { id } };
    } else return;
    if (messageBytes(message) > MAX_PAYLOAD_BYTES) {
      return log("realtime: database broadcast over the payload limit, not sent", { topic, event });
    }
    if (!deps.messages.take(1)) {
      return log("realtime: database broadcast over the messages-per-second limit, not sent", { topic, event });
    }
    deps.messages.add(hub.broadcast(topicKey(topic, row.private), message, null, true));
  }

  return {
    push(text) {
      let note: Announced;
      try {
        note = JSON.parse(text);
      } catch {
        log("realtime: unreadable message notification", { note: text.slice(0, 200) });
        return;
      }
      queue = queue
        .then(() => handle(note))
        .catch((e) => log("realtime: database broadcast failed", { error: String(e) }));
    },
    drain: () => queue,
    async sweep() {
      const { rows } = await db.query<{ n: number }>(
        `with gone as (
           delete from realtime.messages where inserted_at < (now() - make_interval(hours => $1))::date returning 1
         ) select count(*)::int as n from gone`,
        [RETENTION_HOURS],
      );
      return rows[0]?.n ?? 0;
    },
  };
}

function fromBase64(text: string): Uint8Array {
  const bin = atob(text.replace(/\s+/g, ""));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
