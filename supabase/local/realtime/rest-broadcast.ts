// Supabase Realtime's REST broadcast: POST /api/broadcast with {messages: [{topic, event, payload,
// private}]} and POST /api/broadcast/<topic>/events/<event>[?private=true] with the payload as the
// body (JSON, or raw bytes as application/octet-stream). The project's API key must be presented (the
// gateway's check); the caller is the Authorization bearer token, else the apikey itself. A private
// message is sent only if the caller's token passes the topic's INSERT policy on realtime.messages;
// one that does not is dropped and the request still answers 202, as hosted does.
import { parseBoundedJson, TOO_DEEP_MESSAGE } from "../../functions/_shared/bounded-json.ts";
import type { Config } from "../config.ts";
import { type Claims, type Db, DB_ROLES } from "../db.ts";
import { bearer, BodyTooLarge, json, readBody } from "../http.ts";
import { verifyJwt } from "../jwt.ts";
import { writePermission } from "./authorization.ts";
import { type Hub, messageBytes, type RateWindow, topicKey, type UserMessage } from "./hub.ts";
import { MAX_PAYLOAD_BYTES } from "./socket-session.ts";

export interface RestDeps {
  config: Config;
  db: Db;
  hub: Hub;
  messages: RateWindow;
  log: (msg: string, extra?: Record<string, unknown>) => void;
}

interface Outgoing {
  topic: string;
  isPrivate: boolean;
  message: UserMessage;
}

const SINGLE = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/;

export async function restBroadcast(req: Request, path: string, deps: RestDeps): Promise<Response | null> {
  const single = SINGLE.exec(path);
  if (path !== "/api/broadcast" && !single) return null;
  if (req.method !== "POST") return json({ message: "no route for /realtime/v1" + path }, 404);
  const { config } = deps;
  const apikey = req.headers.get("apikey") ?? new URL(req.url).searchParams.get("apikey");
  if (apikey !== config.anonKey && apikey !== config.serviceRoleKey) {
    return json({ message: "Invalid API key" }, 401);
  }
  const claims = await caller(req, apikey, config.jwtSecret);
  if (!claims) return json({ message: "Unauthorized" }, 401);

  let body: Uint8Array;
  try {
    body = await readBody(req, config.maxBodyBytes);
  } catch (e) {
    if (e instanceof BodyTooLarge) return json({ message: "Payload too large" }, 413);
    throw e;
  }
  const outgoing = single ? singleMessage(req, single, body) : batch(body);
  if ("status" in outgoing) return json(outgoing.body, outgoing.status);

  if (!deps.messages.take(outgoing.length)) {
    return json({ message: "Too many messages to broadcast, please reduce the batch size" }, 429);
  }
  const allowed = new Map<string, boolean>();
  for (const o of outgoing) {
    if (o.isPrivate) {
      let ok = allowed.get(o.topic);
      if (ok === undefined) {
        ok = await writePermission(deps.db, claims, o.topic, "broadcast", deps.log);
        allowed.set(o.topic, ok);
      }
      if (!ok) continue;
    }
    deps.messages.add(deps.hub.broadcast(topicKey(o.topic, o.isPrivate), o.message, null, true));
  }
  return new Response(null, { status: 202 });
}

async function caller(req: Request, apikey: string, secret: string): Promise<Claims | null> {
  const token = bearer(req) ?? apikey;
  const r = await verifyJwt(token, secret);
  if (!r.ok) return null;
  const role = typeof r.value.role === "string" ? r.value.role : null;
  return role && DB_ROLES.has(role) ? ({ ...r.value, role } as Claims) : null;
}

type Refusal = { status: number; body: Record<string, unknown> };

function parseJson(body: Uint8Array): { ok: true; value: unknown } | Refusal {
  const parsed = parseBoundedJson(new TextDecoder().decode(body));
  if (parsed.ok) return parsed;
  return { status: 400, body: { message: parsed.reason === "too_deep" ? TOO_DEEP_MESSAGE : "Invalid JSON" } };
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const tooLarge = (m: UserMessage) => messageBytes(m) > MAX_PAYLOAD_BYTES;

function batch(body: Uint8Array): Outgoing[] | Refusal {
  const parsed = parseJson(body);
  if (!("ok" in parsed)) return parsed;
  const messages = isMap(parsed.value) ? parsed.value.messages : undefined;
  if (!Array.isArray(messages) || messages.length === 0) {
    return { status: 422, body: { errors: { messages: ["can't be blank"] } } };
  }
  const out: Outgoing[] = [];
  const errors: Record<string, string[]>[] = [];
  for (const m of messages) {
    const e: Record<string, string[]> = {};
    const r = isMap(m) ? m : {};
    if (!isMap(m)) e.messages = ["is invalid"];
    for (const field of ["topic", "event"] as const) {
      if (r[field] === undefined || r[field] === null || r[field] === "") e[field] = ["can't be blank"];
      else if (typeof r[field] !== "string") e[field] = ["is invalid"];
    }
    if (r.payload === undefined || r.payload === null) e.payload = ["can't be blank"];
    else if (!isMap(r.payload)) e.payload = ["is invalid"];
    if (r.private !== undefined && r.private !== null && typeof r.private !== "boolean") e.private = ["is invalid"];
    const message: UserMessage = {
      encoding: "map",
      payload: { type: "broadcast", event: r.event, payload: r.payload },
    };
    if (!e.payload && tooLarge(message)) e.payload = ["Payload size exceeds tenant limit"];
    errors.push(e);
    if (Object.keys(e).length === 0) out.push({ topic: r.topic as string, isPrivate: r.private === true, message });
  }
  if (errors.some((e) => Object.keys(e).length)) return { status: 422, body: { errors: { messages: errors } } };
  return out;
}

function singleMessage(req: Request, match: RegExpExecArray, body: Uint8Array): Outgoing[] | Refusal {
  let topic: string, event: string;
  try {
    topic = decodeURIComponent(match[1]);
    event = decodeURIComponent(match[2]);
  } catch {
    return { status: 422, body: { errors: { topic: ["is invalid"] } } };
  }
  const isPrivate = new URL(req.url).searchParams.get("private") === "true";
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  let message: UserMessage;
  if (type === "application/octet-stream") {
    message = { encoding: "binary", event, payload: body };
  } else if (type === "application/json") {
    const parsed = parseJson(body);
    if (!("ok" in parsed)) return parsed;
    if (!isMap(parsed.value)) return { status: 422, body: { errors: { payload: ["is invalid"] } } };
    message = { encoding: "map", payload: { type: "broadcast", event, payload: parsed.value } };
  } else {
    return { status: 415, body: { message: "Unsupported content type" } };
  }
  if (tooLarge(message)) return { status: 422, body: { errors: { payload: ["Payload size exceeds tenant limit"] } } };
  return [{ topic, isPrivate, message }];
}
