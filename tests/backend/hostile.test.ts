// Hostile input on every route of the local backend, on PGlite and on PostgreSQL: deep JSON (10,000
// and 20,000 levels, arrays and objects), bodies over the limits, unstorable and deceptive text in every
// text field, decompression and header bombs, forged and malformed tokens, and bursts of 50. The rule:
// the backend may be stricter than hosted Supabase, never more lenient; every bad input gets a 4xx,
// never a 5xx, a hang (no answer in 10 s), a dropped connection or a crash. Each probe family runs on a
// fresh backend; after every probe a request that makes Postgres raise an error
// (generations?id=eq.not-a-uuid) must still answer 4xx promptly, so a probe that wedges the database
// is named, and the backend is restarted so it does not mask the probes after it. The answers are
// counted by class per family and printed; the suite fails on any bad answer, and unless /health
// answers within 100 ms at the end of each family.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { BACKEND_TARGETS, startBackendOn } from "../support/backend-targets.ts";
import { type Backend } from "../support/backend.ts";
import { newUser, serviceClient } from "../support/clients.ts";
import {
  alive,
  type Answer,
  authHeaders,
  BAD,
  claimsFor,
  dataUrl,
  deepArray,
  deepObject,
  gifBomb,
  gzip,
  HOSTILE_TEXT,
  hugeJson,
  jpegBomb,
  jsonText,
  jsonWith,
  mintJwt,
  pathologicalValues,
  pctEncode,
  pngBomb,
  type ProbeResult,
  rawGet,
  realtimeProbe,
  report,
  send,
  withDeep,
} from "../support/hostile.ts";
import { gifDeclaringHuge, jpegDeclaringHuge, pngDeclaringHuge, pngTruncated } from "../support/hostile-images.ts";

/** Over every JSON body limit of the backend (REST and auth 1 MB, storage 256 KB, functions 6 MB). */
const HUGE_BYTES = 7 * 1024 * 1024;
/** Over the largest upload (20 MB, and the generations bucket's limit). */
const HUGE_UPLOAD_BYTES = 21 * 1024 * 1024;
const BURST = 50;
const FOLLOW_UP_MS = 3000;

/** What a probe acts with: a backend, a signed-in owner with one generation, and the keys. */
interface Scene {
  b: Backend;
  token: string;
  refreshToken: string;
  userId: string;
  email: string;
  genId: string;
}

type Probe = { name: string; run: (s: Scene) => Promise<Answer | Answer[]> };

const results: ProbeResult[] = [];

afterAll(() => {
  if (results.length) console.log(`\nHostile-input answers by class\n${report(results)}\n`);
});

async function scene(postgres: boolean, family: string): Promise<Scene> {
  const b = await startBackendOn(postgres, `pc_hostile_${family.replace(/\W+/g, "_")}`);
  try {
    const owner = await newUser(b, "hostile");
    const { data } = await owner.client.auth.getSession();
    const server = serviceClient(b);
    // The owner may render as much as the probes ask: the daily quota is not what is under test.
    await owner.client.rpc("get_my_limits");
    const raised = await server
      .from("user_daily_limits")
      .update({ subscription_tier: "premium" })
      .eq("user_id", owner.id);
    if (raised.error) throw new Error(`raise tier: ${raised.error.message}`);
    const genId = randomUUID();
    const ins = await server.from("generations").insert({
      id: genId,
      user_id: owner.id,
      prompt: "a quiet harbour",
      provider: "builtin",
      model: "procedural",
      image_path: `${owner.id}/${genId}.png`,
    });
    if (ins.error) throw new Error(`fixture row: ${ins.error.message}`);
    return {
      b,
      token: data.session!.access_token,
      refreshToken: data.session!.refresh_token,
      userId: owner.id,
      email: owner.email,
      genId,
    };
  } catch (e) {
    await b.stop();
    throw e;
  }
}

/** A request that makes Postgres raise an error (22P02): a 4xx, promptly, when the database is well. */
async function dbFollowUp(s: Scene): Promise<Answer> {
  const a = await Promise.race([
    send(s.b, "/rest/v1/generations?id=eq.not-a-uuid", { headers: authHeaders(s.b, s.token, false) }),
    new Promise<Answer>((r) =>
      setTimeout(
        () =>
          r({
            cls: "hang",
            status: null,
            detail: `database error query unanswered in ${FOLLOW_UP_MS} ms`,
            ms: FOLLOW_UP_MS,
          }),
        FOLLOW_UP_MS,
      ),
    ),
  ]);
  // Postgres's error must come back as a 4xx; a 2xx here would mean the filter never reached it.
  return a.cls === "2xx" ? { ...a, cls: "5xx", detail: `expected a 4xx for a bad uuid, got ${a.status}` } : a;
}

/** /health within 100 ms (best of three, so one scheduling blip on a shared machine is not a verdict). */
async function healthWithin100ms(b: Backend): Promise<Answer> {
  let last: Answer = { cls: "hang", status: null, detail: "", ms: 0 };
  for (let i = 0; i < 3; i++) {
    const a = await send(b, "/health");
    if (a.cls === "2xx" && a.ms <= 100) return a;
    last = a.cls === "2xx" ? { ...a, cls: "hang", detail: `/health took ${a.ms.toFixed(0)} ms` } : a;
  }
  return last;
}

