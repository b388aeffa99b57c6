// Phoenix channel frames as supabase-js speaks them. vsn 2.0.0 (what the client uses) is a JSON array
// [join_ref, ref, topic, event, payload]; vsn 1.0.0 is an object with the same fields. The version is
// chosen per socket from the `vsn` query parameter of the connect URL.

import { parseBoundedJson } from "../../functions/_shared/bounded-json.ts";

export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

export type Vsn = "1.0.0" | "2.0.0";

export function vsnOf(param: string | null): Vsn {
  return param === "2.0.0" ? "2.0.0" : "1.0.0";
}

const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const asPayload = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Parses one text frame; null when it is not a frame of this socket's version. */
export function decodeFrame(text: string, vsn: Vsn): Frame | null {
  // Bounded before parsing, as every caller JSON is: a deep frame is not a frame.
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return null;
  const v = parsed.value;
  if (vsn === "2.0.0") {
    if (!Array.isArray(v) || v.length !== 5 || typeof v[2] !== "string" || typeof v[3] !== "string") return null;
    return { joinRef: strOrNull(v[0]), ref: strOrNull(v[1]), topic: v[2], event: v[3], payload: asPayload(v[4]) };
  }
  const o = asPayload(v);
  if (typeof o.topic !== "string" || typeof o.event !== "string") return null;
  return {
    joinRef: strOrNull(o.join_ref),
    ref: strOrNull(o.ref),
    topic: o.topic,
    event: o.event,
    payload: asPayload(o.payload),
  };
}

export function encodeFrame(f: Frame, vsn: Vsn): string {
  return vsn === "2.0.0" ?
    JSON.stringify([f.joinRef, f.ref, f.topic, f.event, f.payload]) :
    JSON.stringify({ join_ref: f.joinRef, ref: f.ref, topic: f.topic, event: f.event, payload: f.payload });
}

/** The reply to a client push: same join_ref and ref, event phx_reply. */
export function reply(to: Frame, status: "ok" | "error", response: Record<string, unknown> = {}): Frame {
  return { joinRef: to.joinRef, ref: to.ref, topic: to.topic, event: "phx_reply", payload: { status, response } };
}

// vsn 2.0.0 carries user broadcasts in binary frames: a client's push is kind 3
// [kind, join_ref len, ref len, topic len, event len, metadata len, encoding, ...those strings, payload]
// and the server's delivery is kind 4 [kind, topic len, event len, metadata len, encoding, ...]. The
// encoding byte says whether the payload is JSON (1) or raw bytes (0).
const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;
export type PayloadEncoding = "json" | "binary";

export interface UserBroadcastPush {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  encoding: PayloadEncoding;
  payload: Uint8Array;
}

/** Parses a client's binary user-broadcast push; null for any other or malformed binary frame. */
export function decodeUserBroadcastPush(buf: Uint8Array): UserBroadcastPush | null {
  if (buf.length < 7 || buf[0] !== USER_BROADCAST_PUSH) return null;
  const lens = [buf[1], buf[2], buf[3], buf[4], buf[5]];
  const encoding = buf[6] === 0 ? "binary" : buf[6] === 1 ? "json" : null;
  if (!encoding) return null;
  let off = 7;
  const strings: string[] = [];
  const dec = new TextDecoder("utf-8", { fatal: true });
  try {
    for (const len of lens) {
      if (off + len > buf.length) return null;
      strings.push(dec.decode(buf.subarray(off, off + len)));
      off += len;
    }
  } catch {
    return null;
  }
  const [joinRef, ref, topic, event] = strings;
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event,
    encoding,
    payload: buf.slice(off),
  };
}

/**
 * The server's binary user broadcast (kind 4), as vsn 2.0.0 clients decode it; `meta`, when given, is
 * sent as JSON and read by the client as the broadcast's `meta`. null when a part is over 255 bytes.
 */
export function encodeUserBroadcast(
  topic: string,
  event: string,
  encoding: PayloadEncoding,
  payload: Uint8Array,
  meta?: Record<string, unknown>,
) {
  const enc = new TextEncoder();
  const t = enc.encode(topic);
  const e = enc.encode(event);
  const m = meta ? enc.encode(JSON.stringify(meta)) : new Uint8Array(0);
  if (t.length > 255 || e.length > 255 || m.length > 255) return null;
  const out = new Uint8Array(5 + t.length + e.length + m.length + payload.length);
  out.set([USER_BROADCAST, t.length, e.length, m.length, encoding === "json" ? 1 : 0], 0);
  out.set(t, 5);
  out.set(e, 5 + t.length);
  out.set(m, 5 + t.length + e.length);
  out.set(payload, 5 + t.length + e.length + m.length);
  return out;
}
