// One client WebSocket: its joined channels and the Phoenix events supabase-js sends on it (heartbeat,
// phx_join, access_token, phx_leave). Each channel holds the claims of the token it joined or last
// refreshed with; those claims are what the change feed checks RLS with, and when they expire the
// channel is closed, as Supabase Realtime does.
import type { Claims } from "../db.ts";
import { verifyJwt } from "../jwt.ts";
import { err, ok, type Result } from "../result.ts";
import { type Binding, parseBinding } from "./bindings.ts";
import type { Catalog } from "./catalog.ts";
import type { Subscriber } from "./change-feed.ts";
import { decodeFrame, encodeFrame, type Frame, reply, type Vsn } from "./phoenix.ts";

const ROLES = new Set(["anon", "authenticated", "service_role"]);
/** Supabase Realtime's default max_channels_per_client; more would let one socket grow without bound. */
export const MAX_CHANNELS_PER_SOCKET = 100;
/** Every binding is matched against every change, so one channel may not ask for more than this. */
export const MAX_BINDINGS_PER_CHANNEL = 100;
/** setTimeout's ceiling; tokens living longer than this (the 10-year API keys) need no expiry timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SessionDeps {
  jwtSecret: string;
  catalog: Catalog;
  /** "schema.table" of every table in the supabase_realtime publication. */
  published: ReadonlySet<string>;
  subscribers: Set<Subscriber>;
  nextBindingId(): number;
  log: (msg: string, extra?: Record<string, unknown>) => void;
}

interface Channel extends Subscriber {
  topic: string;
  joinRef: string | null;
  currentClaims: Claims;
  expiryTimer?: ReturnType<typeof setTimeout>;
}

type TokenCheck = Result<Claims, "invalid_token">;

