// The local backend's /rest/v1 through the real supabase-js client: every PostgREST call the product
// makes (docs/spec.md §7, shared/reference/supabase-wire.md §2), the response shapes the client relies on,
// PostgREST's error bodies and statuses, and row-level security as owner, stranger and anon. A last
// group runs on real PostgreSQL and checks that it answers byte for byte what PGlite answers.
import { randomUUID } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt } from "../../supabase/local/jwt.ts";
import { clientsFor, people, useBackend } from "../support/backend-suite.ts";
import { type Backend, startBackend } from "../support/backend.ts";
import { anonClient, newUser, serviceClient } from "../support/clients.ts";
import { createDatabase, postgresAvailable } from "../support/postgres.ts";

const JWT_SECRET = "rest-test-secret-that-is-long-enough-0123456789";

type User = { client: SupabaseClient; id: string };

function generation(userId: string, extra: Record<string, unknown> = {}) {
  const id = randomUUID();
  return {
    id,
    user_id: userId,
    prompt: "a red cat on a mat",
    provider: "builtin",
    model: "procedural",
    image_path: `${userId}/${id}.png`,
    ...extra,
  };
}

async function raw(b: Backend, path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("apikey", b.anonKey);
  headers.set("authorization", `Bearer ${init.token ?? b.anonKey}`);
  const res = await fetch(`${b.url}/rest/v1${path}`, { ...init, headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const b = useBackend(() => startBackend({ env: { JWT_SECRET } }));
const [owner, stranger] = people(b, "owner", "stranger");
const { anon, server: service } = clientsFor(b);
/** The owner's rows, oldest first: a private cat, a published dog, a private watercolor lighthouse. */
const rows: Array<ReturnType<typeof generation>> = [];

beforeAll(async () => {
  const specs = [
    { prompt: "a red cat on a mat", style: "anime", seed: 7 },
    { prompt: "a happy dog in the park", style: "photorealistic", is_public: true, seed: null },
    { prompt: "a lighthouse at dusk", style: "watercolor", seed: 9007199254740993n },
  ];
  for (const spec of specs) {
    // Rows are the server's to make: generate-image inserts them with the service role.
    const row = generation(owner.id, spec);
    const { error, status } = await service.from("generations").insert(row);
    expect(error).toBeNull();
    expect(status).toBe(201);
    rows.push(row);
  }
});

describe("reads", () => {
  it("selects the owner's rows newest first, as the history page asks", async () => {
    const { data, error, status } = await owner.client
      .from("generations")
      .select("*")
      .eq("user_id", owner.id)
      .order("created_at", { ascending: false });
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data!.map((r) => r.id)).toEqual(rows.map((r) => r.id).reverse());
    expect(data![0]).toMatchObject({
      prompt: "a lighthouse at dusk",
      negative_prompt: "",
      width: 1024,
      is_public: false,
    });
  });

  it("keeps the precision of bigint values both ways", async () => {
    const res = await raw(b, `/generations?select=seed&id=eq.${rows[2].id}`, { token: await token(owner) });
    expect(res.text).toBe('[{"seed":9007199254740993}]');
  });

  it("returns only the listed columns, with aliases and casts", async () => {
    const { data } = await owner.client.from("generations").select("id, text:prompt, width::text").eq("id", rows[0].id);
    expect(data).toEqual([{ id: rows[0].id, text: "a red cat on a mat", width: "1024" }]);
  });

  it("pages with range and limit", async () => {
    const all = rows.map((r) => r.id);
    const { data: page } = await owner.client
      .from("generations")
      .select("id")
      .eq("user_id", owner.id)
      .order("created_at")
      .range(1, 2);
    expect(page!.map((r) => r.id)).toEqual(all.slice(1, 3));
    const { data: first } = await owner.client
      .from("generations")
      .select("id")
      .eq("user_id", owner.id)
      .order("created_at")
      .limit(2);
    expect(first!.map((r) => r.id)).toEqual(all.slice(0, 2));
  });

  it("counts exactly, with and without rows, and HEAD carries no body", async () => {
    const head = await owner.client
      .from("generations")
      .select("*", { count: "exact", head: true })
      .eq("user_id", owner.id);
    expect(head).toMatchObject({ error: null, data: null, count: 3, status: 200 });
    const partial = await owner.client
      .from("generations")
      .select("id", { count: "exact" })
      .eq("user_id", owner.id)
      .range(0, 1);
    expect(partial).toMatchObject({ error: null, count: 3, status: 206 });
    expect(partial.data).toHaveLength(2);
    const none = await raw(b, `/generations?select=id&prompt=eq.nothing`, { headers: { prefer: "count=exact" } });
    expect(none.headers.get("content-range")).toBe("*/0");
    expect(none.text).toBe("[]");
  });

  it("sends Content-Range on every GET", async () => {
    const res = await raw(b, "/generations?select=id", { token: await token(owner) });
    expect(res.headers.get("content-range")).toBe("0-2/*");
  });

  it("answers .single() with a bare object, or 406 PGRST116 when not exactly one row", async () => {
    const one = await owner.client.from("generations").select("id, prompt").eq("id", rows[1].id).single();
    expect(one).toMatchObject({
      error: null,
      status: 200,
      data: { id: rows[1].id, prompt: "a happy dog in the park" },
    });
    const none = await owner.client.from("generations").select("id").eq("id", randomUUID()).single();
    expect(none.status).toBe(406);
    expect(none.error).toEqual({
      code: "PGRST116",
      details: "The result contains 0 rows",
      hint: null,
      message: "Cannot coerce the result to a single JSON object",
    });
    const many = await owner.client.from("generations").select("id").eq("user_id", owner.id).single();
    expect(many.status).toBe(406);
    expect(many.error?.details).toBe("The result contains 3 rows");
  });

  it("answers .maybeSingle() with an array the client narrows to null, a row or an error", async () => {
    const none = await owner.client.from("generations").select("id").eq("id", randomUUID()).maybeSingle();
    expect(none).toMatchObject({ error: null, data: null, status: 200 });
    const one = await owner.client.from("generations").select("id").eq("id", rows[0].id).maybeSingle();
    expect(one.data).toEqual({ id: rows[0].id });
    const many = await owner.client.from("generations").select("id").eq("user_id", owner.id).maybeSingle();
    expect(many.error?.code).toBe("PGRST116");
  });

  it("filters with ilike, in, is, not, or and nested and", async () => {
    const ids = async (q: PromiseLike<{ data: Array<{ id: string }> | null; error: unknown }>) => {
      const { data, error } = await q;
      expect(error).toBeNull();
      return data!.map((r) => r.id).sort();
    };
    const from = () => owner.client.from("generations").select("id").eq("user_id", owner.id);
    expect(await ids(from().ilike("prompt", "%RED CAT%"))).toEqual([rows[0].id]);
    expect(await ids(from().in("style", ["anime", "watercolor"]))).toEqual([rows[0].id, rows[2].id].sort());
    expect(await ids(from().is("seed", null))).toEqual([rows[1].id]);
    expect(await ids(from().not("style", "eq", "anime"))).toEqual([rows[1].id, rows[2].id].sort());
    expect(await ids(from().or("style.eq.watercolor,prompt.ilike.*dog*"))).toEqual([rows[1].id, rows[2].id].sort());
    expect(await ids(from().or("and(style.eq.anime,seed.gt.5),is_public.is.true"))).toEqual(
      [rows[0].id, rows[1].id].sort(),
    );
    expect(await ids(from().gte("width", 1024).lt("height", 2000).neq("prompt", "x"))).toHaveLength(3);
  });

  it("searches the generated tsvector with textSearch", async () => {
    const web = await owner.client
      .from("generations")
      .select("id")
      .textSearch("search", "cats", { type: "websearch", config: "english" });
    expect(web.data).toEqual([{ id: rows[0].id }]);
    const query = await owner.client.from("generations").select("id").textSearch("search", "'happy' & 'dog'");
    expect(query.data).toEqual([{ id: rows[1].id }]);
    const plain = await owner.client
      .from("generations")
      .select("id")
      .textSearch("search", "lighthouse dusk", { type: "plain" });
    expect(plain.data).toEqual([{ id: rows[2].id }]);
  });
});

describe("row-level security decides who sees what", () => {
  it("shows a stranger and anon only the published row", async () => {
    for (const client of [stranger.client, anon]) {
      const { data, error } = await client.from("generations").select("id, user_id");
      expect(error).toBeNull();
      expect(data).toEqual([{ id: rows[1].id, user_id: owner.id }]);
    }
  });

  it("shows service_role everything", async () => {
    const { count } = await service.from("generations").select("*", { count: "exact", head: true });
    expect(count).toBeGreaterThanOrEqual(3);
  });

  it("refuses anon inserts with 401 and any signed-in insert, own or forged, with 403", async () => {
    const byAnon = await anon.from("generations").insert(generation(owner.id));
    expect(byAnon.status).toBe(401);
    expect(byAnon.error?.code).toBe("42501");
    for (const client of [stranger.client, owner.client]) {
      const refused = await client.from("generations").insert(generation(owner.id));
      expect(refused.status).toBe(403);
      expect(refused.error).toEqual({
        code: "42501",
        details: null,
        hint: null,
        message: "permission denied for table generations",
      });
    }
  });

  it("lets a stranger neither update nor delete the owner's rows", async () => {
    const upd = await stranger.client.from("generations").update({ is_saved: true }).eq("id", rows[0].id).select();
    expect(upd).toMatchObject({ error: null, data: [], status: 200 });
    const del = await stranger.client.from("generations").delete().eq("id", rows[0].id).select();
    expect(del.data).toEqual([]);
    const { data } = await owner.client.from("generations").select("is_saved").eq("id", rows[0].id).single();
    expect(data).toEqual({ is_saved: false });
  });

  it("refuses a column the role may not update with 403 permission denied", async () => {
    const { error, status } = await owner.client.from("generations").update({ prompt: "changed" }).eq("id", rows[0].id);
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: "42501", message: "permission denied for table generations" });
  });
});