/**
 * Runs a family's probes in order on a fresh backend; after each, the database follow-up. A probe that
 * leaves the backend wedged or dead gets a fresh backend for the probes after it.
 */
async function runFamily(database: string, postgres: boolean, family: string, probes: Probe[]): Promise<void> {
  let s = await scene(postgres, family);
  const mine: ProbeResult[] = [];
  const record = (probe: string, answer: Answer) => {
    const r = { database, family, probe, answer };
    results.push(r);
    mine.push(r);
  };
  try {
    for (const p of probes) {
      let answers: Answer[];
      try {
        const got = await p.run(s);
        answers = Array.isArray(got) ? got : [got];
      } catch (e) {
        // The probe itself could not be sent (a client-side refusal): reported, not hidden.
        answers = [{ cls: "reset", status: null, detail: `probe failed to send: ${String(e)}`, ms: 0 }];
      }
      answers.forEach((a, i) => record(answers.length > 1 ? `${p.name} #${i + 1}` : p.name, a));
      const after = await dbFollowUp(s);
      const wedged = BAD.has(after.cls) || !(await alive(s.b));
      if (wedged) record(`${p.name} → then generations?id=eq.not-a-uuid`, after);
      // A hang on its own (the database follow-up fine) leaves the backend usable: no restart needed.
      if (wedged || answers.some((a) => a.cls === "crash")) {
        await s.b.stop();
        s = await scene(postgres, family);
      }
    }
    record("after the family: generations?id=eq.not-a-uuid", await dbFollowUp(s));
    record("after the family: /health within 100 ms", await healthWithin100ms(s.b));
  } finally {
    await s.b.stop();
  }
  // Text Postgres cannot store (NUL, a lone surrogate) is refused wherever it would be stored, never
  // accepted and silently changed. (A read filter stores nothing: its lone surrogate, invalid UTF-8 in a
  // URL, arrives as U+FFFD and rightly matches no row.)
  const unstorable = /\((nul|lone high surrogate|lone low surrogate)\)/;
  const accepted = (r: ProbeResult) => unstorable.test(r.probe) && !/filter/.test(r.probe) && r.answer.cls === "2xx";
  const bad = mine.filter((r) => BAD.has(r.answer.cls) || accepted(r));
  expect(
    bad.map((r) => `${r.probe}: ${r.answer.cls} ${r.answer.status ?? ""} ${r.answer.detail.slice(0, 120)}`),
  ).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------
// Routes

const H = authHeaders;
const post = (
  s: Scene,
  path: string,
  body: BodyInit,
  token: string | null = s.token,
  extra: Record<string, string> = {},
) => send(s.b, path, { method: "POST", body, headers: { ...H(s.b, token), ...extra } });

/** Each table the product has, with a column a client would write. */
const TABLES: { table: string; column: string; filter: (s: Scene) => string }[] = [
  { table: "generations", column: "is_saved", filter: (s) => `id=eq.${s.genId}` },
  { table: "user_preferences", column: "default_style", filter: (s) => `user_id=eq.${s.userId}` },
  { table: "tier_quotas", column: "daily_limit", filter: () => "tier=eq.free" },
  { table: "user_daily_limits", column: "timezone", filter: (s) => `user_id=eq.${s.userId}` },
  { table: "quota_reservations", column: "request_id", filter: (s) => `user_id=eq.${s.userId}` },
  { table: "app_events", column: "metadata", filter: (s) => `user_id=eq.${s.userId}` },
  { table: "web_vitals", column: "metric_id", filter: (s) => `user_id=eq.${s.userId}` },
];

/** Each rpc function, with its first argument. */
const RPCS: { fn: string; arg: string }[] = [
  { fn: "get_my_limits", arg: "p" },
  { fn: "set_my_timezone", arg: "p_timezone" },
  { fn: "increment_generation_count", arg: "p_user_id" },
  { fn: "quota_reserve", arg: "p_user_id" },
  { fn: "quota_commit", arg: "p_user_id" },
  { fn: "quota_release", arg: "p_user_id" },
  { fn: "take_stale_reservations", arg: "p_user_id" },
  { fn: "search_gallery", arg: "p_query" },
  { fn: "record_generation", arg: "p_generation" },
  { fn: "is_style_id", arg: "p_style" },
  { fn: "is_iana_timezone", arg: "p_name" },
  { fn: "next_local_midnight", arg: "p_tz" },
  { fn: "web_vital_rating", arg: "p_name" },
];

/** Every route that reads a JSON body, as (name, send this body). */
type BodyRoute = { name: string; send: (s: Scene, body: BodyInit, extra?: Record<string, string>) => Promise<Answer> };

function bodyRoutes(): BodyRoute[] {
  const routes: BodyRoute[] = [];
  for (const t of TABLES) {
    routes.push({
      name: `POST /rest/v1/${t.table}`,
      send: (s, body, x) => post(s, `/rest/v1/${t.table}`, body, s.token, x),
    });
    for (const method of ["PATCH", "DELETE"]) {
      routes.push({
        name: `${method} /rest/v1/${t.table}`,
        send: (s, body, x) =>
          send(s.b, `/rest/v1/${t.table}?${t.filter(s)}`, { method, body, headers: { ...H(s.b, s.token), ...x } }),
      });
    }
  }
  for (const r of RPCS) {
    routes.push({
      name: `POST /rest/v1/rpc/${r.fn}`,
      send: (s, body, x) => post(s, `/rest/v1/rpc/${r.fn}`, body, s.token, x),
    });
  }
  routes.push(
    { name: "POST /auth/v1/signup", send: (s, body, x) => post(s, "/auth/v1/signup", body, null, x) },
    {
      name: "POST /auth/v1/token?grant_type=password",
      send: (s, body, x) => post(s, "/auth/v1/token?grant_type=password", body, null, x),
    },
    {
      name: "POST /auth/v1/token?grant_type=refresh_token",
      send: (s, body, x) => post(s, "/auth/v1/token?grant_type=refresh_token", body, null, x),
    },
    {
      name: "PUT /auth/v1/user",
      send: (s, body, x) => send(s.b, "/auth/v1/user", { method: "PUT", body, headers: { ...H(s.b, s.token), ...x } }),
    },
    { name: "POST /auth/v1/recover", send: (s, body, x) => post(s, "/auth/v1/recover", body, null, x) },
    { name: "POST /auth/v1/verify", send: (s, body, x) => post(s, "/auth/v1/verify", body, null, x) },
    { name: "POST /auth/v1/resend", send: (s, body, x) => post(s, "/auth/v1/resend", body, null, x) },
    {
      name: "POST /storage/v1/object/sign/<one>",
      send: (s, body, x) => post(s, `/storage/v1/object/sign/generations/${s.userId}/${s.genId}.png`, body, s.token, x),
    },
    {
      name: "POST /storage/v1/object/sign/<many>",
      send: (s, body, x) => post(s, "/storage/v1/object/sign/generations", body, s.token, x),
    },
    {
      name: "POST /storage/v1/object/list",
      send: (s, body, x) => post(s, "/storage/v1/object/list/generations", body, s.token, x),
    },
    {
      name: "DELETE /storage/v1/object (remove many)",
      send: (s, body, x) =>
        send(s.b, "/storage/v1/object/generations", { method: "DELETE", body, headers: { ...H(s.b, s.token), ...x } }),
    },
    { name: "POST /storage/v1/bucket", send: (s, body, x) => post(s, "/storage/v1/bucket", body, s.token, x) },
    {
      name: "POST /storage/v1/object (upload, service role)",
      send: (s, body, x) =>
        send(s.b, `/storage/v1/object/generations/${s.userId}/${randomUUID()}.json`, {
          method: "POST",
          body,
          headers: { ...H(s.b, s.b.serviceRoleKey), ...x },
        }),
    },
    {
      name: "POST /functions/v1/generate-image",
      send: (s, body, x) => post(s, "/functions/v1/generate-image", body, s.token, x),
    },
    {
      name: "POST /functions/v1/delete-account",
      send: (s, body, x) => post(s, "/functions/v1/delete-account", body, s.token, x),
    },
  );
  return routes;
}

/** A field of each route's body where a deep value goes: the value a well-formed request would carry. */
function deepField(route: string): { fields: Record<string, unknown>; key: string } {
  const rest = /\/rest\/v1\/(?!rpc)([a-z_]+)/.exec(route);
  if (rest) return { fields: {}, key: TABLES.find((t) => t.table === rest[1])!.column };
  const rpc = /\/rpc\/([a-z_]+)/.exec(route);
  if (rpc) return { fields: {}, key: RPCS.find((r) => r.fn === rpc[1])!.arg };
  if (route.includes("signup"))
    return { fields: { email: "deep@example.test", password: "correct-horse-42" }, key: "data" };
  if (route.includes("password")) return { fields: { password: "x" }, key: "email" };
  if (route.includes("refresh")) return { fields: {}, key: "refresh_token" };
  if (route.includes("/user")) return { fields: {}, key: "data" };
  if (route.includes("verify")) return { fields: { type: "recovery" }, key: "token_hash" };
  if (route.includes("recover") || route.includes("resend")) return { fields: { type: "signup" }, key: "email" };
  if (route.includes("sign/<one>")) return { fields: {}, key: "expiresIn" };
  if (route.includes("sign/<many>")) return { fields: { expiresIn: 60 }, key: "paths" };
  if (route.includes("list")) return { fields: {}, key: "prefix" };
  if (route.includes("remove")) return { fields: {}, key: "prefixes" };
  if (route.includes("bucket")) return { fields: { name: "deep" }, key: "id" };
  if (route.includes("generate-image")) return { fields: { request_id: randomUUID() }, key: "prompt" };
  return { fields: {}, key: "confirm" };
}

const DEEP_VARIANTS: { name: string; body: (route: string) => string }[] = [
  { name: "body: 10,000 nested arrays", body: () => deepArray(10_000) },
  { name: "body: 20,000 nested objects", body: () => deepObject(20_000) },
  {
    name: "field: 10,000 nested objects",
    body: (route) => {
      const f = deepField(route);
      return withDeep(f.fields, f.key, deepObject(10_000));
    },
  },
  {
    name: "field: 20,000 nested arrays",
    body: (route) => {
      const f = deepField(route);
      return withDeep(f.fields, f.key, deepArray(20_000));
    },
  },
];

function deepProbes(filter: (route: string) => boolean): Probe[] {
  return bodyRoutes()
    .filter((r) => filter(r.name))
    .flatMap((r) =>
      DEEP_VARIANTS.map((v) => ({ name: `${r.name} ${v.name}`, run: (s: Scene) => r.send(s, v.body(r.name)) })),
    );
}

function realtimeJoin(topic: string, payload: string): string {
  return `["1","1",${JSON.stringify(topic)},"phx_join",${payload}]`;
}

const realtimeDeepProbes: Probe[] = [
  { name: "realtime frame: 10,000 nested arrays", run: (s) => realtimeProbe(s.b, deepArray(10_000)) },
  {
    name: "realtime join payload: 20,000 nested objects",
    run: (s) => realtimeProbe(s.b, realtimeJoin("realtime:x", deepObject(20_000))),
  },
  {
    name: "realtime join config: 10,000 nested objects",
    run: (s) =>
      realtimeProbe(s.b, realtimeJoin("realtime:x", withDeep({ access_token: s.token }, "config", deepObject(10_000)))),
  },
  {
    name: "realtime join postgres_changes: 20,000 nested arrays",
    run: (s) =>
      realtimeProbe(
        s.b,
        realtimeJoin(
          "realtime:x",
          `{"access_token":${JSON.stringify(s.token)},"config":{"postgres_changes":${deepArray(20_000)}}}`,
        ),
      ),
  },
];

const hugeProbes: Probe[] = [
  ...bodyRoutes().map((r) => ({
    name: `${r.name} 7 MB JSON`,
    run: (s: Scene) => r.send(s, hugeJson(HUGE_BYTES, deepField(r.name).fields)),
  })),
  {
    name: "POST /rest/v1/app_events 7 MB JSON, chunked (no content-length)",
    run: (s) => {
      const bytes = new TextEncoder().encode(hugeJson(HUGE_BYTES, { name: "x" }));
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536));
          c.close();
        },
      });
      return send(s.b, "/rest/v1/app_events", {
        method: "POST",
        body,
        headers: H(s.b, s.token),
        duplex: "half",
      } as RequestInit);
    },
  },
  {
    name: "POST /storage/v1/object 21 MB upload (service role)",
    run: (s) =>
      send(s.b, `/storage/v1/object/generations/${s.userId}/huge.png`, {
        method: "POST",
        body: new Uint8Array(HUGE_UPLOAD_BYTES),
        headers: { ...H(s.b, s.b.serviceRoleKey, false), "content-type": "image/png" },
      }),
  },
  { name: "realtime frame of 7 MB", run: (s) => realtimeProbe(s.b, realtimeJoin("realtime:x", hugeJson(HUGE_BYTES))) },
];

