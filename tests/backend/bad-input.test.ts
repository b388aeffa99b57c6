// Hostile and broken requests to /rest/v1: malformed query strings, bad JSON, oversize bodies and SQL
// injection through every place a name or value can enter (table, column, filter, order, select,
// on_conflict, columns, rpc name, rpc argument, text-search config). Each must get a 4xx with a
// PostgREST-shaped JSON error, never a 500, and never another person's rows; afterwards the data is
// intact. Sent with fetch (exact bytes) and through supabase-js.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { people, useBackend } from "../support/backend-suite.ts";
import { startBackend } from "../support/backend.ts";
import { serviceClient } from "../support/clients.ts";

const MAX_BODY_BYTES = 64 * 1024;
const SECRET_PROMPT = "the owner's private prompt";

const b = useBackend(() => startBackend({ env: { MAX_BODY_BYTES: String(MAX_BODY_BYTES) } }));
const [owner, attacker] = people(b, "victim", "attacker");
let attackerToken: string;
let secretId: string;

type Res = { status: number; text: string; body: unknown; headers: Headers };

async function send(path: string, init: RequestInit = {}): Promise<Res> {
  const headers = new Headers(init.headers);
  headers.set("apikey", b.anonKey);
  if (!headers.has("authorization")) headers.set("authorization", `Bearer ${attackerToken}`);
  const res = await fetch(`${b.url}/rest/v1${path}`, { ...init, headers });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* asserted by the caller */
  }
  return { status: res.status, text, body, headers: res.headers };
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Res> =>
  send(path, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

/** A 4xx whose body is exactly PostgREST's {code, details, hint, message}. */
function expectRefused(res: Res, status?: number, code?: string): void {
  expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text).toBeLessThan(500);
  if (status !== undefined) expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body as object).sort()).toEqual(["code", "details", "hint", "message"]);
  const e = res.body as { code: unknown; message: unknown };
  expect(typeof e.code).toBe("string");
  expect(typeof e.message).toBe("string");
  if (code !== undefined) expect(e.code, res.text).toBe(code);
  expectNoLeak(res.text);
}

function expectNoLeak(text: string): void {
  expect(text).not.toContain(SECRET_PROMPT);
  expect(text).not.toContain(secretId);
}

beforeAll(async () => {
  attackerToken = (await attacker.client.auth.getSession()).data.session!.access_token;
  secretId = randomUUID();
  // Rows are the server's to make (generate-image uses the service role), so the fixture is made so too.
  const { error } = await serviceClient(b)
    .from("generations")
    .insert({
      id: secretId,
      user_id: owner.id,
      prompt: SECRET_PROMPT,
      provider: "builtin",
      model: "procedural",
      image_path: `${owner.id}/${secretId}.png`,
    });
  expect(error).toBeNull();
});