describe("writes", () => {
  it("inserts without select: 201, empty body, data null", async () => {
    const res = await service.from("generations").insert(generation(owner.id, { prompt: "plain insert" }));
    expect(res).toMatchObject({ error: null, data: null, status: 201 });
  });

  it("inserts with .select().single() and answers the stored row", async () => {
    const row = generation(owner.id, { prompt: "with select", quality: "ultra" });
    const { data, error, status } = await service.from("generations").insert(row).select().single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toMatchObject({ id: row.id, quality: "ultra", is_public: false, style: "photorealistic" });
    expect(typeof data!.created_at).toBe("string");
  });

  it("bulk-inserts with the columns parameter; missing keys are null unless defaultToNull is false", async () => {
    const a = generation(owner.id, { prompt: "bulk one", negative_prompt: "blurry", seed: 1 });
    const c = generation(owner.id, { prompt: "bulk two" });
    const nulls = await service.from("generations").insert([a, c]).select("id");
    expect(nulls.status).toBe(400);
    expect(nulls.error?.code).toBe("23502");
    const defaults = await service
      .from("generations")
      .insert([a, c], { defaultToNull: false })
      .select("id, negative_prompt, seed");
    expect(defaults.error).toBeNull();
    expect(defaults.data).toEqual([
      { id: a.id, negative_prompt: "blurry", seed: 1 },
      { id: c.id, negative_prompt: "", seed: null },
    ]);
  });

  it("upserts on a conflict column and ignores duplicates when asked", async () => {
    const merged = await owner.client
      .from("user_preferences")
      .upsert({ user_id: owner.id, default_style: "anime", default_quality: "ultra" }, { onConflict: "user_id" })
      .select("user_id, default_style, default_quality, timezone")
      .single();
    expect(merged.error).toBeNull();
    expect(merged.data).toEqual({
      user_id: owner.id,
      default_style: "anime",
      default_quality: "ultra",
      timezone: "UTC",
    });
    const twice = await service
      .from("generations")
      .upsert({ ...rows[0], prompt: "replaced" }, { ignoreDuplicates: true })
      .select();
    expect(twice).toMatchObject({ error: null, data: [] });
    const { data } = await owner.client.from("generations").select("prompt").eq("id", rows[0].id).single();
    expect(data).toEqual({ prompt: "a red cat on a mat" });
  });

  it("updates: 204 without select, 200 with the changed rows with select", async () => {
    const plain = await owner.client.from("generations").update({ is_saved: true }).eq("id", rows[2].id);
    expect(plain).toMatchObject({ error: null, data: null, status: 204 });
    const back = await owner.client
      .from("generations")
      .update({ is_saved: false })
      .eq("id", rows[2].id)
      .select("id, is_saved");
    expect(back).toMatchObject({ error: null, status: 200, data: [{ id: rows[2].id, is_saved: false }] });
  });

  it("deletes by id and owner: 204, and the row is gone", async () => {
    const row = generation(owner.id, { prompt: "to delete" });
    await service.from("generations").insert(row);
    const del = await owner.client.from("generations").delete().eq("id", row.id).eq("user_id", owner.id);
    expect(del).toMatchObject({ error: null, data: null, status: 204 });
    const { data } = await owner.client.from("generations").select("id").eq("id", row.id);
    expect(data).toEqual([]);
  });

  it("inserts into insert-only tables without needing to read them back", async () => {
    const event = await owner.client
      .from("app_events")
      .insert({ user_id: owner.id, name: "queue_task_success", metadata: { provider: "builtin", taskId: "t1" } });
    expect(event).toMatchObject({ error: null, status: 201 });
    const read = await owner.client.from("app_events").select("*");
    expect(read.status).toBe(403);
    expect(read.error?.code).toBe("42501");
  });
});

