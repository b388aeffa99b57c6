// The RPC grammar: every function the REST surface exposes, called by POST with a JSON body or by GET
// with query arguments, its arguments of their kind or of any kind, the gallery's search fed with
// websearch queries, and the result filtered and ordered as a table's would be.
import { REPORT_NOTE_MAX_CHARS, REPORT_REASONS } from "#shared/vocabulary/moderation.ts";
import { pctEncode as pct } from "../../tests/support/hostile.ts";
import { jsonBody, jsonValue, queryValue, type Rng, text, word } from "./grammar.ts";
import { websearch } from "./text-search.ts";
import type { HttpCase, Who, World } from "./world.ts";

type Arg = (r: Rng, w: World) => unknown;

const uuid: Arg = (r, w) => (r.chance(0.7) ? r.pick(w.accounts).id : r.pick(w.generations).id);
const timezone: Arg = (r) => r.pick(["UTC", "Europe/Paris", "America/St_Johns", "Etc/GMT+14", "Mars/Base", "", "utc"]);
const when: Arg = (r) => r.pick(["2026-01-01T00:00:00Z", "infinity", "-infinity", "2026-02-30", "now"]);

/** Each function with its arguments (a function not listed is fuzzed by name only). */
const FUNCTIONS: Record<string, Record<string, Arg>> = {
  get_my_limits: {},
  set_my_timezone: { p_timezone: timezone },
  increment_generation_count: { p_user_id: uuid },
  quota_reserve: { p_user_id: uuid, p_request_id: uuid },
  quota_commit: { p_user_id: uuid, p_request_id: uuid },
  quota_release: { p_user_id: uuid, p_request_id: uuid },
  search_gallery: {
    p_query: (r) => websearch(r),
    p_before: when,
    p_before_id: uuid,
    p_limit: (r) => r.pick([1, 25, 0, -1, 100_000, 2 ** 31, "x"]),
  },
  record_generation: { p_generation: (r) => jsonValue(r, 4) },
  is_style_id: { p_style: (r) => r.pick(["anime", "photorealistic", text(r, 40)]) },
  is_iana_timezone: { p_name: timezone },
  next_local_midnight: { p_from: when, p_tz: timezone },
  web_vital_rating: {
    p_name: (r) => r.pick(["LCP", "CLS", "INP", text(r, 8)]),
    p_value: (r) => r.pick([0, 1.5, -1, 1e308]),
  },
  engine_health: {},
  record_engine_attempt: {
    p_provider: (r) => text(r, 80),
    p_ok: (r) => r.pick([true, false, "x"]),
    p_error_code: (r) => text(r, 40),
    p_ms: (r) => r.pick([0, 10, -1, 1e300]),
  },
};

/**
 * Functions added after CI's seeds and the fixed ones were drawn: they are called from the branch that
 * picks a name outside FUNCTIONS, so the requests the seeds already make stay the same.
 */
const LATER_FUNCTIONS: Record<string, Record<string, Arg>> = {
  report_generation: {
    p_generation_id: uuid,
    p_reason: (r) => (r.chance(0.7) ? r.pick(REPORT_REASONS) : r.pick(["spam", "", "SEXUAL", text(r, 40)])),
    p_note: (r) =>
      r.pick([null, "", text(r, 200), "x".repeat(r.pick([REPORT_NOTE_MAX_CHARS, REPORT_NOTE_MAX_CHARS + 1, 100_000]))]),
  },
  my_reported_generations: {},
  is_operator: {},
  moderation_queue: { p_limit: (r) => r.pick([1, 100, 0, -1, 2 ** 31, "x"]) },
  moderate_generation: {
    p_generation_id: uuid,
    p_action: (r) => r.pick(["restore", "unpublish", "suspend", "delete", text(r, 20)]),
    p_reason: (r) => text(r, 300),
    p_suspend_until: when,
  },
  take_stale_reservations: { p_user_id: uuid },
};

function args(r: Rng, w: World, fn: string): Record<string, unknown> {
  const known = FUNCTIONS[fn] ?? LATER_FUNCTIONS[fn] ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, make] of Object.entries(known)) {
    if (r.chance(0.1)) continue;
    out[name] = r.chance(0.85) ? make(r, w) : jsonValue(r, 3);
  }
  if (r.chance(0.1)) out[r.chance(0.5) ? word(r) : text(r, 20)] = jsonValue(r, 3);
  return out;
}

export function rpcCase(r: Rng, w: World, who: Who): HttpCase {
  const fn = r.chance(0.95)
    ? r.pick(Object.keys(FUNCTIONS))
    : r.pick(["pg_sleep", "version", word(r), "", "../generations", ...Object.keys(LATER_FUNCTIONS)]);
  const a = args(r, w, fn);
  const post = r.chance(0.7);
  const method = post ? "POST" : r.pick(["GET", "GET", "HEAD"]);
  const tail: string[] = [];
  if (r.chance(0.2))
    tail.push(`select=${queryValue(r, r.pick(["id,prompt", "*", "id::text", "count()", text(r, 20)]))}`);
  if (r.chance(0.15)) tail.push(`order=${r.pick(["created_at.desc", "id", "x.y.z"])}`);
  if (r.chance(0.1)) tail.push(`limit=${r.pick(["1", "0", "-3", "z"])}`);
  if (!post) {
    for (const [k, v] of Object.entries(a)) {
      tail.push(`${queryValue(r, k)}=${queryValue(r, typeof v === "string" ? v : (JSON.stringify(v) ?? ""))}`);
    }
  }
  return {
    kind: "http",
    surface: "rpc",
    label: `${method} rpc/${fn.slice(0, 24)}`,
    who,
    method,
    path: `/rest/v1/rpc/${pct(fn)}${tail.length ? `?${tail.join("&")}` : ""}`,
    headers: post
      ? { "content-type": "application/json", ...(r.chance(0.1) ? { prefer: "params=single-object" } : {}) }
      : {},
    body: post ? jsonBody(r, a) : undefined,
  };
}