describe("malformed query strings", () => {
  const cases: Array<[string, string, number, string?]> = [
    ["an unclosed or", "/generations?or=(style.eq.anime", 400, "PGRST100"],
    ["an or without parentheses", "/generations?or=style.eq.anime", 400, "PGRST100"],
    ["a surplus closing parenthesis", "/generations?and=(style.eq.anime))", 400, "PGRST100"],
    ["an unclosed nested and", "/generations?or=(style.eq.anime,and(prompt.eq.x)", 400, "PGRST100"],
    ["an empty logic tree", "/generations?or=()", 400, "PGRST100"],
    ["an unknown operator", "/generations?style=foo.anime", 400, "PGRST100"],
    ["a filter without operator", "/generations?style=anime", 400, "PGRST100"],
    ["an operator without value separator", "/generations?style=eq", 400, "PGRST100"],
    ["in without a list", "/generations?style=in.anime", 400, "PGRST100"],
    ["in with an unterminated quote", '/generations?style=in.(a,"b)', 400, "PGRST100"],
    ["is with a bad value", "/generations?seed=is.maybe", 400, "PGRST100"],
    ["a bad quantifier", "/generations?style=like(some).{a}", 400, "PGRST100"],
    ["a bad order direction", "/generations?order=created_at.up", 400, "PGRST100"],
    ["too many order modifiers", "/generations?order=created_at.desc.nullsfirst.asc", 400, "PGRST100"],
    ["an order on an unknown column", "/generations?order=nope", 400, "42703"],
    ["a negative limit", "/generations?limit=-5", 400, "PGRST100"],
    ["a non-numeric limit", "/generations?limit=ten", 400, "PGRST100"],
    ["a fractional offset", "/generations?offset=1.5", 400, "PGRST100"],
    ["an empty select item", "/generations?select=id,", 400, "PGRST100"],
    ["an unbalanced select", "/generations?select=id,(prompt", 400, "PGRST100"],
    ["a json path on a text column", "/generations?select=prompt->>a", 400, "PGRST100"],
    ["a NUL byte in a value", "/generations?prompt=eq.a%00b", 400, "22021"],
    ["a NUL byte in a column", "/generations?pro%00mpt=eq.x", 400, "42703"],
    ["a NUL byte in a table", "/gener%00ations", 404, "PGRST205"],
    ["a NUL byte in select", "/generations?select=id%00", 400, "42703"],
    ["an embedded filter", "/generations?user_preferences.default_style=eq.anime", 400, "PGRST108"],
    ["a path below a table", "/generations/extra", 404, "PGRST125"],
    ["a value that is not a uuid", "/generations?id=eq.1%20or%201=1", 400, "22P02"],
  ];
  it.each(cases)("refuses %s", async (_name, path, status, code) => {
    expectRefused(await send(path), status, code);
  });

  it("treats a huge limit as no limit and still shows only visible rows", async () => {
    const res = await send("/generations?select=id,prompt&limit=99999999999999999999999");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("binds a very long in list as one parameter", async () => {
    // 10 000 values (49 KB): near the longest URL the HTTP server accepts.
    const values = Array.from({ length: 10_000 }, (_, i) => i + 1).join(",");
    const res = await send(`/generations?select=id&width=in.(${values})`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("survives broken percent-encoding", async () => {
    const res = await send("/generations?prompt=eq.%E0%A4%A&select=id");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("refuses unknown methods, media types and strict bad preferences", async () => {
    expectRefused(await send("/generations", { method: "PUT", body: "{}" }), 405, "PGRST117");
    expectRefused(await send("/generations", { headers: { accept: "text/xml" } }), 406, "PGRST107");
    expectRefused(await send("/generations", { headers: { prefer: "handling=strict, bogus=1" } }), 400, "PGRST122");
    expectRefused(await send("/generations", { headers: { "accept-profile": "auth" } }), 406, "PGRST106");
    expectRefused(await send("/rpc/get_my_limits", { method: "PATCH", body: "{}" }), 405, "PGRST101");
  });

  it("refuses a garbage bearer token with 401", async () => {
    expectRefused(await send("/generations", { headers: { authorization: "Bearer not.a.jwt" } }), 401, "PGRST301");
  });
});

describe("bad bodies", () => {
  const cases: Array<[string, string, BodyInit, number, string]> = [
    ["broken JSON", "/generations", "{bad", 400, "PGRST102"],
    ["an empty body", "/generations", "", 400, "PGRST102"],
    ["a JSON string", "/generations", '"just text"', 400, "PGRST102"],
    ["an array of numbers", "/generations", "[1,2]", 400, "PGRST102"],
    ["objects with different keys", "/generations", '[{"prompt":"a"},{"style":"b"}]', 400, "PGRST102"],
    ["an unknown column", "/generations", '{"nope":1}', 400, "PGRST204"],
    [
      "invalid UTF-8",
      "/generations",
      new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      400,
      "PGRST102",
    ],
    ["a NUL escape inside JSON", "/generations", '{"prompt":"a\\u0000b"}', 400, "22P05"],
    ["an array for rpc arguments", "/rpc/get_my_limits", "[1]", 400, "PGRST102"],
  ];
  it.each(cases)("refuses %s", async (_name, path, body, status, code) => {
    expectRefused(await post(path, body), status, code);
  });

  it("refuses an array for an update and a non-JSON content type", async () => {
    expectRefused(
      await send(`/generations?id=eq.${secretId}`, {
        method: "PATCH",
        body: "[]",
        headers: { "content-type": "application/json" },
      }),
      400,
      "PGRST102",
    );
    expectRefused(
      await post("/generations", "prompt=x", { "content-type": "application/x-www-form-urlencoded" }),
      415,
      "PGRST107",
    );
  });

  it("refuses bodies over the limit with 413, declared or streamed", async () => {
    const big = JSON.stringify({ prompt: "x".repeat(MAX_BODY_BYTES) });
    expectRefused(await post("/generations", big), 413);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 5; i++)
          c.enqueue(new TextEncoder().encode(`{"prompt":"${"y".repeat(MAX_BODY_BYTES / 4)}"}`));
        c.close();
      },
    });
    const res = await send("/rpc/get_my_limits", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expectRefused(res, 413);
  });
});

describe("SQL injection attempts", () => {
  const reads: Array<[string, string, number, string?]> = [
    ["a table name with a statement", "/generations;drop table generations", 404, "PGRST205"],
    ["a quoted table name", '/generations"', 404, "PGRST205"],
    ["a table with a where clause", "/generations%20where%201=1", 404, "PGRST205"],
    ["another schema's table", "/auth.users", 404, "PGRST205"],
    ["a traversal to another schema", "/..%2Fauth%2Fusers", 404, "PGRST205"],
    ["a column with a statement", "/generations?select=id;drop table generations", 400, "42703"],
    ["a quoted column followed by SQL", '/generations?select="id" from auth.users--', 400, "PGRST100"],
    ["a cast with SQL", "/generations?select=id::text);drop table generations;--", 400, "PGRST100"],
    ["a function call in select", "/generations?select=id,pg_sleep(3)", 400, "PGRST200"],
    ["a filter column with SQL", "/generations?id;drop%20table%20generations=eq.1", 400, "42703"],
    ["a filter column with a quote", '/generations?prompt"=eq.1', 400, "42703"],
    ["an order with a statement", "/generations?order=created_at;drop table generations", 400, "42703"],
    ["an order with a subquery", "/generations?order=(select 1)", 400, "PGRST100"],
    ["an order direction with SQL", "/generations?order=created_at.desc;select 1", 400, "PGRST100"],
    ["a text-search config with SQL", "/generations?search=fts(english'--).cat", 400, "PGRST100"],
    ["an unknown text-search config", "/generations?search=fts(nope).cat", 400, "42704"],
    ["a json key with SQL", "/generations?select=id->>'a'", 400, "PGRST100"],
  ];
  it.each(reads)("refuses %s", async (_name, path, status, code) => {
    expectRefused(await send(path), status, code);
  });

  const harmless: Array<[string, string]> = [
    ["a classic tautology", "/generations?prompt=eq.' or '1'='1"],
    ["a tautology inside or", "/generations?or=(prompt.eq.x' or true--,style.eq.y)"],
    ["a like pattern with quotes", "/generations?prompt=like.%25' or ''='"],
    ["an in list with SQL", "/generations?prompt=in.(a' or true--,\"b') or true--\")"],
    ["a stacked statement in a value", "/generations?prompt=eq.x; delete from generations"],
  ];
  it.each(harmless)("binds %s as a plain value and matches nothing", async (_name, path) => {
    const res = await send(path);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("refuses logic trees nested deeper than any client needs with 400, not 500", async () => {
    const depth = 5000;
    const tree = `(${"and(".repeat(depth)}style.eq.anime${")".repeat(depth)})`;
    expectRefused(await send(`/generations?or=${encodeURIComponent(tree)}`), 400, "PGRST100");
    const shallow = `(${"and(".repeat(10)}style.eq.anime${")".repeat(10)})`;
    const ok = await send(`/generations?select=id&or=${encodeURIComponent(shallow)}`);
    expect(ok.status, ok.text).toBe(200);
  });

  it("refuses SQL in on_conflict and columns", async () => {
    const row = JSON.stringify({ prompt: "x" });
    expectRefused(
      await post("/generations?on_conflict=id);drop table generations;--", row, {
        prefer: "resolution=merge-duplicates",
      }),
      400,
      "PGRST100",
    );
    expectRefused(
      await post("/generations?on_conflict=id;drop table generations", row, { prefer: "resolution=merge-duplicates" }),
      400,
      "42703",
    );
    expectRefused(await post('/generations?columns="prompt");drop table generations;--', row), 400, "PGRST100");
    expectRefused(await post('/generations?columns="prompt"--', row), 400);
  });

  it("refuses SQL in rpc names and argument names, and binds argument values", async () => {
    expectRefused(await post("/rpc/pg_sleep", '{"seconds":3}'), 404, "PGRST202");
    expectRefused(await post("/rpc/get_my_limits;drop table generations", "{}"), 404, "PGRST202");
    expectRefused(await post("/rpc/private.limits_for_update", "{}"), 404, "PGRST202");
    expectRefused(
      await post("/rpc/increment_generation_count", JSON.stringify({ "p_user_id) from auth.users;--": 1 })),
      404,
      "PGRST202",
    );
    expectRefused(
      await post("/rpc/increment_generation_count", JSON.stringify({ p_user_id: "x'); drop table generations;--" })),
      400,
      "22P02",
    );
    expectRefused(
      await post("/rpc/quota_reserve", JSON.stringify({ p_user_id: owner.id, p_request_id: randomUUID() })),
      403,
      "42501",
    );
    expectRefused(await post("/rpc/increment_generation_count", JSON.stringify({ p_user_id: owner.id })), 403, "42501");
  });

  it("refuses the same attacks through supabase-js", async () => {
    const c = attacker.client;
    const results = [
      await c.from("generations;drop table generations").select(),
      await c.from("generations").select("id, prompt); drop table generations; --"),
      await c.from("generations").select("*").order("created_at; drop table generations"),
      await c.from("generations").select("*").filter("id", "in", "(1,2"),
      await c.rpc("get_my_limits; drop table generations"),
      await c.rpc("increment_generation_count", { 'p_user_id" => null) --': 1 }),
      await c.from("generations").upsert({ prompt: "x" }, { onConflict: "id); drop table generations; --" }),
      await c.from("generations").select("id").textSearch("search", "cat", { config: "english') --" }),
    ];
    for (const r of results) {
      expect(r.status, JSON.stringify(r.error)).toBeGreaterThanOrEqual(400);
      expect(r.status, JSON.stringify(r.error)).toBeLessThan(500);
      expect(Object.keys(r.error ?? {}).sort()).toEqual(["code", "details", "hint", "message"]);
      expect(r.data).toBeNull();
    }
    const tautology = await c.from("generations").select("*").eq("prompt", "' or 1=1 --");
    expect(tautology).toMatchObject({ error: null, data: [] });
    const wide = await c
      .from("generations")
      .select("id, prompt")
      .or("prompt.eq.x,user_id.neq.00000000-0000-0000-0000-000000000000");
    expect(wide.error).toBeNull();
    expectNoLeak(JSON.stringify(wide.data));
  });

  it("leaves the data intact and private afterwards", async () => {
    const { data, error } = await owner.client.from("generations").select("id, prompt").eq("id", secretId).single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: secretId, prompt: SECRET_PROMPT });
    const seen = await send("/generations?select=*");
    expect(seen.status).toBe(200);
    expectNoLeak(seen.text);
  });
});