/** Every text field a person can fill, with each kind of hostile text. */
function textProbes(): Probe[] {
  const probes: Probe[] = [];
  for (const [kind, text] of Object.entries(HOSTILE_TEXT)) {
    const enc = pctEncode(text);
    probes.push(
      {
        name: `generate-image prompt (${kind})`,
        run: (s) => post(s, "/functions/v1/generate-image", jsonWith({ request_id: randomUUID() }, { prompt: text })),
      },
      {
        name: `generate-image negative_prompt (${kind})`,
        run: (s) =>
          post(
            s,
            "/functions/v1/generate-image",
            jsonWith({ request_id: randomUUID(), prompt: "a harbour" }, { negative_prompt: text }),
          ),
      },
      {
        name: `signup user metadata (${kind})`,
        run: (s) =>
          post(
            s,
            "/auth/v1/signup",
            `{"email":"t-${randomUUID()}@example.test","password":"correct-horse-42","data":${jsonWith({}, { display_name: text })}}`,
            null,
          ),
      },
      {
        name: `signup email (${kind})`,
        run: (s) =>
          post(
            s,
            "/auth/v1/signup",
            jsonWith({ password: "correct-horse-42" }, { email: `a${text}@example.test` }),
            null,
          ),
      },
      {
        name: `signup metadata key (${kind})`,
        run: (s) =>
          post(
            s,
            "/auth/v1/signup",
            `{"email":"k-${randomUUID()}@example.test","password":"correct-horse-42","data":{${jsonText(text)}:1}}`,
            null,
          ),
      },
      {
        name: `user update metadata (${kind})`,
        run: (s) =>
          send(s.b, "/auth/v1/user", {
            method: "PUT",
            body: `{"data":${jsonWith({}, { name: text })}}`,
            headers: H(s.b, s.token),
          }),
      },
      {
        name: `user update password (${kind})`,
        run: (s) =>
          send(s.b, "/auth/v1/user", {
            method: "PUT",
            body: jsonWith({}, { password: `pw-${text}-long` }),
            headers: H(s.b, s.token),
          }),
      },
      {
        name: `sign-in email (${kind})`,
        run: (s) => post(s, "/auth/v1/token?grant_type=password", jsonWith({ password: "x" }, { email: text }), null),
      },
      {
        name: `preferences timezone (${kind})`,
        run: (s) =>
          send(s.b, `/rest/v1/user_preferences?user_id=eq.${s.userId}`, {
            method: "PATCH",
            body: jsonWith({}, { timezone: text }),
            headers: H(s.b, s.token),
          }),
      },
      {
        name: `preferences default_style upsert (${kind})`,
        run: (s) =>
          post(s, "/rest/v1/user_preferences", jsonWith({ user_id: s.userId }, { default_style: text }), s.token, {
            prefer: "resolution=merge-duplicates",
          }),
      },
      {
        name: `rpc set_my_timezone (${kind})`,
        run: (s) => post(s, "/rest/v1/rpc/set_my_timezone", jsonWith({}, { p_timezone: text })),
      },
      {
        name: `app_events name (${kind})`,
        run: (s) => post(s, "/rest/v1/app_events", jsonWith({ metadata: {} }, { name: text })),
      },
      {
        name: `app_events metadata value (${kind})`,
        run: (s) => post(s, "/rest/v1/app_events", `{"name":"probe","metadata":${jsonWith({}, { note: text })}}`),
      },
      {
        name: `app_events metadata key (${kind})`,
        run: (s) => post(s, "/rest/v1/app_events", `{"name":"probe","metadata":{${jsonText(text)}:1}}`),
      },
      {
        name: `web_vitals metric_id (${kind})`,
        run: (s) => post(s, "/rest/v1/web_vitals", jsonWith({ name: "LCP", value: 1 }, { metric_id: text })),
      },
      {
        name: `rpc search_gallery query (${kind})`,
        run: (s) => post(s, "/rest/v1/rpc/search_gallery", jsonWith({}, { p_query: text })),
      },
      {
        name: `REST filter value (${kind})`,
        run: (s) => send(s.b, `/rest/v1/generations?prompt=eq.${enc}`, { headers: H(s.b, s.token, false) }),
      },
      {
        name: `storage upload object name (${kind})`,
        run: (s) =>
          send(s.b, `/storage/v1/object/generations/${s.userId}/${enc}.png`, {
            method: "POST",
            body: pngBomb(1, 1),
            headers: { ...H(s.b, s.b.serviceRoleKey, false), "content-type": "image/png" },
          }),
      },
      {
        name: `storage sign object name (${kind})`,
        run: (s) => post(s, `/storage/v1/object/sign/generations/${s.userId}/${enc}.png`, '{"expiresIn":60}'),
      },
      {
        name: `storage sign many names (${kind})`,
        run: (s) =>
          post(
            s,
            "/storage/v1/object/sign/generations",
            `{"expiresIn":60,"paths":[${jsonText(`${s.userId}/${text}.png`)}]}`,
          ),
      },
      {
        name: `storage list prefix (${kind})`,
        run: (s) => post(s, "/storage/v1/object/list/generations", `{"prefix":${jsonText(`${s.userId}/${text}`)}}`),
      },
      {
        name: `storage remove names (${kind})`,
        run: (s) =>
          send(s.b, "/storage/v1/object/generations", {
            method: "DELETE",
            body: `{"prefixes":[${jsonText(`${s.userId}/${text}.png`)}]}`,
            headers: H(s.b, s.token),
          }),
      },
      {
        name: `storage render object name (${kind})`,
        run: (s) =>
          send(s.b, `/storage/v1/render/image/authenticated/generations/${s.userId}/${enc}.png?width=64`, {
            headers: H(s.b, s.token, false),
          }),
      },
    );
  }
  return probes;
}

