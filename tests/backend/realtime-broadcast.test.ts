// Realtime broadcast, presence, private channels and the REST broadcast API through the real
// supabase-js client, on PGlite and on PostgreSQL: who hears a message, who is seen present, and what
// the realtime.messages policies of a private channel let through.
import "fake-indexeddb/auto";
import { expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { enter, sleep, waitFor } from "../support/realtime.ts";

const SILENCE_MS = 1200;

/**
 * Policies on realtime.messages, as a project would write them: a person reads and writes only their
 * own room ("room:<uid>"), and may read (not write) "lobby".
 */
const POLICIES = {
  file: "29991231000000_realtime_test_policies.sql",
  sql: `create policy "own room and lobby are readable" on realtime.messages for select to authenticated
       using (realtime.topic() = 'room:' || auth.uid()::text or realtime.topic() = 'lobby');
     create policy "own room is writable" on realtime.messages for insert to authenticated
       with check (realtime.topic() = 'room:' || auth.uid()::text);`,
};

describeOnBackends("realtime broadcast and presence on $title", POLICIES, (backend, { skip }) => {
  const { owner: alice, stranger: bob, anon } = castFor(backend);

  it.skipIf(skip)("a broadcast reaches the other members of the channel, and the sender only with self", async () => {
    const a = await enter(alice.client, "chat-1");
    const b = await enter(bob.client, "chat-1");
    const me = await enter(anon, "chat-1", { broadcast: { self: true } });
    const elsewhere = await enter(bob.client, "chat-2");

    await a.channel.send({ type: "broadcast", event: "hello", payload: { text: "from alice" } });
    await waitFor(() => b.heard.find((h) => h.payload.text === "from alice"), "bob hearing alice");
    await waitFor(() => me.heard.find((h) => h.payload.text === "from alice"), "anon hearing alice");
    expect(b.heard[0]).toEqual({ event: "hello", payload: { text: "from alice" } });

    await me.channel.send({ type: "broadcast", event: "echo", payload: { n: 1 } });
    await waitFor(() => me.heard.find((h) => h.event === "echo"), "anon hearing itself (self: true)");
    await waitFor(() => a.heard.find((h) => h.event === "echo"), "alice hearing anon");

    await sleep(SILENCE_MS);
    expect(a.heard.filter((h) => h.event === "hello")).toEqual([]); // no self by default
    expect(elsewhere.heard).toEqual([]);
    for (const s of [a, b, me, elsewhere]) await s.channel.unsubscribe();
  });

  it.skipIf(skip)("ack: a send resolves once the server has it; a payload over 256 KB is refused", async () => {
    const a = await enter(alice.client, "acked", { broadcast: { ack: true } });
    const b = await enter(bob.client, "acked");
    expect(await a.channel.send({ type: "broadcast", event: "small", payload: { ok: true } })).toBe("ok");
    await waitFor(() => b.heard.find((h) => h.event === "small"), "the acknowledged message");

    const big = "x".repeat(300_000);
    expect(await a.channel.send({ type: "broadcast", event: "big", payload: { big } })).toBe("error");
    await sleep(SILENCE_MS);
    expect(b.heard.find((h) => h.event === "big")).toBeUndefined();
    for (const s of [a, b]) await s.channel.unsubscribe();
  });

  it.skipIf(skip)(
    "presence: a tracked member is in the others' state; untrack and closing the socket leave",
    async () => {
      const watcher = await enter(anon, "room-presence", { presence: { key: "watcher" } }, true);
      const aliceCh = await enter(alice.client, "room-presence", { presence: { key: "alice" } }, true);
      expect(await aliceCh.channel.track({ status: "online" })).toBe("ok");
      const seen = await waitFor(() => watcher.channel.presenceState().alice, "alice in the watcher's state");
      expect(seen).toEqual([expect.objectContaining({ status: "online" })]);

      // A member joining later gets the state at once (presence_state).
      const late = await enter(bob.client, "room-presence", { presence: { key: "bob" } }, true);
      await waitFor(() => late.channel.presenceState().alice, "alice in the late joiner's state");

      expect(await aliceCh.channel.untrack()).toBe("ok");
      await waitFor(() => (watcher.channel.presenceState().alice ? undefined : true), "alice leaving on untrack");

      expect(await late.channel.track({ status: "here" })).toBe("ok");
      await waitFor(() => watcher.channel.presenceState().bob, "bob in the watcher's state");
      bob.client.realtime.disconnect();
      await waitFor(
        () => (watcher.channel.presenceState().bob ? undefined : true),
        "bob leaving when his socket closes",
      );
      await bob.client.removeAllChannels();
      for (const s of [watcher, aliceCh]) await s.channel.unsubscribe();
    },
  );

  it.skipIf(skip)("private channels: joining takes a SELECT policy, sending an INSERT policy", async () => {
    const room = `room:${alice.id}`;
    // Without a SELECT policy for the topic, the join is refused.
    await expect(enter(bob.client, room, { private: true })).rejects.toThrow(/permissions to read/);
    await expect(enter(anon, "lobby", { private: true })).rejects.toThrow(/permissions to read/);

    const owner = await enter(alice.client, room, { private: true, broadcast: { self: true, ack: true } });
    const guest = await enter(bob.client, "lobby", { private: true, broadcast: { ack: true } });
    const reader = await enter(alice.client, "lobby", { private: true });
    const publicTwin = await enter(anon, room); // same name, public: a different topic

    expect(await owner.channel.send({ type: "broadcast", event: "mine", payload: { n: 1 } })).toBe("ok");
    await waitFor(() => owner.heard.find((h) => h.event === "mine"), "the owner's own private message");

    // Bob may read the lobby but not write to it: hosted drops the send without an answer.
    const sent = await guest.channel.send({ type: "broadcast", event: "spam", payload: {} }, { timeout: 1500 });
    expect(sent).toBe("timed out");
    await sleep(SILENCE_MS);
    expect(reader.heard).toEqual([]);
    expect(publicTwin.heard).toEqual([]);
    for (const s of [owner, guest, reader, publicTwin]) await s.channel.unsubscribe();
  });

  it.skipIf(skip)(
    "REST broadcast: apikey and Authorization as hosted; a private message needs the INSERT policy",
    async () => {
      const listener = await enter(anon, "news");
      const privateListener = await enter(alice.client, `room:${alice.id}`, { private: true });
      const url = `${backend.url}/realtime/v1/api/broadcast`;
      const post = (headers: Record<string, string>, body: unknown) =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
      const msg = (topic: string, event: string, isPrivate = false) => ({
        messages: [{ topic, event, payload: { at: event }, private: isPrivate }],
      });

      expect((await post({}, msg("news", "no-key"))).status).toBe(401);
      expect((await post({ apikey: "nope" }, msg("news", "bad-key"))).status).toBe(401);
      expect(
        (await post({ apikey: backend.anonKey, authorization: "Bearer forged" }, msg("news", "forged"))).status,
      ).toBe(401);
      expect((await post({ apikey: backend.anonKey }, { messages: [{ topic: "news" }] })).status).toBe(422);
      expect((await post({ apikey: backend.anonKey }, msg("news", "public"))).status).toBe(202);
      await waitFor(() => listener.heard.find((h) => h.event === "public"), "the REST broadcast");
      expect(listener.heard.find((h) => h.event === "public")?.payload).toEqual({ at: "public" });

      // supabase-js's httpSend (the single-message endpoint) with the signed-in user's token.
      const sender = alice.client.channel("news");
      await expect(sender.httpSend("via-http-send", { hi: 1 })).resolves.toEqual({ success: true });
      await waitFor(() => listener.heard.find((h) => h.event === "via-http-send"), "httpSend's message");
      await alice.client.removeChannel(sender);

      // Private: anon may not insert into Alice's room (202, dropped); Alice may.
      const room = `room:${alice.id}`;
      expect((await post({ apikey: backend.anonKey }, msg(room, "anon-private", true))).status).toBe(202);
      const { data } = await alice.client.auth.getSession();
      const asAlice = { apikey: backend.anonKey, authorization: `Bearer ${data.session!.access_token}` };
      expect((await post(asAlice, msg(room, "alice-private", true))).status).toBe(202);
      await waitFor(
        () => privateListener.heard.find((h) => h.event === "alice-private"),
        "alice's private REST message",
      );
      await sleep(SILENCE_MS);
      expect(privateListener.heard.find((h) => h.event === "anon-private")).toBeUndefined();
      expect(listener.heard.find((h) => h.event === "alice-private")).toBeUndefined();
      for (const s of [listener, privateListener]) await s.channel.unsubscribe();
    },
  );
});
