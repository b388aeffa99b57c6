// The gateway and the REST service against hostile input, on PGlite and on PostgreSQL: requests with no
// API key are refused as hosted Supabase's gateway refuses them, and input that would make Postgres
// overflow its stack or exceed a program limit (JSON nested thousands deep in a body, a filter or an rpc
// argument; thousands of select items) gets a PostgREST-shaped 4xx, after which every request (one that
// makes Postgres raise an error above all, which on a broken PGlite never answered) and /health still
// answer promptly.
import { beforeAll, expect, it } from "vitest";
import { describeOnBackends, people } from "../support/backend-suite.ts";

const NO_KEY = { message: "No API key found in request", hint: "No `apikey` request header or url param was found." };
const deepArray = (n: number) => "[".repeat(n) + "]".repeat(n);

describeOnBackends("the gateway and hostile REST input on $title", { prefix: "gateway" }, (b, { skip }) => {
  const [user] = people(b, "gateway");
  let token: string;

  beforeAll(() => {
    if (!skip) token = user.session.access_token;
  });

  const call = async (path: string, init: RequestInit & { key?: boolean; as?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.key !== false) headers.set("apikey", b.anonKey);
    if (init.as) headers.set("authorization", `Bearer ${init.as}`);
    const res = await fetch(`${b.url}${path}`, { ...init, headers, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, text, body: body as Record<string, unknown> };
  };

  /** A 4xx in PostgREST's shape. */
  const expectRest4xx = (
    r: { status: number; text: string; body: Record<string, unknown> },
    status: number,
    code: string,
  ) => {
    expect(r.status, r.text).toBe(status);
    expect(Object.keys(r.body).sort()).toEqual(["code", "details", "hint", "message"]);
    expect(r.body.code, r.text).toBe(code);
  };

  /** Every request still answers: one whose SQL raises an error, as a visitor, and /health within 100 ms. */
  const expectServing = async () => {
    expectRest4xx(await call("/rest/v1/generations?id=eq.not-a-uuid"), 400, "22P02");
    const started = performance.now();
    const health = await fetch(`${b.url}/health`);
    expect(health.status).toBe(200);
    await health.body?.cancel();
    expect(performance.now() - started).toBeLessThan(100);
  };

  it.skipIf(skip)("refuses requests with no API key as hosted's gateway does, and only where it does", async () => {
    for (const path of ["/rest/v1/generations?select=id", "/storage/v1/bucket", "/auth/v1/settings", "/auth/v1/user"]) {
      const r = await call(path, { key: false, as: token });
      expect(r.status, path).toBe(401);
      expect(r.body, path).toEqual(NO_KEY);
    }
    const ws = await call("/realtime/v1/websocket?vsn=2.0.0", { key: false });
    expect(ws.status).toBe(401);
    // The key in the query string counts, as with Kong's key-auth.
    expect((await call(`/rest/v1/generations?select=id&apikey=${b.anonKey}`, { key: false })).status).toBe(200);
    // Open without a key: health, links opened from an e-mail, public and signed objects, functions.
    expect((await call("/health", { key: false })).status).toBe(200);
    expect((await call("/auth/v1/verify?token=x&type=signup", { key: false, redirect: "manual" })).body).not.toEqual(
      NO_KEY,
    );
    expect(
      (await call("/storage/v1/object/public/generations/nope.png", { key: false, redirect: "manual" })).body,
    ).not.toEqual(NO_KEY);
    expect(
      (await call("/storage/v1/object/sign/generations/nope.png?token=x", { key: false, redirect: "manual" })).body,
    ).not.toEqual(NO_KEY);
    expect((await call("/functions/v1/no-such-function", { key: false })).body).not.toEqual(NO_KEY);
  });

  it.skipIf(skip)(
    "refuses an API key that is not the project's anon or service_role key, even a JWT signed with its secret",
    async () => {
      const invalid = {
        message: "Invalid API key",
        hint: "Double check your Supabase `anon` or `service_role` API key.",
      };
      // A person's own access token is a valid JWT of the project, but no API key.
      for (const key of ["nope", token, b.anonKey + "x"]) {
        for (const path of ["/rest/v1/generations?select=id", "/storage/v1/bucket", "/auth/v1/settings"]) {
          const r = await call(path, { key: false, headers: { apikey: key }, as: token });
          expect(r.status, `${path} with ${key.slice(0, 8)}`).toBe(401);
          expect(r.body, path).toEqual(invalid);
        }
        expect((await call(`/rest/v1/generations?select=id&apikey=${key}`, { key: false })).body).toEqual(invalid);
      }
      // Both keys pass; the routes the gateway leaves open do not look at a key at all.
      for (const key of [b.anonKey, b.serviceRoleKey]) {
        const r = await call("/rest/v1/generations?select=id", { key: false, headers: { apikey: key } });
        expect(r.status, r.text).toBe(200);
      }
      expect(
        (await call("/functions/v1/no-such-function", { key: false, headers: { apikey: "nope" } })).body,
      ).not.toEqual(invalid);
    },
  );

  it.skipIf(skip)("refuses a write body nested 10,000 deep with 400, and keeps serving", async () => {
    const write = (method: string, path: string, body: string) =>
      call(path, { method, as: token, headers: { "content-type": "application/json" }, body });
    const deep = deepArray(10_000);
    for (const [method, path, body] of [
      ["PATCH", `/rest/v1/user_preferences?user_id=eq.${user.id}`, `{"timezone":${deep}}`],
      ["POST", "/rest/v1/app_events", `{"name":"x","metadata":{"a":${deep}}}`],
      ["POST", "/rest/v1/rpc/get_my_limits", deepArray(20_000)],
    ]) {
      expectRest4xx(await write(method, path, body), 400, "PGRST102");
      await expectServing();
    }
    // 64 levels is still JSON Postgres may parse: the write goes through.
    const fine = await write("POST", "/rest/v1/app_events", `{"name":"x","metadata":{"a":${deepArray(60)}}}`);
    expect(fine.status, fine.text).toBe(201);
  });

  it.skipIf(skip)("refuses deep JSON and array literals in the query string before Postgres parses them", async () => {
    const braces = (n: number) => "{".repeat(n) + "}".repeat(n);
    for (const path of [
      `/rest/v1/app_events?metadata=cs.${encodeURIComponent(deepArray(5000))}`,
      `/rest/v1/app_events?metadata=cd.${encodeURIComponent(`{"a":${deepArray(100)}}`)}`,
      `/rest/v1/generations?id=in.(${encodeURIComponent(braces(100))})`,
      `/rest/v1/generations?or=(id.cs.${encodeURIComponent(braces(100))})`,
      `/rest/v1/rpc/search_gallery?p_query=${encodeURIComponent(deepArray(100))}`,
    ]) {
      expectRest4xx(await call(path, { as: token }), 400, "PGRST100");
    }
    await expectServing();
  });

  it.skipIf(skip)(
    "answers caller-caused data errors and program limits with a 4xx, the same on both databases",
    async () => {
      expectRest4xx(await call("/rest/v1/generations?is_public=eq.maybe"), 400, "22P02");
      const columns = Array.from({ length: 2000 }, () => "id").join(",");
      expectRest4xx(await call(`/rest/v1/generations?select=${columns}`), 400, "PGRST100");
      const filters = Array.from({ length: 200 }, (_, i) => `prompt=neq.${i}`).join("&");
      expectRest4xx(await call(`/rest/v1/generations?${filters}`), 400, "PGRST100");
      const path = Array.from({ length: 40 }, () => "a").join("->");
      expectRest4xx(await call(`/rest/v1/app_events?select=metadata->${path}`, { as: token }), 400, "PGRST100");
      expectRest4xx(await call(`/rest/v1/generations?prompt=eq.${"x".repeat(58_000)}`), 414, "PGRST100");
      await expectServing();
    },
  );
});