const BOMBS: { name: string; mime: string; bytes: () => Uint8Array<ArrayBuffer> }[] = [
  { name: "PNG claiming 50,000 x 50,000", mime: "image/png", bytes: () => pngBomb() },
  { name: "GIF claiming 65,535 x 65,535", mime: "image/gif", bytes: gifBomb },
  { name: "JPEG claiming 65,535 x 65,535", mime: "image/jpeg", bytes: jpegBomb },
  // Within the limits (4096 px a side, 16 M pixels), so only a decode can refuse them: it runs off the
  // event loop within its time budget, and each failure counts against the sender's account.
  { name: "PNG declaring 4096 x 3900 in 62 KB", mime: "image/png", bytes: () => pngDeclaringHuge() },
  { name: "PNG failing at its last row", mime: "image/png", bytes: () => pngDeclaringHuge(4096, 3900, true) },
  { name: "PNG cut off halfway", mime: "image/png", bytes: () => pngTruncated() },
  { name: "GIF declaring 4096 x 3900 in 35 bytes", mime: "image/gif", bytes: () => gifDeclaringHuge() },
  { name: "JPEG declaring 4000 x 3900 with no scan", mime: "image/jpeg", bytes: () => jpegDeclaringHuge() },
];

function bombProbes(): Probe[] {
  const probes: Probe[] = [];
  for (const bomb of BOMBS) {
    probes.push(
      {
        name: `generate-image reference image: ${bomb.name}`,
        run: (s) =>
          post(
            s,
            "/functions/v1/generate-image",
            JSON.stringify({
              request_id: randomUUID(),
              prompt: "a harbour",
              reference_image: dataUrl(bomb.mime, bomb.bytes()),
            }),
          ),
      },
      {
        name: `storage upload then render: ${bomb.name}`,
        run: async (s) => {
          const name = `${s.userId}/bomb-${randomUUID()}.${bomb.mime.split("/")[1]}`;
          const up = await send(s.b, `/storage/v1/object/generations/${name}`, {
            method: "POST",
            body: bomb.bytes(),
            headers: { ...H(s.b, s.b.serviceRoleKey, false), "content-type": bomb.mime },
          });
          if (up.cls !== "2xx") return up;
          const render = await send(
            s.b,
            `/storage/v1/render/image/authenticated/generations/${name}?width=256&height=256`,
            {
              headers: H(s.b, s.token, false),
            },
          );
          const download = await send(s.b, `/storage/v1/object/authenticated/generations/${name}`, {
            headers: H(s.b, s.token, false),
          });
          return [up, render, download];
        },
      },
    );
  }
  // A gzip bomb: 64 MB of JSON whitespace that compresses to ~64 KB, on each kind of JSON route.
  const bombBody = () => gzip(`{"name":"x","metadata":{}${" ".repeat(64 * 1024 * 1024)}}`);
  const gz = { "content-encoding": "gzip" };
  for (const [name, path, token] of [
    ["REST insert", "/rest/v1/app_events", "owner"],
    ["auth signup", "/auth/v1/signup", null],
    ["storage sign", "/storage/v1/object/sign/generations", "owner"],
    ["generate-image", "/functions/v1/generate-image", "owner"],
  ] as const) {
    probes.push({
      name: `gzip-encoded 64 MB body: ${name}`,
      run: (s) => post(s, path, bombBody(), token ? s.token : null, gz),
    });
    probes.push({
      name: `gzip-encoded small body: ${name}`,
      run: (s) => post(s, path, gzip('{"name":"x"}'), token ? s.token : null, gz),
    });
  }
  // Header bombs.
  const big = (n: number) => "h".repeat(n);
  probes.push(
    {
      name: "one 100 KB header (REST)",
      run: (s) => rawGet(s.b, "/rest/v1/generations", { ...H(s.b, s.token, false), "x-big": big(100_000) }),
    },
    {
      name: "one 1 MB header (REST)",
      run: (s) => rawGet(s.b, "/rest/v1/generations", { ...H(s.b, s.token, false), "x-big": big(1_000_000) }),
    },
    {
      name: "2,000 headers (REST)",
      run: (s) => {
        const headers: Record<string, string> = H(s.b, s.token, false);
        for (let i = 0; i < 2000; i++) headers[`x-h${i}`] = "v".repeat(20);
        return send(s.b, "/rest/v1/generations", { headers });
      },
    },
    {
      name: "1 MB bearer token (auth user)",
      run: (s) => rawGet(s.b, "/auth/v1/user", H(s.b, big(1_000_000), false)),
    },
    {
      name: "100 KB prefer header (REST)",
      run: (s) =>
        send(s.b, "/rest/v1/generations", { headers: { ...H(s.b, s.token, false), prefer: `count=${big(100_000)}` } }),
    },
    {
      name: "100 KB range header (storage download)",
      run: (s) =>
        send(s.b, `/storage/v1/object/authenticated/generations/${s.userId}/${s.genId}.png`, {
          headers: { ...H(s.b, s.token, false), range: `bytes=${"0-1,".repeat(25_000)}0-1` },
        }),
    },
    {
      name: "200 KB query string (REST select)",
      run: (s) =>
        send(s.b, `/rest/v1/generations?select=${"id,".repeat(70_000)}id`, { headers: H(s.b, s.token, false) }),
    },
    { name: "200 KB function name path", run: (s) => post(s, `/functions/v1/${big(200_000)}`, "{}") },
  );
  return probes;
}