describe("constraint errors map to PostgREST statuses", () => {
  it("check violation 23514 is 400, unique 23505 is 409, invalid uuid 22P02 is 400", async () => {
    const bad = await service.from("generations").insert(generation(owner.id, { style: "not-a-style" }));
    expect(bad.status).toBe(400);
    expect(bad.error?.code).toBe("23514");
    const dup = await service.from("generations").insert(rows[0]);
    expect(dup.status).toBe(409);
    expect(dup.error).toMatchObject({
      code: "23505",
      message: 'duplicate key value violates unique constraint "generations_pkey"',
    });
    // The sign-up made the owner's preferences row; a client insert of a second one collides too, and
    // Postgres withholds the key values (details) from a role that row-level security applies to.
    const ownDup = await owner.client.from("user_preferences").insert({ user_id: owner.id });
    expect(ownDup.status).toBe(409);
    expect(ownDup.error).toMatchObject({
      code: "23505",
      details: null,
      message: 'duplicate key value violates unique constraint "user_preferences_pkey"',
    });
    const uuid = await owner.client.from("generations").select("id").eq("id", "not-a-uuid");
    expect(uuid.status).toBe(400);
    expect(uuid.error).toMatchObject({ code: "22P02", message: 'invalid input syntax for type uuid: "not-a-uuid"' });
  });

  it("foreign key 23503 is 409 and not null 23502 is 400", async () => {
    const fk = await service.from("generations").insert(generation(randomUUID()));
    expect(fk.status).toBe(409);
    expect(fk.error?.code).toBe("23503");
    const missing = await service.from("generations").insert({ ...generation(owner.id), prompt: null });
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe("23502");
  });
});

