// The channels of every socket, by topic: broadcast fan-out and presence, as Supabase Realtime's
// PubSub and Phoenix.Presence serve them on one node. A public and a private channel of the same name
// are different topics, as hosted keeps them apart.

/**
 * A user broadcast: a JSON frame's or the REST API's map ({type, event, payload}) as it came, or a
 * binary push's payload bytes (JSON text or raw bytes) with its event. A message from the database
 * carries its realtime.messages id as metadata (clients see it as `meta`).
 */
export type UserMessage =
  | { encoding: "map"; payload: Record<string, unknown> }
  | { encoding: "json" | "binary"; event: string; payload: Uint8Array; meta?: { id: string } };

export interface Member {
  /** Whether this member may receive broadcasts (a private channel's read policy) right now. */
  readsBroadcast(): boolean;
  /** Whether this member may see presence (a private channel's read policy) right now. */
  readsPresence(): boolean;
  deliverBroadcast(message: UserMessage): void;
  push(event: "presence_diff" | "presence_state", payload: Record<string, unknown>): void;
}

type Meta = Record<string, unknown> & { phx_ref: string };
type Grouped = Record<string, { metas: Meta[] }>;

interface Topic {
  members: Set<Member>;
  /** One meta per tracking member, under the member's presence key. */
  presences: Map<Member, { key: string; meta: Meta }>;
}

export const topicKey = (name: string, isPrivate: boolean) => (isPrivate ? "private:" : "public:") + name;

export function createHub() {
  const topics = new Map<string, Topic>();
  let refCounter = 0;
  const newRef = () => `F${(++refCounter).toString(36)}${crypto.randomUUID().slice(0, 8)}`;

  const topicOf = (key: string) => {
    let t = topics.get(key);
    if (!t) {
      t = { members: new Set(), presences: new Map() };
      topics.set(key, t);
    }
    return t;
  };

  function group(entries: { key: string; meta: Meta }[]): Grouped {
    const out: Grouped = {};
    for (const { key, meta } of entries) (out[key] ??= { metas: [] }).metas.push(meta);
    return out;
  }

  function diff(t: Topic, joins: { key: string; meta: Meta }[], leaves: { key: string; meta: Meta }[]) {
    const payload = { joins: group(joins), leaves: group(leaves) };
    for (const m of t.members) if (m.readsPresence()) m.push("presence_diff", payload);
  }

  function untrack(key: string, member: Member) {
    const t = topics.get(key);
    const tracked = t?.presences.get(member);
    if (!t || !tracked) return;
    t.presences.delete(member);
    diff(t, [], [tracked]);
  }

  return {
    join(key: string, member: Member) {
      topicOf(key).members.add(member);
    },
    /** Leaving (phx_leave, socket closed, channel shut down) untracks the member's presence. */
    leave(key: string, member: Member) {
      const t = topics.get(key);
      if (!t) return;
      untrack(key, member);
      t.members.delete(member);
      if (t.members.size === 0) topics.delete(key);
    },
    /** Sends to every reader of the topic; the sender too only when it asked for `self`. */
    broadcast(key: string, message: UserMessage, from: Member | null, self: boolean): number {
      const t = topics.get(key);
      if (!t) return 0;
      let delivered = 0;
      for (const m of t.members) {
        if (m === from && !self) continue;
        if (m.readsBroadcast()) {
          m.deliverBroadcast(message);
          delivered++;
        }
      }
      return delivered;
    },
    presenceState(key: string): Grouped {
      return group([...(topics.get(key)?.presences.values() ?? [])]);
    },
    /** Tracks (or updates, as Presence.update does: the new meta replaces the old) a member's presence. */
    track(key: string, member: Member, presenceKey: string, payload: Record<string, unknown>) {
      const t = topicOf(key);
      const previous = t.presences.get(member);
      const meta: Meta = { ...payload, phx_ref: newRef() };
      if (previous) meta.phx_ref_prev = previous.meta.phx_ref;
      const entry = { key: presenceKey, meta };
      t.presences.set(member, entry);
      diff(t, [entry], previous ? [previous] : []);
    },
    untrack,
  };
}

export type Hub = ReturnType<typeof createHub>;

/** A count of events per second, shared by every socket as hosted counts them per project. */
export function createRateWindow(perSecond: number) {
  let windowStart = 0;
  let count = 0;
  const roll = () => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      count = 0;
    }
  };
  return {
    /** Takes `n` events if they fit in this second's budget; false (nothing taken) when they do not. */
    take(n = 1): boolean {
      roll();
      if (count + n > perSecond) return false;
      count += n;
      return true;
    },
    /** Counts events that already happened (deliveries), even past the budget. */
    add(n: number) {
      roll();
      count += n;
    },
  };
}

export type RateWindow = ReturnType<typeof createRateWindow>;

/** Byte size of a broadcast as the payload-size limit measures it. */
export function messageBytes(m: UserMessage): number {
  if (m.encoding === "map") return new TextEncoder().encode(JSON.stringify(m.payload)).length;
  return m.payload.length + new TextEncoder().encode(m.event).length;
}
