// Broadcasts written in the database, on an in-memory PGlite with the platform bootstrap: what
// realtime.send, realtime.send_binary and realtime.broadcast_changes write to realtime.messages, that
// only committed rows reach the hub (a NOTIFY at commit), and the retention sweep.
import assert from "node:assert/strict";
import { openDb } from "../../../supabase/local/db.ts";
import { bootstrap } from "../../../supabase/local/migrate.ts";
import { createDatabaseBroadcasts } from "../../../supabase/local/realtime/db-broadcast.ts";
import {
  createHub,
  createRateWindow,
  type Member,
  topicKey,
  type UserMessage,
} from "../../../supabase/local/realtime/hub.ts";

const db = await openDb({});
await bootstrap(db, await Deno.readTextFile(new URL("../../../supabase/local/bootstrap.sql", import.meta.url)));
// Run twice, as every start does: it must be idempotent.
await bootstrap(db, await Deno.readTextFile(new URL("../../../supabase/local/bootstrap.sql", import.meta.url)));
await db.exec(`
  create table public.notes (id int primary key, body text);
  create function public.notes_broadcast() returns trigger language plpgsql as $$
  begin
    perform realtime.broadcast_changes('notes', tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
    return null;
  end $$;
  create trigger notes_broadcast after insert or update or delete on public.notes
    for each row execute function public.notes_broadcast();
`);

const hub = createHub();
const fromDb = createDatabaseBroadcasts({ db, hub, messages: createRateWindow(1000), log: () => undefined });
const unlisten = await db.listen("local_realtime_broadcast", (note) => fromDb.push(note));

function member(readsBroadcast = true): Member & { heard: UserMessage[] } {
  const heard: UserMessage[] = [];
  return {
    heard,
    readsBroadcast: () => readsBroadcast,
    readsPresence: () => true,
    deliverBroadcast: (m) => heard.push(m),
    push: () => undefined,
  };
}

const settle = async () => {
  await new Promise((r) => setTimeout(r, 50));
  await fromDb.drain();
};
const text = (m: UserMessage) => (m.encoding === "map" ? "" : new TextDecoder().decode(m.payload));

Deno.test("realtime.send: delivered after commit to the topic's channels, with the message id", async () => {
  const pub = member();
  const priv = member();
  const other = member();
  hub.join(topicKey("room-1", false), pub);
  hub.join(topicKey("room-1", true), priv);
  hub.join(topicKey("room-2", false), other);
  await db.query(`select realtime.send('{"n": 1.000000000000000000001}'::jsonb, 'hello', 'room-1', false)`);
  await settle();
  assert.equal(pub.heard.length, 1);
  const m = pub.heard[0];
  assert.ok(m.encoding === "json");
  assert.equal(m.event, "hello");
  const payload = JSON.parse(text(m));
  assert.equal(payload.id, m.meta?.id);
  // The payload is the jsonb text: a number keeps its digits.
  assert.match(text(m), /1\.000000000000000000001/);
  assert.deepEqual(priv.heard, []);
  assert.deepEqual(other.heard, []);
  const { rows } = await db.query<{ n: number }>(
    "select count(*)::int as n from realtime.messages where id = $1::uuid and extension = 'broadcast'",
    [m.meta?.id],
  );
  assert.equal(rows[0].n, 1);
  for (const [k, x] of [["room-1", pub], ["room-1", priv], ["room-2", other]] as const) {
    hub.leave(topicKey(k, x === priv), x);
  }
});

Deno.test("a private message reaches only members that may read; a payload with an id keeps it", async () => {
  const reader = member(true);
  const refused = member(false);
  hub.join(topicKey("secret", true), reader);
  hub.join(topicKey("secret", true), refused);
  await db.query(`select realtime.send('{"id": "mine"}'::jsonb, 'e', 'secret')`); // private by default
  await settle();
  assert.equal(reader.heard.length, 1);
  assert.deepEqual(JSON.parse(text(reader.heard[0])), { id: "mine" });
  assert.deepEqual(refused.heard, []);
  hub.leave(topicKey("secret", true), reader);
  hub.leave(topicKey("secret", true), refused);
});

Deno.test("a rolled-back send, or one in a rolled-back savepoint, delivers nothing", async () => {
  const pub = member();
  hub.join(topicKey("doomed", false), pub);
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query(`select realtime.send('{}'::jsonb, 'e', 'doomed', false)`);
      throw new Error("rolled back");
    }),
  );
  await db.transaction(async (tx) => {
    await tx.query("savepoint s");
    await tx.query(`select realtime.send('{}'::jsonb, 'e', 'doomed', false)`);
    await tx.query("rollback to savepoint s");
  });
  await settle();
  assert.deepEqual(pub.heard, []);
  hub.leave(topicKey("doomed", false), pub);
});

