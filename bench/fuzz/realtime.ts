// The realtime grammar: Phoenix frames (vsn 2.0.0) on one socket: a join with a config of any shape
// (broadcast and presence options, postgres_changes bindings whose filters use every operator, regular
// expressions included), then broadcasts, presence tracks, token changes, heartbeats and frames that
// are not frames. The socket stays open a moment after the reply so changes made meanwhile by the other
// requests reach its filters.
import { jsonStringify, jsonValue, type Rng, text, word } from "./grammar.ts";
import { TABLES } from "./rest.ts";
import { regex } from "./text-search.ts";
import type { SocketCase, Who, World } from "./world.ts";

/** Where the runner puts the caller's token (or null) in a frame. */
export const TOKEN_SLOT = '"$ACCESS_TOKEN"';

const FILTER_OPS = [
  "eq",
  "neq",
  "lt",
  "lte",
  "gt",
  "gte",
  "in",
  "like",
  "ilike",
  "is",
  "match",
  "imatch",
  "isdistinct",
  "fts",
  "cs",
];

function changesFilter(r: Rng, w: World, table: string): string {
  const one = () => {
    const col = r.chance(0.9) ? r.pick(TABLES[table] ?? ["id"]) : word(r);
    const op = r.pick(FILTER_OPS);
    const value = r.weighted([
      [op === "match" || op === "imatch" ? 6 : 0, () => regex(r)],
      [op === "in" ? 6 : 0, () => `(${r.repeat(r.size(500), () => word(r)).join(",")})`],
      [2, () => r.pick(w.accounts).id],
      [3, () => text(r, 60)],
    ]);
    return `${col}=${r.chance(0.1) ? "not." : ""}${op}.${value}`;
  };
  return r.repeat(r.chance(0.1) ? r.size(300) : r.int(1, 3), one).join(",");
}

function joinConfig(r: Rng, w: World): unknown {
  const binding = () => {
    const table = r.chance(0.9) ? r.pick(Object.keys(TABLES)) : word(r);
    return {
      event: r.pick(["*", "INSERT", "UPDATE", "DELETE", word(r)]),
      schema: r.pick(["public", "public", "auth", "*", word(r)]),
      ...(r.chance(0.9) ? { table } : {}),
      ...(r.chance(0.7) ? { filter: changesFilter(r, w, table) } : {}),
      ...(r.chance(0.1) ? { select: r.repeat(r.size(50), () => word(r)) } : {}),
    };
  };
  return r.weighted<unknown>([
    [
      8,
      () => ({
        broadcast: { self: r.chance(0.5), ack: r.chance(0.5) },
        presence: { key: r.chance(0.8) ? word(r) : jsonValue(r, 2), enabled: r.chance(0.5) },
        postgres_changes: r.repeat(r.chance(0.05) ? r.size(500) : r.int(0, 3), binding),
        private: r.chance(0.2),
      }),
    ],
    [1, () => jsonValue(r, 5)],
  ]);
}

function topic(r: Rng, w: World): string {
  return r.weighted([
    [5, () => `realtime:${r.pick(["library", "gallery", "public:generations", r.pick(w.accounts).id, word(r)])}`],
    [1, () => `realtime:${text(r, 300)}`],
    [1, () => r.pick(["phoenix", "", "realtime", "realtime:", text(r, 40)])],
  ]);
}

/** A frame after the join on the same topic: broadcast, presence, token change, heartbeat, or junk. */
function laterFrame(r: Rng, t: string, ref: number): string {
  const f = (event: string, payload: unknown, tp = t) =>
    `["1",${jsonStringify(String(ref))},${jsonStringify(tp)},${jsonStringify(event)},${jsonStringify(payload)}]`;
  return r.weighted([
    [
      5,
      () =>
        f("broadcast", { type: "broadcast", event: r.chance(0.8) ? word(r) : text(r, 100), payload: jsonValue(r, 6) }),
    ],
    [
      3,
      () => f("presence", { type: "presence", event: r.pick(["track", "untrack", word(r)]), payload: jsonValue(r, 5) }),
    ],
    [1, () => f("access_token", { access_token: "$ACCESS_TOKEN" })],
    [1, () => f("heartbeat", {}, "phoenix")],
    [1, () => f("phx_leave", {})],
    [1, () => r.pick(["[", "[]", "{}", "null", `[1,2,3,4,5,6]`, text(r, 200), jsonStringify(jsonValue(r, 4))])],
  ]);
}

export function realtimeCase(r: Rng, w: World, who: Who): SocketCase {
  const t = topic(r, w);
  const payload = r.weighted([
    [9, () => `{"config":${jsonStringify(joinConfig(r, w))},"access_token":${TOKEN_SLOT}}`],
    [1, () => jsonStringify(jsonValue(r, 4))],
  ]);
  const join = `["1","1",${jsonStringify(t)},"phx_join",${payload}]`;
  const frames = [join, ...r.repeat(r.chance(0.6) ? r.int(1, 6) : 0, (i) => laterFrame(r, t, i + 2))];
  return {
    kind: "ws",
    surface: "realtime",
    label: `join ${t.startsWith("realtime:") ? "realtime" : "odd topic"}${frames.length > 1 ? " + frames" : ""}`,
    who,
    frames,
    lingerMs: r.pick([0, 0, 50, 200]),
  };
}