describe("rpc", () => {
  it("get_my_limits answers the JSON object", async () => {
    const { data, error, status } = await owner.client.rpc("get_my_limits");
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toMatchObject({ daily_limit: 5, tier: "free", generations_today: expect.any(Number) });
  });

  it("increment_generation_count answers a number, for the caller's own id only", async () => {
    const first = await owner.client.rpc("increment_generation_count", { p_user_id: owner.id });
    expect(first.error).toBeNull();
    expect(typeof first.data).toBe("number");
    const second = await owner.client.rpc("increment_generation_count", { p_user_id: owner.id });
    expect(second.data).toBe(first.data + 1);
    const forged = await stranger.client.rpc("increment_generation_count", { p_user_id: owner.id });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe("42501");
  });

  it("refuses anon (401) and server-only functions (403)", async () => {
    const limits = await anon.rpc("get_my_limits");
    expect(limits.status).toBe(401);
    const reserve = await owner.client.rpc("quota_reserve", { p_user_id: owner.id, p_request_id: randomUUID() });
    expect(reserve.status).toBe(403);
    expect(reserve.error).toMatchObject({ code: "42501", message: "permission denied for function quota_reserve" });
    const sweep = await owner.client.rpc("take_stale_reservations", { p_user_id: owner.id });
    expect(sweep.status).toBe(403);
  });

  it("answers a function returning a set of text as a JSON array of strings", async () => {
    // take_stale_reservations, as generate-image's store reads it: the names of images left by ended calls.
    const id = randomUUID();
    expect((await service.rpc("quota_reserve", { p_user_id: owner.id, p_request_id: id })).error).toBeNull();
    expect(await service.rpc("take_stale_reservations", { p_user_id: owner.id })).toMatchObject({
      error: null,
      status: 200,
      data: [],
    });
    expect((await service.rpc("quota_release", { p_user_id: owner.id, p_request_id: id })).error).toBeNull();
  });

  it("calls stable functions with GET and refuses writes in a GET with 405", async () => {
    const yes = await anon.rpc("is_style_id", { p_style: "anime" }, { get: true });
    expect(yes).toMatchObject({ error: null, data: true });
    const write = await owner.client.rpc("get_my_limits", {}, { get: true });
    expect(write.status).toBe(405);
    expect(write.error?.code).toBe("25006");
  });

  it("answers an unknown function or argument with 404 PGRST202", async () => {
    const { error, status } = await owner.client.rpc("nope", { a: 1 });
    expect(status).toBe(404);
    expect(error).toMatchObject({
      code: "PGRST202",
      message: "Could not find the function public.nope(a) in the schema cache",
    });
    const wrongArg = await owner.client.rpc("increment_generation_count", { user: owner.id });
    expect(wrongArg.error?.code).toBe("PGRST202");
  });
});