export function attachSession(
  socket: WebSocket,
  vsn: Vsn,
  socketToken: string | null,
  deps: SessionDeps,
): { close(): void } {
  const channels = new Map<string, Channel>();

  const send = (f: Frame) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(encodeFrame(f, vsn));
  };

  async function checkToken(token: unknown): Promise<TokenCheck> {
    if (typeof token !== "string" || !token) return err("invalid_token");
    const r = await verifyJwt(token, deps.jwtSecret);
    if (!r.ok) return err("invalid_token");
    const role = typeof r.value.role === "string" ? r.value.role : "anon";
    return ROLES.has(role) ? ok({ ...r.value, role } as Claims) : err("invalid_token");
  }

  function drop(channel: Channel) {
    clearTimeout(channel.expiryTimer);
    deps.subscribers.delete(channel);
    if (channels.get(channel.topic) === channel) channels.delete(channel.topic);
  }

  /** Tells the client why its channel ends, then closes it (the client reports CLOSED). */
  function shutDown(channel: Channel, message: string) {
    send({
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: "system",
      payload: { channel: channelName(channel.topic), extension: "system", message, status: "error" },
    });
    send({ joinRef: channel.joinRef, ref: channel.joinRef, topic: channel.topic, event: "phx_close", payload: {} });
    drop(channel);
  }

  function scheduleExpiry(channel: Channel) {
    clearTimeout(channel.expiryTimer);
    const exp = channel.currentClaims.exp;
    if (typeof exp !== "number") return;
    const ms = exp * 1000 - Date.now();
    if (ms > MAX_TIMER_MS) return;
    channel.expiryTimer = setTimeout(() => shutDown(channel, "Token has expired"), Math.max(ms, 0));
  }

  async function join(f: Frame) {
    const previous = channels.get(f.topic);
    if (previous) drop(previous); // a rejoin replaces the old membership
    const auth = await checkToken(f.payload.access_token ?? socketToken);
    if (!auth.ok) return send(reply(f, "error", { reason: "Invalid JWT" }));
    const config = (f.payload.config ?? {}) as Record<string, unknown>;
    if (config.private === true) {
      return send(
        reply(f, "error", {
          reason: "Unauthorized: You do not have permissions to read from this Channel topic: " + channelName(f.topic),
        }),
      );
    }
    if (channels.size >= MAX_CHANNELS_PER_SOCKET) return send(reply(f, "error", { reason: "Too many channels" }));
    const raw = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
    if (raw.length > MAX_BINDINGS_PER_CHANNEL) {
      return send(reply(f, "error", { reason: "Too many postgres_changes bindings" }));
    }
    const bindings: Binding[] = [];
    for (const r of raw) {
      const b = parseBinding(r, deps.nextBindingId());
      if (typeof b === "string") return send(reply(f, "error", { reason: b }));
      const problem = await checkTarget(b);
      if (problem) return send(reply(f, "error", { reason: problem }));
      bindings.push(b);
    }
    const channel: Channel = {
      topic: f.topic,
      joinRef: f.joinRef,
      currentClaims: auth.value,
      bindings,
      claims: () => channel.currentClaims,
      deliver: (payload) =>
        send({ joinRef: null, ref: null, topic: channel.topic, event: "postgres_changes", payload }),
    };
    channels.set(f.topic, channel);
    deps.subscribers.add(channel);
    scheduleExpiry(channel);
    send(reply(f, "ok", { postgres_changes: bindings.map((b) => b.echo) }));
    if (bindings.length) {
      send({
        joinRef: f.joinRef,
        ref: null,
        topic: f.topic,
        event: "system",
        payload: {
          channel: channelName(f.topic),
          extension: "postgres_changes",
          message: "Subscribed to PostgreSQL",
          status: "ok",
        },
      });
    }
  }

  /** A binding must name a published table (or a whole schema) and filter on a real column. */
  async function checkTarget(b: Binding): Promise<string | null> {
    const refused = () =>
      `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: ${b.event}, schema: ${b.schema}, table: ${
        b.table ?? "*"
      }, filters: [${b.filter ? `${b.filter.column}, ${b.filter.op}, ${b.filter.values.join(",")}` : ""}]]`;
    if (b.table === null || b.schema === "*") return b.filter ? refused() : null;
    if (!deps.published.has(`${b.schema}.${b.table}`)) return refused();
    if (b.filter) {
      const info = await deps.catalog.get(b.schema, b.table);
      if (!info?.columns.some((c) => c.name === b.filter!.column)) return refused();
    }
    return null;
  }

  async function refreshToken(f: Frame, channel: Channel) {
    const auth = await checkToken(f.payload.access_token);
    if (!auth.ok) {
      send(reply(f, "error", { reason: "Invalid JWT" }));
      return shutDown(channel, "The access token is invalid");
    }
    channel.currentClaims = auth.value;
    scheduleExpiry(channel);
    send(reply(f, "ok"));
  }

  async function onFrame(f: Frame) {
    if (f.topic === "phoenix") {
      if (f.event === "heartbeat") send(reply(f, "ok"));
      return;
    }
    if (f.event === "phx_join") return await join(f);
    const channel = channels.get(f.topic);
    if (!channel) {
      return send(f.event === "phx_leave" ? reply(f, "ok") : reply(f, "error", { reason: "unmatched topic" }));
    }
    switch (f.event) {
      case "access_token":
        return await refreshToken(f, channel);
      case "phx_leave":
        drop(channel);
        return send(reply(f, "ok"));
      default:
        return send(reply(f, "error", { reason: `${f.event} is not supported by the local realtime service` }));
    }
  }

  // Frames are handled in arrival order even though joins await the database.
  let inbox: Promise<void> = Promise.resolve();
  socket.onmessage = (ev) => {
    if (typeof ev.data !== "string") return;
    const f = decodeFrame(ev.data, vsn);
    if (!f) return;
    inbox = inbox.then(() => onFrame(f)).catch((e) => deps.log("realtime: frame failed", { error: String(e) }));
  };
  const closeAll = () => {
    for (const c of [...channels.values()]) drop(c);
  };
  socket.onclose = closeAll;
  socket.onerror = closeAll;

  return {
    close() {
      closeAll();
      try {
        socket.close(1001, "server shutting down");
      } catch {
        // already closing, or closed before it opened
      }
    },
  };
}

function channelName(topic: string): string {
  return topic.startsWith("realtime:") ? topic.slice("realtime:".length) : topic;
}