function tokenProbes(): Probe[] {
  const endpoints: { name: string; run: (s: Scene, token: string) => Promise<Answer> }[] = [
    { name: "REST select", run: (s, t) => send(s.b, "/rest/v1/generations?select=id", { headers: H(s.b, t, false) }) },
    { name: "REST insert", run: (s, t) => post(s, "/rest/v1/app_events", '{"name":"x"}', t) },
    { name: "auth user", run: (s, t) => send(s.b, "/auth/v1/user", { headers: H(s.b, t, false) }) },
    { name: "auth logout", run: (s, t) => post(s, "/auth/v1/logout", "{}", t) },
    {
      name: "storage list",
      run: (s, t) => post(s, "/storage/v1/object/list/generations", `{"prefix":"${s.userId}"}`, t),
    },
    {
      name: "generate-image",
      run: (s, t) =>
        post(s, "/functions/v1/generate-image", JSON.stringify({ request_id: randomUUID(), prompt: "x" }), t),
    },
    { name: "delete-account", run: (s, t) => post(s, "/functions/v1/delete-account", "{}", t) },
    {
      name: "realtime join",
      run: (s, t) =>
        realtimeProbe(
          s.b,
          realtimeJoin("realtime:x", JSON.stringify({ access_token: t, config: { postgres_changes: [] } })),
        ),
    },
  ];
  const forged: { name: string; token: (s: Scene) => string }[] = [
    { name: "alg none as service_role", token: (s) => mintJwt(claimsFor(s.userId, "service_role"), null) },
    { name: "alg none as the owner", token: (s) => mintJwt(claimsFor(s.userId), null) },
    {
      name: "wrong secret",
      token: (s) => mintJwt(claimsFor(s.userId, "service_role"), "not-the-secret-at-all-0123456789"),
    },
    {
      name: "expired",
      token: (s) => mintJwt(claimsFor(s.userId, "authenticated", Math.floor(Date.now() / 1000) - 60), s.b.jwtSecret),
    },
    { name: "HS512 header, HS256 signature", token: (s) => mintJwt(claimsFor(s.userId), s.b.jwtSecret, "HS512") },
    {
      name: "sub not a uuid",
      token: (s) => mintJwt({ ...claimsFor(s.userId), sub: "'; drop table x; --" }, s.b.jwtSecret),
    },
    { name: "role unknown", token: (s) => mintJwt(claimsFor(s.userId, "postgres"), s.b.jwtSecret) },
    { name: "garbage", token: () => "garbage" },
    { name: "three empty parts", token: () => ".." },
    { name: "not base64", token: () => "%%%.***.!!!" },
    {
      name: "deep JSON claims",
      token: () =>
        `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from(deepArray(20_000)).toString("base64url")}.x`,
    },
    { name: "NUL in the claims", token: (s) => mintJwt({ ...claimsFor(s.userId), email: "a\u0000b" }, s.b.jwtSecret) },
  ];
  return forged.flatMap((f) =>
    endpoints.map((e) => ({ name: `${e.name}: ${f.name}`, run: (s: Scene) => e.run(s, f.token(s)) })),
  );
}

