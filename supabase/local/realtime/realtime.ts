// Supabase Realtime at /realtime/v1: the WebSocket (Phoenix protocol, vsn 2.0.0) serving
// postgres_changes, broadcast and presence on public and private channels, and the REST broadcast
// API (rest-broadcast.ts), and broadcasts written in the database (db-broadcast.ts). For postgres_changes, at
// start it puts a row trigger (local.notify_change, from bootstrap.sql) on every table of the
// supabase_realtime publication and listens for its NOTIFYs: in-process on PGlite, on a dedicated
// connection on Postgres. Sessions live in realtime/socket-session.ts, delivery and its RLS rule in
// realtime/change-feed.ts.
import { quoteIdent } from "../db.ts";
import type { Ctx, Service } from "../http.ts";
import { json } from "../http.ts";
import { createCatalog } from "./catalog.ts";
import { createChangeFeed, type Subscriber } from "./change-feed.ts";
import { createDatabaseBroadcasts } from "./db-broadcast.ts";
import { createHub, createRateWindow } from "./hub.ts";
import { restBroadcast } from "./rest-broadcast.ts";
import { vsnOf } from "./phoenix.ts";
import { attachSession } from "./socket-session.ts";

const TRIGGER = "local_realtime_changes";
/** The Free plan's messages per second, and presence messages per second, of a project. */
export const MESSAGES_PER_SECOND = 100;
export const PRESENCE_MESSAGES_PER_SECOND = 20;
/** Binding ids start high enough to never look like a client ref. */
const FIRST_BINDING_ID = 1000;
/** How often realtime.messages is swept of rows past hosted's retention. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export async function createRealtime(ctx: Ctx): Promise<Service> {
  const { db, config } = ctx;
  const catalog = createCatalog(db);
  const published = new Set<string>();
  for (const { schema, table } of await catalog.published()) {
    await db.exec(
      `create or replace trigger ${TRIGGER} after insert or update or delete on ${quoteIdent(schema)}.${
        quoteIdent(
          table,
        )
      } for each row execute function local.notify_change()`,
    );
    published.add(`${schema}.${table}`);
  }
  // A table taken out of the publication stops announcing its changes.
  const { rows: stale } = await db.query<{ schema: string; table: string }>(
    `select n.nspname::text as schema, c.relname::text as "table" from pg_trigger t
     join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where t.tgname = $1`,
    [TRIGGER],
  );
  for (const { schema, table } of stale) {
    if (!published.has(`${schema}.${table}`)) {
      await db.exec(`drop trigger ${TRIGGER} on ${quoteIdent(schema)}.${quoteIdent(table)}`);
    }
  }

  const subscribers = new Set<Subscriber>();
  const feed = createChangeFeed(db, catalog, subscribers, ctx.log);
  const unlisten = await db.listen("local_realtime", (payload) => feed.push(payload));
  const sessions = new Set<{ close(): void }>();
  let nextId = FIRST_BINDING_ID;
  const hub = createHub();
  const messages = createRateWindow(MESSAGES_PER_SECOND);
  const presenceMessages = createRateWindow(PRESENCE_MESSAGES_PER_SECOND);

  // Broadcasts written to realtime.messages (realtime.send, realtime.broadcast_changes), and the
  // deletion of those hosted would no longer keep: at start, then every hour.
  const fromDb = createDatabaseBroadcasts({ db, hub, messages, log: ctx.log });
  const unlistenMessages = await db.listen("local_realtime_broadcast", (note) => fromDb.push(note));
  const sweep = () =>
    fromDb.sweep().catch((e) => ctx.log("realtime: deleting old messages failed", { error: String(e) }));
  await sweep();
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS);
  Deno.unrefTimer(sweeper);

  const handle: Service = async (req, path) => {
    const rest = await restBroadcast(req, path, { config, db, hub, messages, log: ctx.log });
    if (rest) return rest;
    if (path !== "/websocket") return json({ message: "no route for /realtime/v1" + path }, 404);
    if ((req.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
      return json({ message: "expected a WebSocket upgrade" }, 426);
    }
    const url = new URL(req.url);
    // supabase-js puts the project's API key in the connect URL; the user's token arrives later,
    // in each phx_join. Any other key is refused before the upgrade, as Supabase does.
    const apikey = url.searchParams.get("apikey") ?? req.headers.get("apikey");
    if (apikey !== config.anonKey && apikey !== config.serviceRoleKey) {
      return json({ message: "Invalid API key" }, 401);
    }
    const { socket, response } = Deno.upgradeWebSocket(req);
    const session = attachSession(socket, vsnOf(url.searchParams.get("vsn")), apikey, {
      jwtSecret: config.jwtSecret,
      catalog,
      published,
      subscribers,
      nextBindingId: () => nextId++,
      db,
      hub,
      messages,
      presenceMessages,
      maxFrameBytes: config.maxBodyBytes,
      log: ctx.log,
    });
    sessions.add(session);
    socket.addEventListener("close", () => sessions.delete(session));
    return response;
  };
  handle.close = async () => {
    for (const s of sessions) s.close();
    sessions.clear();
    clearInterval(sweeper);
    await unlisten();
    await unlistenMessages();
    await feed.drain();
    await fromDb.drain();
  };
  return handle;
}
