// One client WebSocket: its joined channels and the Phoenix events supabase-js sends on it (heartbeat,
// phx_join, access_token, phx_leave, broadcast, presence). Each channel holds the claims of the token
// it joined or last refreshed with; those claims are what the change feed checks RLS with, what a
// private channel's policies are evaluated as, and when they expire the channel is closed, as
// Supabase Realtime does. Broadcast and presence go through the hub (hub.ts), private channels'
// permissions through authorization.ts.
import { JSON_MAX_DEPTH, jsonDepth, parseBoundedJson, TOO_DEEP_MESSAGE } from "../../functions/_shared/bounded-json.ts";
import { type Claims, type Db, DB_ROLES } from "../db.ts";
import { verifyJwt } from "../jwt.ts";
import { err, ok, type Result } from "../result.ts";
import { type Binding, parseBinding } from "./bindings.ts";
import { checkBinding } from "./binding-check.ts";
import type { Catalog } from "./catalog.ts";
import type { Subscriber } from "./change-feed.ts";
import { type Extension, noPolicies, type Policies, readPermissions, writePermission } from "./authorization.ts";
import { type Hub, type Member, messageBytes, type RateWindow, topicKey, type UserMessage } from "./hub.ts";
import {
  decodeFrame,
  decodeUserBroadcastPush,
  encodeFrame,
  encodeUserBroadcast,
  type Frame,
  reply,
  type Vsn,
} from "./phoenix.ts";

/** Supabase Realtime's default max_channels_per_client; more would let one socket grow without bound. */
export const MAX_CHANNELS_PER_SOCKET = 100;
/** Every binding is matched against every change, so one channel may not ask for more than this. */
export const MAX_BINDINGS_PER_CHANNEL = 100;
/** The Free plan's broadcast payload size (256 KB); hosted plans allow up to 3,000 KB. Tracked presence too. */
export const MAX_PAYLOAD_BYTES = 256_000;
/** Hosted's per-client presence limit: this many track/untrack calls per window, then the channel is shut. */
export const PRESENCE_CALLS_PER_WINDOW = 5;
export const PRESENCE_WINDOW_MS = 30_000;
/** setTimeout's ceiling; tokens living longer than this (the 10-year API keys) need no expiry timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SessionDeps {
  jwtSecret: string;
  catalog: Catalog;
  /** "schema.table" of every table in the supabase_realtime publication. */
  published: ReadonlySet<string>;
  subscribers: Set<Subscriber>;
  nextBindingId(): number;
  db: Db;
  hub: Hub;
  /** The project's messages per second (Free plan: 100), shared by every socket and the REST API. */
  messages: RateWindow;
  /** The project's presence messages per second (Free plan: 20). */
  presenceMessages: RateWindow;
  /** Longest text frame taken (the backend's JSON body limit); a longer one closes the socket. */
  maxFrameBytes: number;
  log: (msg: string, extra?: Record<string, unknown>) => void;
}

