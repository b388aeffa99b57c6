// The app's live channel, "library:<user id>", is private (decision 128): through the real supabase-js
// client on PGlite and PostgreSQL, the person's own devices join it, hear each other and see each
// other's presence, and the app's own subscription still brings the person's changes; a stranger and a
// visitor cannot join it, and nothing they send (broadcast, presence, the REST broadcast API, or a
// public channel of the same name) reaches it.
import "fake-indexeddb/auto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { setBackendClient } from "#src/api/client.ts";
import { type GenerationChange, subscribeGenerationChanges } from "#src/api/library.ts";
import { castFor, describeOnBackends, lazy } from "../support/backend-suite.ts";
import { anonClient, storeGeneration } from "../support/clients.ts";
import { enter, sleep, waitFor } from "../support/realtime.ts";

/** How long "never arrives" waits after what should arrive has. */
const SILENCE_MS = 1500;

describeOnBackends("the library channel on $title", { prefix: "pc_rt_library" }, (backend, { skip }) => {
  const { owner, stranger, anon: visitor, server } = castFor(backend);
  const secondDevice = lazy(() => anonClient(backend));

  beforeAll(async () => {
    if (skip) return;
    const signedIn = await secondDevice.auth.signInWithPassword({ email: owner.email, password: owner.password });
    expect(signedIn.error).toBeNull();
  });

  afterAll(async () => {
    if (!skip) await secondDevice.removeAllChannels();
  });

  /** Joining `topic` as `client` is refused; the refused channel is removed (supabase-js keeps one per topic). */
  async function refused(client: SupabaseClient, topic: string, withPresence: boolean) {
    await expect(enter(client, topic, { private: true }, withPresence)).rejects.toThrow(/permissions to read/);
    await client.removeAllChannels();
  }

  it.skipIf(skip)("lets only the person's devices join it; a stranger and a visitor are refused", async () => {
    const topic = `library:${owner.id}`;
    for (const withPresence of [false, true]) {
      await refused(visitor, topic, withPresence);
      await refused(stranger.client, topic, withPresence);
    }
    await enter(owner.client, topic, { private: true });
    await owner.client.removeAllChannels();
  });

  it.skipIf(skip)("carries the person's own broadcast and presence, and nothing a visitor sends", async () => {
    const topic = `library:${owner.id}`;
    const deviceA = await enter(owner.client, topic, { private: true, presence: { key: "device-a" } }, true);
    const deviceB = await enter(secondDevice, topic, { private: true, broadcast: { ack: true } }, true);
    // The visitor and the stranger reach only the public channel of the same name: another topic.
    const visitorTwin = await enter(visitor, topic, { presence: { key: "visitor" } }, true);
    const strangerTwin = await enter(stranger.client, topic, { presence: { key: "stranger" } }, true);
    expect(await visitorTwin.channel.track({ planted: true })).toBe("ok");
    expect(await strangerTwin.channel.track({ planted: true })).toBe("ok");
    await visitorTwin.channel.send({ type: "broadcast", event: "planted", payload: { from: "visitor" } });
    await strangerTwin.channel.send({ type: "broadcast", event: "planted", payload: { from: "stranger" } });
    // Nor through the REST broadcast API, as a visitor or as the stranger, asking for the private topic.
    const { data } = await stranger.client.auth.getSession();
    for (const authorization of [undefined, `Bearer ${data.session!.access_token}`]) {
      const response = await fetch(`${backend.url}/realtime/v1/api/broadcast`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          apikey: backend.anonKey,
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ messages: [{ topic, event: "planted", payload: { from: "rest" }, private: true }] }),
      });
      expect(response.status).toBe(202);
    }

    // The person's own devices hear each other and see each other present.
    expect(await deviceB.channel.send({ type: "broadcast", event: "hello", payload: { from: "b" } })).toBe("ok");
    await waitFor(() => deviceA.heard.find((h) => h.event === "hello"), "device A hearing device B");
    expect(await deviceA.channel.track({ device: "a" })).toBe("ok");
    await waitFor(() => deviceB.channel.presenceState()["device-a"], "device A present to device B");

    await sleep(SILENCE_MS);
    expect(deviceA.heard).toEqual([{ event: "hello", payload: { from: "b" } }]);
    expect(deviceB.heard).toEqual([]);
    expect(Object.keys(deviceB.channel.presenceState())).toEqual(["device-a"]);
    for (const c of [owner.client, secondDevice, visitor, stranger.client]) await c.removeAllChannels();
  });

  it.skipIf(skip)("still brings the app's own subscription the person's changes", async () => {
    setBackendClient(owner.client);
    const changes: GenerationChange[] = [];
    let joined!: () => void;
    const subscribed = new Promise<void>((resolve) => (joined = resolve));
    const unsubscribe = subscribeGenerationChanges(
      owner.id,
      (c) => changes.push(c),
      (status) => {
        if (status === "SUBSCRIBED") joined();
      },
    );
    await subscribed;
    // It is the private channel of the person's topic that the policies above guard.
    const [channel] = owner.client.getChannels();
    expect(channel.topic).toBe(`realtime:library:${owner.id}`);
    expect(channel.params.config.private).toBe(true);
    const id = await storeGeneration(server, owner.id, { prompt: "a kite over the dunes" });
    const change = await waitFor(
      () => changes.find((c) => c.type === "upsert" && c.row.id === id),
      "the app's subscription receiving the new row",
    );
    expect(change.type === "upsert" && change.row.prompt).toBe("a kite over the dunes");
    unsubscribe();
  });
});