function burstProbes(): Probe[] {
  const burst = (name: string, one: (s: Scene, i: number) => Promise<Answer>): Probe => ({
    name: `${BURST} at once: ${name}`,
    run: (s) => Promise.all(Array.from({ length: BURST }, (_, i) => one(s, i))),
  });
  return [
    burst("deep JSON app_events inserts", (s) =>
      post(s, "/rest/v1/app_events", withDeep({ name: "x" }, "metadata", deepObject(20_000))),
    ),
    burst("2 MB REST inserts", (s) => post(s, "/rest/v1/app_events", hugeJson(2 * 1024 * 1024, { name: "x" }))),
    burst("deep JSON generate-image", (s) => post(s, "/functions/v1/generate-image", deepArray(20_000))),
    burst("forged tokens on REST", (s) =>
      send(s.b, "/rest/v1/generations", { headers: H(s.b, mintJwt(claimsFor(s.userId, "service_role"), null), false) }),
    ),
    burst("bad sign-ups", (_s, i) =>
      post(
        _s,
        "/auth/v1/signup",
        jsonWith({ password: "correct-horse-42" }, { email: `b${i}\u0000@example.test` }),
        null,
      ),
    ),
    burst("db errors (bad uuid filters)", (s) =>
      send(s.b, "/rest/v1/generations?id=eq.not-a-uuid", { headers: H(s.b, s.token, false) }),
    ),
    burst("deep JSON realtime joins", (s) => realtimeProbe(s.b, realtimeJoin("realtime:x", deepObject(20_000)))),
  ];
}