Deno.test("broadcast_changes from a row trigger: operation, record, old_record, schema, table", async () => {
  const m = member();
  hub.join(topicKey("notes", true), m);
  await db.exec("insert into public.notes values (1, 'first')");
  await db.exec("update public.notes set body = 'second' where id = 1");
  await db.exec("delete from public.notes where id = 1");
  await settle();
  const got = m.heard.map((x) => ({ event: x.encoding === "map" ? "" : x.event, payload: JSON.parse(text(x)) }));
  assert.equal(got.length, 3);
  for (const g of got) assert.equal(typeof g.payload.id, "string");
  const strip = ({ id: _id, ...rest }: Record<string, unknown>) => rest;
  assert.deepEqual(got.map((g) => [g.event, strip(g.payload)]), [
    ["INSERT", {
      operation: "INSERT",
      record: { id: 1, body: "first" },
      old_record: null,
      schema: "public",
      table: "notes",
    }],
    ["UPDATE", {
      operation: "UPDATE",
      record: { id: 1, body: "second" },
      old_record: { id: 1, body: "first" },
      schema: "public",
      table: "notes",
    }],
    ["DELETE", {
      operation: "DELETE",
      record: null,
      old_record: { id: 1, body: "second" },
      schema: "public",
      table: "notes",
    }],
  ]);
  hub.leave(topicKey("notes", true), m);
});

Deno.test("broadcast_changes refuses a statement-level call and an unknown operation", async () => {
  await assert.rejects(
    db.query(
      "select realtime.broadcast_changes('t', 'e', 'INSERT', 'x', 'public', null::record, null::record, 'STATEMENT')",
    ),
    /Failed to process the row: function can only be triggered for each row/,
  );
  await assert.rejects(
    db.query("select realtime.broadcast_changes('t', 'e', 'TRUNCATE', 'x', 'public', null::record, null::record)"),
    /Failed to process the row: Unexpected operation type: TRUNCATE/,
  );
});

Deno.test("send as a role its INSERT policy refuses: only a warning, nothing written or sent", async () => {
  const pub = member();
  hub.join(topicKey("closed", false), pub);
  await db.transaction(async (tx) => {
    await tx.query("set local role authenticated");
    await tx.query(`select realtime.send('{}'::jsonb, 'e', 'closed', false)`);
  });
  await settle();
  assert.deepEqual(pub.heard, []);
  const { rows } = await db.query<{ n: number }>(
    "select count(*)::int as n from realtime.messages where topic = 'closed'",
  );
  assert.equal(rows[0].n, 0);
  hub.leave(topicKey("closed", false), pub);
});

Deno.test("send_binary delivers raw bytes; a row without an event is not broadcast", async () => {
  const pub = member();
  hub.join(topicKey("bytes", false), pub);
  await db.query(`select realtime.send_binary('\\x000102ff'::bytea, 'raw', 'bytes', false)`);
  await db.query(
    `insert into realtime.messages (topic, extension, payload, private) values ('bytes', 'broadcast', '{}', false)`,
  );
  await settle();
  assert.equal(pub.heard.length, 1);
  const m = pub.heard[0];
  assert.ok(m.encoding === "binary");
  assert.deepEqual([...m.payload], [0, 1, 2, 255]);
  hub.leave(topicKey("bytes", false), pub);
});

Deno.test("a message too large to announce is read back and delivered whole", async () => {
  const pub = member();
  hub.join(topicKey("big", false), pub);
  await db.query(`select realtime.send(jsonb_build_object('text', repeat('x', 20000)), 'big', 'big', false)`);
  await settle();
  assert.equal(pub.heard.length, 1);
  assert.equal(JSON.parse(text(pub.heard[0])).text.length, 20000);
  hub.leave(topicKey("big", false), pub);
});

Deno.test("the sweep deletes the days hosted would have dropped (older than 72 hours), and nothing newer", async () => {
  await db.exec("delete from realtime.messages");
  await db.exec(`
    insert into realtime.messages (topic, extension, inserted_at) values
      ('old', 'broadcast', now() - interval '5 days'),
      ('edge', 'broadcast', (now() - interval '72 hours')::date - interval '1 second'),
      ('kept', 'broadcast', (now() - interval '72 hours')::date),
      ('new', 'broadcast', now());
  `);
  assert.equal(await fromDb.sweep(), 2);
  const { rows } = await db.query<{ topic: string }>("select topic from realtime.messages order by topic");
  assert.deepEqual(rows.map((r) => r.topic), ["kept", "new"]);
  await unlisten();
});
