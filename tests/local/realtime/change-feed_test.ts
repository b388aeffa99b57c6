// The change feed's DELETE rule and commit stamp, on an in-memory PGlite with tables of each kind:
// hosted Realtime (realtime.apply_rls) matches a DELETE against the old values the log carries (the
// replica identity), never asks RLS about it, and with RLS on shows only the primary key.
import assert from "node:assert/strict";
import { openDb } from "../../../supabase/local/db.ts";
import type { Binding } from "../../../supabase/local/realtime/bindings.ts";
import { parseBinding } from "../../../supabase/local/realtime/bindings.ts";
import { createCatalog } from "../../../supabase/local/realtime/catalog.ts";
import { createChangeFeed, type Subscriber } from "../../../supabase/local/realtime/change-feed.ts";

const db = await openDb({});
await db.exec(`
  create role anon; create role authenticated; create role service_role;
  create table public.secured (id int primary key, user_id text, note text);
  alter table public.secured enable row level security;
  grant select on public.secured to authenticated, service_role;
  create table public.open_full (id int primary key, user_id text, note text);
  alter table public.open_full replica identity full;
  grant select (id, user_id) on public.open_full to authenticated;
  create table public.secured_full (id int primary key, user_id text, note text);
  alter table public.secured_full enable row level security;
  alter table public.secured_full replica identity full;
  grant select on public.secured_full to authenticated;
`);
const catalog = createCatalog(db);

type Heard = { ids: number[]; data: Record<string, unknown> };

function subscriber(role: string, table: string, filter?: string): Subscriber & { heard: Heard[] } {
  const b = parseBinding({ event: "DELETE", schema: "public", table, ...(filter ? { filter } : {}) }, 1);
  if (typeof b === "string") throw new Error(b);
  const heard: Heard[] = [];
  return {
    heard,
    bindings: [b as Binding],
    claims: () => ({ role, sub: "u1" }),
    deliver: (p) => heard.push(p as Heard),
  };
}

async function deleteOf(table: string, subs: Subscriber[], commitStamp = "2001-01-01T00:00:00.000Z") {
  const feed = createChangeFeed(db, catalog, new Set(subs), () => undefined);
  feed.push(
    JSON.stringify({
      schema: "public",
      table,
      type: "DELETE",
      commit_timestamp: commitStamp,
      record: null,
      old_record: { id: 7, user_id: "u1", note: "gone" },
    }),
  );
  await feed.drain();
}

Deno.test("default identity: a filter on a non-key column never matches; every role hears the key", async () => {
  const filtered = subscriber("authenticated", "secured", "user_id=eq.u1");
  const byKey = subscriber("authenticated", "secured", "id=eq.7");
  const otherKey = subscriber("authenticated", "secured", "id=eq.8");
  const plain = subscriber("authenticated", "secured");
  const anon = subscriber("anon", "secured");
  await deleteOf("secured", [filtered, byKey, otherKey, plain, anon]);
  assert.deepEqual(filtered.heard, []);
  assert.deepEqual(otherKey.heard, []);
  assert.deepEqual(byKey.heard[0].data.old_record, { id: 7 });
  assert.deepEqual(plain.heard[0].data.old_record, { id: 7 });
  // anon may select nothing of the table: it still hears the DELETE, with no old values.
  assert.equal(anon.heard.length, 1);
  assert.equal(anon.heard[0].data.old_record, null);
  assert.deepEqual(anon.heard[0].data.columns, []);
});

Deno.test(
  "replica identity full without RLS: filters see the old row, which is sent as the role may select it",
  async () => {
    const filtered = subscriber("authenticated", "open_full", "user_id=eq.u1");
    const elsewhere = subscriber("authenticated", "open_full", "user_id=eq.u2");
    await deleteOf("open_full", [filtered, elsewhere]);
    assert.deepEqual(filtered.heard[0].data.old_record, { id: 7, user_id: "u1" });
    assert.deepEqual(elsewhere.heard, []);
  },
);

Deno.test("replica identity full with RLS: the key alone", async () => {
  const filtered = subscriber("authenticated", "secured_full", "user_id=eq.u1");
  await deleteOf("secured_full", [filtered]);
  assert.deepEqual(filtered.heard[0].data.old_record, { id: 7 });
});