describe("requests PostgREST refuses", () => {
  it("unknown table 404 PGRST205, unknown column 400 42703", async () => {
    const table = await owner.client.from("nope").select("*");
    expect(table.status).toBe(404);
    expect(table.error).toMatchObject({
      code: "PGRST205",
      message: "Could not find the table 'public.nope' in the schema cache",
    });
    const col = await owner.client.from("generations").select("id, nope");
    expect(col.status).toBe(400);
    expect(col.error).toMatchObject({ code: "42703", message: "column generations.nope does not exist" });
  });

  it("an expired or forged JWT is 401 PGRST301", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await signJwt(
      { sub: owner.id, role: "authenticated", iat: now - 7200, exp: now - 3600 },
      JWT_SECRET,
    );
    const res = await raw(b, "/generations?select=id", { token: expired });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ code: "PGRST301", details: null, hint: null, message: "JWT expired" });
    const forged = await raw(b, "/generations?select=id", {
      token: `${expired.split(".").slice(0, 2).join(".")}.AAAA`,
    });
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.text).code).toBe("PGRST301");
  });

  it("a schema other than public is 406 PGRST106", async () => {
    const { error, status } = await owner.client.schema("private").from("x").select("*");
    expect(status).toBe(406);
    expect(error?.code).toBe("PGRST106");
  });

  it("embedding a table with no foreign key between them is 400 PGRST200", async () => {
    const { error, status } = await owner.client.from("generations").select("id, user_preferences(*)");
    expect(status).toBe(400);
    expect(error?.code).toBe("PGRST200");
    expect(error?.message).toBe(
      "Could not find a relationship between 'generations' and 'user_preferences' in the schema cache",
    );
  });
});

async function token(u: User): Promise<string> {
  const { data } = await u.client.auth.getSession();
  return data.session!.access_token;
}

// ------------------------------------------------------------------------ PGlite versus PostgreSQL

const havePostgres = await postgresAvailable();

