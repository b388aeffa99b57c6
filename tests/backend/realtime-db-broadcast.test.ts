// Broadcasts that originate in the database, through the real supabase-js client on PGlite and on
// PostgreSQL: a row trigger calling realtime.broadcast_changes, and realtime.send called from SQL,
// reach the channels of their topic (a private one only for members its SELECT policies let read),
// after commit and never for a rolled-back transaction, as hosted Realtime serves them.
import "fake-indexeddb/auto";
import { expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { enter, sleep, waitFor } from "../support/realtime.ts";

const SILENCE_MS = 1200;

/**
 * What a project using database broadcasts would write: a person reads (and may write) their own room
 * "room:<uid>"; anyone signed in may see a room's presence (so may join it privately, yet not read its
 * broadcasts); a table whose changes a SECURITY DEFINER trigger sends to its owner's room with
 * realtime.broadcast_changes; and functions calling realtime.send.
 */
const DATABASE_BROADCASTS = {
  file: "29991231000000_realtime_database_broadcasts.sql",
  sql: `create policy "own room is readable" on realtime.messages for select to authenticated
       using (realtime.topic() = 'room:' || auth.uid()::text);
     create policy "room presence is readable" on realtime.messages for select to authenticated
       using (extension = 'presence' and realtime.topic() like 'room:%');
     create policy "own room is writable" on realtime.messages for insert to authenticated
       with check (realtime.topic() = 'room:' || auth.uid()::text);

     create table public.rt_notes (
       id bigint generated always as identity primary key,
       user_id uuid not null default auth.uid(),
       body text not null
     );
     alter table public.rt_notes enable row level security;
     create policy "own notes" on public.rt_notes for all to authenticated
       using (user_id = auth.uid()) with check (user_id = auth.uid());
     create function public.rt_notes_broadcast() returns trigger
     language plpgsql security definer set search_path = '' as $$
     begin
       perform realtime.broadcast_changes(
         'room:' || coalesce(new.user_id, old.user_id)::text, tg_op, tg_op, tg_table_name, tg_table_schema, new, old
       );
       return null;
     end $$;
     create trigger rt_notes_broadcast after insert or update or delete on public.rt_notes
       for each row execute function public.rt_notes_broadcast();

     create function public.rt_shout(topic text, body text) returns void
     language sql security definer set search_path = '' as $$
       select realtime.send(jsonb_build_object('body', body), 'shout', topic, false)
     $$;
     create function public.rt_shout_then_fail(topic text) returns void
     language plpgsql security definer set search_path = '' as $$
     begin
       perform realtime.send(jsonb_build_object('body', 'never'), 'doomed', topic, false);
       raise exception 'changed my mind';
     end $$;
     -- Security invoker: the caller's own INSERT policy on realtime.messages decides.
     create function public.rt_send_as_me(topic text) returns void language sql as $$
       select realtime.send(jsonb_build_object('from', auth.uid()), 'as-me', topic)
     $$;`,
};

describeOnBackends("realtime broadcasts from the database on $title", DATABASE_BROADCASTS, (backend, { skip }) => {
  const { owner: alice, stranger: bob, anon } = castFor(backend);

  it.skipIf(skip)(
    "broadcast_changes from a trigger reaches the private channel's authorised member, not an unauthorised one",
    async () => {
      const room = `room:${alice.id}`;
      const owner = await enter(alice.client, room, { private: true });
      // Bob may join Alice's room privately (he may see its presence) but may not read its broadcasts.
      const onlyPresence = await enter(bob.client, room, { private: true, presence: { key: "bob" } }, true);
      const publicTwin = await enter(anon, room); // the same name, public: another topic
      const bobsRoom = await enter(bob.client, `room:${bob.id}`, { private: true });

      const { data: inserted, error } = await alice.client.from("rt_notes").insert({ body: "first" }).select().single();
      expect(error).toBeNull();
      const insert = await waitFor(() => owner.heard.find((h) => h.event === "INSERT"), "the INSERT broadcast");
      expect(insert.payload).toEqual({
        id: expect.any(String),
        operation: "INSERT",
        record: { id: inserted!.id, user_id: alice.id, body: "first" },
        old_record: null,
        schema: "public",
        table: "rt_notes",
      });
      // The message's id, in the payload (added by realtime.send) and as the broadcast's meta.
      expect(insert.meta).toEqual({ id: insert.payload.id });

      expect((await alice.client.from("rt_notes").update({ body: "second" }).eq("id", inserted!.id)).error).toBeNull();
      const update = await waitFor(() => owner.heard.find((h) => h.event === "UPDATE"), "the UPDATE broadcast");
      expect(update.payload).toMatchObject({
        operation: "UPDATE",
        record: { body: "second" },
        old_record: { body: "first" },
      });
      expect((await alice.client.from("rt_notes").delete().eq("id", inserted!.id)).error).toBeNull();
      const del = await waitFor(() => owner.heard.find((h) => h.event === "DELETE"), "the DELETE broadcast");
      expect(del.payload).toMatchObject({ operation: "DELETE", record: null, old_record: { body: "second" } });

      await sleep(SILENCE_MS);
      expect(owner.heard.map((h) => h.event)).toEqual(["INSERT", "UPDATE", "DELETE"]);
      expect(onlyPresence.heard).toEqual([]);
      expect(publicTwin.heard).toEqual([]);
      expect(bobsRoom.heard).toEqual([]);
      for (const s of [owner, onlyPresence, publicTwin, bobsRoom]) await s.channel.unsubscribe();
    },
  );

  it.skipIf(skip)("realtime.send with private false reaches a public channel's subscribers only", async () => {
    const room = `room:${alice.id}`;
    const listener = await enter(anon, room);
    const alsoListening = await enter(bob.client, room);
    const privateTwin = await enter(alice.client, room, { private: true });

    expect((await alice.client.rpc("rt_shout", { topic: room, body: "hello" })).error).toBeNull();
    const heard = await waitFor(() => listener.heard.find((h) => h.event === "shout"), "the public message");
    expect(heard.payload).toEqual({ body: "hello", id: expect.any(String) });
    expect(heard.meta).toEqual({ id: heard.payload.id });
    await waitFor(() => alsoListening.heard.find((h) => h.event === "shout"), "the second subscriber's copy");

    await sleep(SILENCE_MS);
    expect(privateTwin.heard).toEqual([]);
    for (const s of [listener, alsoListening, privateTwin]) await s.channel.unsubscribe();
  });

  it.skipIf(skip)(
    "a rolled-back send delivers nothing; a send refused by the caller's INSERT policy is only a warning",
    async () => {
      const room = `room:${alice.id}`;
      const listener = await enter(anon, room);
      const owner = await enter(alice.client, room, { private: true });

      const failed = await alice.client.rpc("rt_shout_then_fail", { topic: room });
      expect(failed.error?.message).toBe("changed my mind");
      // Bob may not write to Alice's room: his call succeeds and nothing is sent.
      expect((await bob.client.rpc("rt_send_as_me", { topic: room })).error).toBeNull();
      // Alice may: the same function, as her, is sent (private by default).
      expect((await alice.client.rpc("rt_send_as_me", { topic: room })).error).toBeNull();
      // A later send arrives, so the rolled-back one had every chance to arrive first.
      expect((await alice.client.rpc("rt_shout", { topic: room, body: "after" })).error).toBeNull();

      await waitFor(() => listener.heard.find((h) => h.event === "shout"), "the message after the rolled-back one");
      const mine = await waitFor(() => owner.heard.find((h) => h.event === "as-me"), "Alice's own send");
      expect(mine.payload).toEqual({ from: alice.id, id: expect.any(String) });
      await sleep(SILENCE_MS);
      expect(listener.heard.map((h) => h.event)).toEqual(["shout"]);
      expect(owner.heard.map((h) => h.payload)).toEqual([{ from: alice.id, id: expect.any(String) }]);
      for (const s of [listener, owner]) await s.channel.unsubscribe();
    },
  );
});