interface Channel extends Subscriber {
  topic: string;
  joinRef: string | null;
  currentClaims: Claims;
  expiryTimer?: ReturnType<typeof setTimeout>;
  isPrivate: boolean;
  /** The hub's topic: the channel's name, public and private kept apart. */
  key: string;
  selfBroadcast: boolean;
  ack: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  /** A private channel's permissions, evaluated as they are needed; unused on a public channel. */
  policies: Policies;
  member: Member;
  /** The last tracked payload (JSON), so that tracking it again changes nothing. */
  tracked: string | null;
  presenceCalls: { count: number; resetAt: number };
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
    return DB_ROLES.has(role) ? ok({ ...r.value, role } as Claims) : err("invalid_token");
  }

  function drop(channel: Channel) {
    clearTimeout(channel.expiryTimer);
    deps.subscribers.delete(channel);
    deps.hub.leave(channel.key, channel.member);
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
    const config = asRecord(f.payload.config);
    const broadcastConfig = asRecord(config.broadcast);
    const presenceConfig = asRecord(config.presence);
    const isPrivate = flag(config.private);
    const presenceEnabled = flag(presenceConfig.enabled);
    if (channels.size >= MAX_CHANNELS_PER_SOCKET) return send(reply(f, "error", { reason: "Too many channels" }));
    const policies = noPolicies();
    if (isPrivate) {
      const wanted: Extension[] = presenceEnabled ? ["broadcast", "presence"] : ["broadcast"];
      const read = await readPermissions(deps.db, auth.value, channelName(f.topic), wanted, deps.log);
      policies.broadcast.read = read.broadcast ?? null;
      policies.presence.read = read.presence ?? null;
      if (!read.broadcast && !read.presence) {
        return send(
          reply(f, "error", {
            reason: "Unauthorized: You do not have permissions to read from this Channel topic: " +
              channelName(f.topic),
          }),
        );
      }
    }
    const raw = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
    if (raw.length > MAX_BINDINGS_PER_CHANNEL) {
      return send(reply(f, "error", { reason: "Too many postgres_changes bindings" }));
    }
    const bindings: Binding[] = [];
    for (const r of raw) {
      const b = parseBinding(r, deps.nextBindingId());
      if (typeof b === "string") return send(reply(f, "error", { reason: b }));
      const problem = await checkBinding(b, auth.value.role, deps);
      if (problem) return send(reply(f, "error", { reason: problem }));
      bindings.push(b);
    }
    const key = presenceConfig.key;
    const channel: Channel = {
      topic: f.topic,
      joinRef: f.joinRef,
      currentClaims: auth.value,
      bindings,
      claims: () => channel.currentClaims,
      deliver: (payload) =>
        send({ joinRef: null, ref: null, topic: channel.topic, event: "postgres_changes", payload }),
      isPrivate,
      key: topicKey(channelName(f.topic), isPrivate),
      selfBroadcast: flag(broadcastConfig.self),
      ack: flag(broadcastConfig.ack),
      presenceKey: typeof key === "string" && key !== "" ? key : crypto.randomUUID(),
      presenceEnabled,
      policies,
      tracked: null,
      presenceCalls: { count: 0, resetAt: 0 },
      member: {
        readsBroadcast: () => !channel.isPrivate || channel.policies.broadcast.read === true,
        readsPresence: () => !channel.isPrivate || channel.policies.presence.read === true,
        deliverBroadcast: (m) => deliverBroadcast(channel, m),
        push: (event, payload) => send({ joinRef: null, ref: null, topic: channel.topic, event, payload }),
      },
    };
    channels.set(f.topic, channel);
    deps.subscribers.add(channel);
    deps.hub.join(channel.key, channel.member);
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
    if (presenceEnabled && channel.member.readsPresence()) {
      channel.member.push("presence_state", deps.hub.presenceState(channel.key));
    }
  }

  function deliverBroadcast(channel: Channel, m: UserMessage) {
    if (m.encoding === "map") {
      return send({ joinRef: null, ref: null, topic: channel.topic, event: "broadcast", payload: m.payload });
    }
    if (vsn === "2.0.0") {
      const bytes = encodeUserBroadcast(channel.topic, m.event, m.encoding, m.payload, m.meta);
      if (bytes && socket.readyState === WebSocket.OPEN) socket.send(bytes);
      return;
    }
    // vsn 1.0.0 has no binary frames: JSON payloads are sent as a map, raw bytes are not delivered.
    if (m.encoding === "json") {
      const parsed = parseBoundedJson(new TextDecoder().decode(m.payload));
      if (!parsed.ok) return;
      const payload = { type: "broadcast", event: m.event, payload: parsed.value, ...(m.meta ? { meta: m.meta } : {}) };
      send({ joinRef: null, ref: null, topic: channel.topic, event: "broadcast", payload });
    }
  }

  /** A client's broadcast: checked (private: the INSERT policy), bounded, then fanned out. */
  async function broadcast(f: Pick<Frame, "joinRef" | "ref" | "topic">, channel: Channel, message: UserMessage) {
    if (channel.isPrivate) {
      if (channel.policies.broadcast.write === null) {
        const topic = channelName(channel.topic);
        channel.policies.broadcast.write = await writePermission(
          deps.db,
          channel.currentClaims,
          topic,
          "broadcast",
          deps.log,
        );
      }
      // Hosted drops a send it may not make without a word, even when an ack was asked for.
      if (!channel.policies.broadcast.write) return;
    }
    if (!deps.messages.take(1)) return shutDown(channel, "Too many messages per second");
    const frame = { ...f, event: "broadcast", payload: {} };
    if (messageBytes(message) > MAX_PAYLOAD_BYTES) {
      if (channel.ack) {
        send({ ...reply(frame, "error"), payload: { status: "error", response: "payload_size_exceeded" } });
      }
      return;
    }
    if (message.encoding === "json" && !parseBoundedJson(new TextDecoder().decode(message.payload)).ok) return;
    deps.messages.add(deps.hub.broadcast(channel.key, message, channel.member, channel.selfBroadcast));
    if (channel.ack) send(reply(frame, "ok"));
  }

  async function presence(f: Frame, channel: Channel) {
    const calls = channel.presenceCalls;
    const now = Date.now();
    if (now > calls.resetAt) {
      calls.count = 0;
      calls.resetAt = now + PRESENCE_WINDOW_MS;
    }
    if (calls.count >= PRESENCE_CALLS_PER_WINDOW) return shutDown(channel, "Client presence rate limit exceeded");
    calls.count++;
    const event = typeof f.payload.event === "string" ? f.payload.event.toLowerCase() : null;
    if (event === "untrack") {
      deps.hub.untrack(channel.key, channel.member);
      channel.tracked = null;
      return send(reply(f, "ok"));
    }
    if (event !== "track") return send(reply(f, "error"));
    if (channel.isPrivate) {
      const topic = channelName(channel.topic);
      if (channel.policies.presence.read === null) {
        const read = await readPermissions(deps.db, channel.currentClaims, topic, ["presence"], deps.log);
        channel.policies.presence.read = read.presence ?? false;
      }
      if (channel.policies.presence.write === null) {
        channel.policies.presence.write = await writePermission(
          deps.db,
          channel.currentClaims,
          topic,
          "presence",
          deps.log,
        );
      }
      if (!channel.policies.presence.write) return send(reply(f, "error"));
    }
    const payload = f.payload.payload ?? {};
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
      return send(reply(f, "error", { reason: "Presence track payload must be a map" }));
    }
    const text = JSON.stringify(payload);
    if (text === channel.tracked) return send(reply(f, "ok"));
    if (new TextEncoder().encode(text).length > MAX_PAYLOAD_BYTES) {
      return shutDown(channel, "Track message size exceeded");
    }
    if (!deps.presenceMessages.take(1)) return shutDown(channel, "Too many presence messages per second");
    deps.hub.track(channel.key, channel.member, channel.presenceKey, payload as Record<string, unknown>);
    channel.tracked = text;
    channel.presenceEnabled = true;
    send(reply(f, "ok"));
  }

  async function refreshToken(f: Frame, channel: Channel) {
    const auth = await checkToken(f.payload.access_token);
    if (!auth.ok) {
      send(reply(f, "error", { reason: "Invalid JWT" }));
      return shutDown(channel, "The access token is invalid");
    }
    channel.currentClaims = auth.value;
    if (channel.isPrivate) {
      // As hosted: the policies are evaluated again for the new token, and a channel that could read
      // and no longer can is shut.
      const before = channel.policies;
      const wanted: Extension[] = channel.presenceEnabled ? ["broadcast", "presence"] : ["broadcast"];
      const read = await readPermissions(deps.db, auth.value, channelName(f.topic), wanted, deps.log);
      channel.policies = noPolicies();
      channel.policies.broadcast.read = read.broadcast ?? null;
      channel.policies.presence.read = read.presence ?? null;
      const revoked = (was: boolean | null, now: boolean | null) => was === true && now !== true;
      if (
        revoked(before.broadcast.read, channel.policies.broadcast.read) ||
        revoked(before.presence.read, channel.policies.presence.read)
      ) {
        return shutDown(
          channel,
          "You no longer have permission to read from this Channel topic: " + channelName(f.topic),
        );
      }
    }
    scheduleExpiry(channel);
    send(reply(f, "ok"));
  }

  async function onFrame(f: Frame) {
    if (f.topic === "phoenix") {
      // Phoenix routes "phoenix" to no channel: anything but a heartbeat is an unmatched topic, answered so
      // (a join left unanswered kept its client waiting for ever).
      send(f.event === "heartbeat" ? reply(f, "ok") : reply(f, "error", { reason: "unmatched topic" }));
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
      case "broadcast":
        return await broadcast(f, channel, { encoding: "map", payload: f.payload });
      case "presence":
        return await presence(f, channel);
      default:
        return send(reply(f, "error", { reason: `${f.event} is not supported by the local realtime service` }));
    }
  }

  // Frames are handled in arrival order even though joins await the database.
  let inbox: Promise<void> = Promise.resolve();
  socket.binaryType = "arraybuffer";
  socket.onmessage = (ev) => {
    if (ev.data instanceof ArrayBuffer) {
      if (ev.data.byteLength > deps.maxFrameBytes) return refuse(1009, "frame too large");
      const push = decodeUserBroadcastPush(new Uint8Array(ev.data));
      if (!push) return;
      inbox = inbox
        .then(() => {
          const channel = channels.get(push.topic);
          if (!channel) {
            return send(reply({ ...push, event: "broadcast", payload: {} }, "error", { reason: "unmatched topic" }));
          }
          return broadcast(push, channel, { encoding: push.encoding, event: push.event, payload: push.payload });
        })
        .catch((e) => deps.log("realtime: frame failed", { error: String(e) }));
      return;
    }
    if (typeof ev.data !== "string") return;
    // A frame nested past the JSON limit, or larger than any body the backend takes, has no ref to
    // reply to: the socket is closed with a reason, so the sender learns at once instead of waiting.
    if (ev.data.length > deps.maxFrameBytes) return refuse(1009, "frame too large");
    if (jsonDepth(ev.data) > JSON_MAX_DEPTH) return refuse(1007, TOO_DEEP_MESSAGE);
    const f = decodeFrame(ev.data, vsn);
    if (!f) return;
    inbox = inbox.then(() => onFrame(f)).catch((e) => deps.log("realtime: frame failed", { error: String(e) }));
  };
  const closeAll = () => {
    for (const c of [...channels.values()]) drop(c);
  };
  const refuse = (code: number, reason: string) => {
    closeAll();
    try {
      socket.close(code, reason);
    } catch {
      // already closing
    }
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

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Hosted's FlexibleBoolean: true or "true". */
const flag = (v: unknown) => v === true || v === "true";

function channelName(topic: string): string {
  return topic.startsWith("realtime:") ? topic.slice("realtime:".length) : topic;
}
