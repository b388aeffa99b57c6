// Phoenix channel frames as supabase-js speaks them. vsn 2.0.0 (what the client uses) is a JSON array
// [join_ref, ref, topic, event, payload]; vsn 1.0.0 is an object with the same fields. The version is
// chosen per socket from the `vsn` query parameter of the connect URL.

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
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
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
  return vsn === "2.0.0"
    ? JSON.stringify([f.joinRef, f.ref, f.topic, f.event, f.payload])
    : JSON.stringify({ join_ref: f.joinRef, ref: f.ref, topic: f.topic, event: f.event, payload: f.payload });
}

/** The reply to a client push: same join_ref and ref, event phx_reply. */
export function reply(to: Frame, status: "ok" | "error", response: Record<string, unknown> = {}): Frame {
  return { joinRef: to.joinRef, ref: to.ref, topic: to.topic, event: "phx_reply", payload: { status, response } };
}