Deno.test("commit_timestamp is when the commit was announced, not when its transaction began", async () => {
  const sub = subscriber("authenticated", "secured");
  const before = Date.now();
  const feed = createChangeFeed(db, catalog, new Set([sub]), () => undefined);
  const change = (id: number, began: string) =>
    JSON.stringify({ schema: "public", table: "secured", type: "DELETE", commit_timestamp: began, old_record: { id } });
  // Two changes of one transaction (same start), then one of a later transaction.
  feed.push(change(1, "2001-01-01T00:00:00.000Z"));
  feed.push(change(2, "2001-01-01T00:00:00.000Z"));
  await new Promise((r) => setTimeout(r, 80));
  feed.push(change(3, "2001-01-01T00:00:00.001Z"));
  await feed.drain();
  const stamps = sub.heard.map((h) => String(h.data.commit_timestamp));
  assert.equal(stamps.length, 3);
  assert.ok(Date.parse(stamps[0]) >= before, stamps[0]);
  assert.equal(stamps[1], stamps[0]);
  assert.ok(Date.parse(stamps[2]) > Date.parse(stamps[0]));
  assert.match(stamps[2], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

Deno.test(
  "INSERT: re-read under RLS only where RLS is on; a table without a key, or a key the role may not see, sends nothing",
  async () => {
    await db.exec(`
      create table public.keyless (note text);
      grant select on public.keyless to authenticated, service_role;
      create table public.hidden_key (id int primary key, note text);
      grant select (note) on public.hidden_key to authenticated;
    `);
    const listen = (role: string, table: string) => {
      const b = parseBinding({ event: "INSERT", schema: "public", table }, 1) as Binding;
      const heard: Heard[] = [];
      return {
        heard,
        bindings: [b],
        claims: () => ({ role, sub: "u1" }),
        deliver: (p: Record<string, unknown>) => heard.push(p as Heard),
      };
    };
    const open = listen("authenticated", "open_full");
    const secured = listen("authenticated", "secured");
    const securedService = listen("service_role", "secured");
    const keylessUser = listen("authenticated", "keyless");
    const keylessService = listen("service_role", "keyless");
    const hiddenKey = listen("authenticated", "hidden_key");
    const feed = createChangeFeed(
      db,
      catalog,
      new Set([open, secured, securedService, keylessUser, keylessService, hiddenKey]),
      () => undefined,
    );
    // None of these rows is in its table any more (or ever was): only a re-read can notice.
    const insert = (table: string, record: Record<string, unknown>) =>
      feed.push(
        JSON.stringify({
          schema: "public",
          table,
          type: "INSERT",
          commit_timestamp: "2001-01-01T00:00:00.000Z",
          record,
          old_record: null,
        }),
      );
    insert("open_full", { id: 40, user_id: "u1", note: "not granted" });
    insert("secured", { id: 41, user_id: "u1", note: "n" });
    insert("keyless", { note: "k" });
    insert("hidden_key", { id: 42, note: "h" });
    await feed.drain();
    // No RLS: shown as the role's column grants allow, without asking the table (as hosted).
    assert.deepEqual(open.heard.map((h) => h.data.record), [{ id: 40, user_id: "u1" }]);
    // RLS on: the row is read back as the subscriber, and it is not there.
    assert.deepEqual(secured.heard, []);
    assert.deepEqual(securedService.heard.map((h) => h.data.record), [{ id: 41, user_id: "u1", note: "n" }]);
    // Hosted answers these with an error and no record ("no primary key", "Unauthorized").
    assert.deepEqual(keylessUser.heard, []);
    assert.deepEqual(keylessService.heard, []);
    assert.deepEqual(hiddenKey.heard, []);
  },
);

Deno.test("a change over hosted's 1 MiB record limit carries only its values of at most 64 bytes, and an error", async () => {
  await db.exec(`
    create table public.big (id int primary key, label text, nothing text, blob text);
    grant select on public.big to authenticated;
    insert into public.big values (1, 'small', null, repeat('x', 1100000)), (2, 'mid', null, repeat('y', 20000));
  `);
  const b = parseBinding({ event: "INSERT", schema: "public", table: "big" }, 1) as Binding;
  const heard: Heard[] = [];
  const sub: Subscriber = {
    bindings: [b],
    claims: () => ({ role: "authenticated", sub: "u1" }),
    deliver: (p) => heard.push(p as Heard),
  };
  const feed = createChangeFeed(db, catalog, new Set([sub]), () => undefined);
  // Rows too large to notify are announced by their key (local.notify_change) and read back.
  for (const id of [1, 2]) {
    feed.push(
      JSON.stringify({
        schema: "public",
        table: "big",
        type: "INSERT",
        truncated: true,
        commit_timestamp: "2001-01-01T00:00:00.000Z",
        record: { id },
        old_record: null,
      }),
    );
  }
  await feed.drain();
  assert.equal(heard.length, 2);
  assert.deepEqual(heard[0].data.record, { id: 1, label: "small" });
  assert.deepEqual(heard[0].data.errors, ["Error 413: Payload Too Large"]);
  assert.equal((heard[1].data.record as { blob: string }).blob.length, 20000);
  assert.equal(heard[1].data.errors, null);
});