describe.skipIf(!havePostgres)("on real PostgreSQL", () => {
  let pgBackend: Backend;
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createDatabase("pc_rest");
    pgBackend = await startBackend({ databaseUrl: database.url, env: { JWT_SECRET } });
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await pgBackend?.stop();
    await database?.drop();
  });

  it("answers the same bytes as PGlite for the same rows", async () => {
    const fixed = [
      {
        id: "00000000-0000-4000-8000-000000000001",
        prompt: "a red cat",
        seed: 9007199254740993n,
        created_at: "2026-01-02T03:04:05.678+00:00",
        is_public: true,
      },
      {
        id: "00000000-0000-4000-8000-000000000002",
        prompt: "a blue dog",
        seed: null,
        created_at: "2026-01-02T03:04:06+00:00",
        is_public: true,
      },
    ];
    const paths = [
      `/generations?select=id,prompt,seed,width,created_at,search,is_public,negative_prompt&id=in.(${fixed.map((f) => f.id).join(",")})&order=created_at.desc`,
      `/generations?select=id,p:prompt,seed::text&id=eq.${fixed[0].id}`,
      `/tier_quotas?select=*&order=daily_limit`,
    ];
    const bodies: string[][] = [];
    for (const backend of [b, pgBackend]) {
      const user = await newUser(backend, "parity");
      const svc = serviceClient(backend);
      const { error } = await svc
        .from("generations")
        .upsert(fixed.map((f) => ({ ...generation(user.id), ...f, image_path: `${user.id}/${f.id}.png` })));
      expect(error).toBeNull();
      const out: string[] = [];
      for (const path of paths) {
        const res = await raw(backend, path);
        expect(res.status).toBe(200);
        out.push(res.text);
      }
      const rpc = await raw(backend, "/rpc/is_style_id", {
        method: "POST",
        body: JSON.stringify({ p_style: "neon" }),
        headers: { "content-type": "application/json" },
      });
      out.push(rpc.text);
      bodies.push(out);
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[0][0]).toContain('"seed":9007199254740993,');
    expect(JSON.parse(bodies[0][0])[0]).toMatchObject({
      id: fixed[1].id,
      seed: null,
      created_at: "2026-01-02T03:04:06+00:00",
    });
  });

  it("maps a plain raise (P0001) to 400 with the message and hint", async () => {
    await admin.query(`create function public.rest_test_raise(p_text text) returns int language plpgsql as $$
      begin raise exception 'refused: %', p_text using hint = 'try again'; end $$`);
    const res = await raw(pgBackend, "/rpc/rest_test_raise", {
      method: "POST",
      body: '{"p_text":"x"}',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ code: "P0001", details: null, hint: "try again", message: "refused: x" });
  });

  it("calls set-returning, table, void and single-json functions with PostgREST's shapes", async () => {
    await admin.query(`
      create function public.rest_test_tiers(p_min int) returns setof public.tier_quotas
        language sql stable as $$ select * from public.tier_quotas where daily_limit >= p_min $$;
      create function public.rest_test_series(p_n int) returns setof int
        language sql immutable as $$ select generate_series(1, p_n) $$;
      create function public.rest_test_pairs() returns table (a int, b text)
        language sql immutable as $$ values (1, 'one'), (2, null) $$;
      create function public.rest_test_noop(p_x int) returns void language sql as $$ select $$;
      create function public.rest_test_echo(jsonb) returns jsonb language sql immutable as $$ select $1 $$;`);
    const client = anonClient(pgBackend);
    const tiers = await client
      .rpc("rest_test_tiers", { p_min: 6 }, { count: "exact" })
      .select("tier")
      .order("daily_limit", { ascending: false })
      .limit(1);
    expect(tiers).toMatchObject({ error: null, data: [{ tier: "premium" }], count: 2, status: 206 });
    const series = await client.rpc("rest_test_series", { p_n: 3 });
    expect(series).toMatchObject({ error: null, data: [1, 2, 3] });
    const counted = await raw(pgBackend, "/rpc/rest_test_series?p_n=4&limit=2", { headers: { prefer: "count=exact" } });
    expect([counted.status, counted.headers.get("content-range"), counted.text]).toEqual([206, "0-1/4", "[1, 2]"]);
    const pairs = await client.rpc("rest_test_pairs").is("b", null);
    expect(pairs.data).toEqual([{ a: 2, b: null }]);
    const noop = await client.rpc("rest_test_noop", { p_x: 1 });
    expect(noop).toMatchObject({ error: null, data: null, status: 204 });
    const echo = await client.rpc("rest_test_echo", { anything: [1, { two: 2 }] });
    expect(echo.data).toEqual({ anything: [1, { two: 2 }] });
  });

  it("finds tables created after start (the schema cache reloads on a miss)", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    await admin.query(`create table public.rest_test_late (id int primary key, label text);
      insert into public.rest_test_late values (1, 'late');
      grant select on public.rest_test_late to anon`);
    const res = await raw(pgBackend, "/rest_test_late?select=label");
    expect(res.status).toBe(200);
    expect(res.text).toBe('[{"label":"late"}]');
  });
});