const isRest = (r: string) => r.includes("/rest/v1/");
const isAuth = (r: string) => r.includes("/auth/v1/");

const FAMILIES: [string, () => Probe[]][] = [
  ["deep JSON: REST", () => deepProbes(isRest)],
  ["deep JSON: auth", () => deepProbes(isAuth)],
  [
    "deep JSON: storage, functions, realtime",
    () => [...deepProbes((r) => !isRest(r) && !isAuth(r)), ...realtimeDeepProbes],
  ],
  ["huge JSON", () => hugeProbes],
  ["hostile text", textProbes],
  ["bombs and headers", bombProbes],
  ["forged tokens", tokenProbes],
  ["bursts", burstProbes],
];

describe.each(BACKEND_TARGETS)("hostile input on $title", ({ title, postgres, skip }) => {
  const database = postgres ? "postgres" : "pglite";
  for (const [family, probes] of FAMILIES) {
    it.skipIf(skip)(
      `${family}: no 5xx, hang, dropped connection or crash (${title})`,
      { timeout: 600_000 },
      async () => {
        await runFamily(database, postgres, family, probes());
      },
    );
  }
});

// The app's private live channel (decision 128): joins of "library:<id>" topics with hostile names and
// tokens, and private REST broadcasts to them, are refused or served, never a 5xx, a hang or a crash.
function libraryChannelProbes(): Probe[] {
  const topics: { name: string; topic: (s: Scene) => string }[] = [
    { name: "own", topic: (s) => `library:${s.userId}` },
    { name: "another person's", topic: () => `library:${randomUUID()}` },
    { name: "SQL in the id", topic: () => "library:' or '1'='1" },
    { name: "200 KB id", topic: () => `library:${"x".repeat(200_000)}` },
    ...Object.entries(HOSTILE_TEXT).map(([name, text]) => ({ name, topic: () => `library:${text}` })),
  ];
  const join = (s: Scene, topic: string, token: string | null, presence: boolean) =>
    realtimeProbe(
      s.b,
      `["1","1",${jsonText(`realtime:${topic}`)},"phx_join",${JSON.stringify({
        ...(token ? { access_token: token } : {}),
        config: { private: true, presence: { key: "", enabled: presence }, postgres_changes: [] },
      })}]`,
    );
  const restBroadcast = (s: Scene, topic: string, token: string | null) =>
    post(
      s,
      "/realtime/v1/api/broadcast",
      `{"messages":[{"topic":${jsonText(topic)},"event":"x","payload":{},"private":true}]}`,
      token,
    );
  return topics.flatMap(({ name, topic }) => [
    { name: `private join, signed in: ${name}`, run: (s: Scene) => join(s, topic(s), s.token, false) },
    { name: `private join with presence, signed in: ${name}`, run: (s: Scene) => join(s, topic(s), s.token, true) },
    { name: `private join, visitor: ${name}`, run: (s: Scene) => join(s, topic(s), null, true) },
    { name: `private REST broadcast, signed in: ${name}`, run: (s: Scene) => restBroadcast(s, topic(s), s.token) },
    { name: `private REST broadcast, visitor: ${name}`, run: (s: Scene) => restBroadcast(s, topic(s), null) },
  ]);
}

describe.each(BACKEND_TARGETS)("hostile input to the library channel on $title", ({ title, postgres, skip }) => {
  it.skipIf(skip)(
    `private library channels: no 5xx, hang, dropped connection or crash (${title})`,
    { timeout: 600_000 },
    async () => {
      await runFamily(postgres ? "postgres" : "pglite", postgres, "private library channels", libraryChannelProbes());
    },
  );
});

// Queries Postgres compiles into recursive structures (decision 125), sent by a visitor with the anon
// key as an attacker would: seeded regular expressions and text-search queries in filters, gallery
// searches, deep select, order and logic trees, and deep rpc arguments. Each answers 2xx or 4xx, never
// a 5xx, a re-open or a stall, and each answers with the same status on both databases.
const PATHOLOGICAL_SEED = 125;
const statusByDatabase = new Map<string, Map<string, number | null>>();

function pathologicalProbes(): Probe[] {
  const visitor = (path: string) => (s: Scene) => send(s.b, path, { headers: H(s.b, null, false) });
  const { regex, tsquery } = pathologicalValues(PATHOLOGICAL_SEED, 24);
  const enc = encodeURIComponent;
  const probes: Probe[] = [
    ...regex.flatMap(([name, p]) => [
      { name: `match: ${name}`, run: visitor(`/rest/v1/generations?select=id&prompt=match.${enc(p)}`) },
      { name: `imatch in or(): ${name}`, run: visitor(`/rest/v1/generations?select=id&or=(prompt.imatch.${enc(p)})`) },
    ]),
    ...tsquery.map(([name, q]) => {
      const op = name.split(":")[0];
      return { name: `search=${name}`, run: visitor(`/rest/v1/generations?select=id&search=${op}.${enc(q)}`) };
    }),
    ...[5000, 999, 100, 33].flatMap((n) => [
      {
        name: `GET search_gallery: ${n} minus signs`,
        run: visitor(`/rest/v1/rpc/search_gallery?p_query=${"-".repeat(n)}`),
      },
      {
        name: `POST search_gallery: ${n} minus signs and a word`,
        run: (s: Scene) =>
          post(s, "/rest/v1/rpc/search_gallery", JSON.stringify({ p_query: `${"-".repeat(n)}cat` }), null),
      },
    ]),
    {
      name: "select: 3,000 nested embeds",
      run: visitor(`/rest/v1/generations?select=${"a(".repeat(3000)}id${")".repeat(3000)}`),
    },
    { name: "select: 5,000 casts", run: visitor(`/rest/v1/generations?select=id${"::text".repeat(5000)}`) },
    { name: "order: 5,000 terms", run: visitor(`/rest/v1/generations?order=${"id.desc,".repeat(5000)}id`) },
    {
      name: "logic tree: 3,000 levels",
      run: visitor(`/rest/v1/generations?or=(${"and(".repeat(3000)}id.is.null${")".repeat(3000)})`),
    },
    { name: "json path: 3,000 steps", run: visitor(`/rest/v1/generations?select=id&prompt${"->a".repeat(3000)}=eq.1`) },
    {
      name: "rpc GET argument: 5,000 nested arrays",
      run: visitor(`/rest/v1/rpc/search_gallery?p_query=${"[".repeat(5000)}`),
    },
    ...[15_000, 1_001, 101].map((n) => ({
      name: `app_events insert of ${n} rows`,
      run: (s: Scene) =>
        post(s, "/rest/v1/app_events", JSON.stringify(Array.from({ length: n }, () => ({ name: "x" })))),
    })),
    {
      name: "web_vitals: 7 inserts of 100 rows in a minute",
      run: async (s: Scene) => {
        const body = JSON.stringify(Array.from({ length: 100 }, () => ({ name: "LCP", value: 1 })));
        const answers: Answer[] = [];
        for (let i = 0; i < 7; i++) answers.push(await post(s, "/rest/v1/web_vitals", body));
        return answers;
      },
    },
    ...regex.slice(0, 6).map(([name, p]) => ({
      name: `realtime join, match filter: ${name}`,
      run: (s: Scene) =>
        realtimeProbe(
          s.b,
          realtimeJoin(
            "realtime:pathological",
            JSON.stringify({
              access_token: s.b.anonKey,
              config: {
                postgres_changes: [{ event: "*", schema: "public", table: "generations", filter: `prompt=match.${p}` }],
              },
            }),
          ),
        ),
    })),
  ];
  return probes;
}

describe.each(BACKEND_TARGETS)("hostile queries on $title", ({ title, postgres, skip }) => {
  it.skipIf(skip)(
    `pathological queries: no 5xx, hang, dropped connection or crash (${title})`,
    { timeout: 600_000 },
    async () => {
      const database = postgres ? "postgres" : "pglite";
      const before = results.length;
      try {
        await runFamily(database, postgres, "pathological queries", pathologicalProbes());
      } finally {
        statusByDatabase.set(database, new Map(results.slice(before).map((r) => [r.probe, r.answer.status])));
      }
    },
  );
});

it.skipIf(BACKEND_TARGETS.some((t) => t.skip))("pathological queries answer the same status on both databases", () => {
  const pglite = statusByDatabase.get("pglite");
  const postgres = statusByDatabase.get("postgres");
  expect(pglite && postgres, "both databases' runs finished").toBeTruthy();
  const differ = [...pglite!].filter(([probe, status]) => postgres!.get(probe) !== status);
  expect(differ.map(([probe, status]) => `${probe}: PGlite ${status}, PostgreSQL ${postgres!.get(probe)}`)).toEqual([]);
});
