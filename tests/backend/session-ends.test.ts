// A session ended is announced on the person's private topic "session:<user id>" (decision 129), through
// the real supabase-js client on PGlite and PostgreSQL: the owner's device hears a sign-out elsewhere and
// an account's deletion, and asks the auth server, which says which; a stranger and a visitor may not join
// the topic; a sign-out of one session names only that one.
import "fake-indexeddb/auto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import type { Backend } from "../support/backend.ts";
import { anonClient, newUser, type NewUser } from "../support/clients.ts";
import { enter, sleep, waitFor } from "../support/realtime.ts";

const SILENCE_MS = 1200;

/** A second device of `user`: its own client, signed in with its own session. */
async function otherDevice(backend: Backend, user: NewUser): Promise<SupabaseClient> {
  const client = anonClient(backend);
  const { error } = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  expect(error).toBeNull();
  return client;
}

function sessionIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).session_id as string;
}

describeOnBackends("ended sessions announced on $title", { prefix: "pc_session_ends" }, (backend, { skip }) => {
  const { stranger, anon } = castFor(backend);

  it.skipIf(skip)("tells every device of a sign-out everywhere, and the auth server confirms it", async () => {
    const owner = await newUser(backend, "everywhere");
    const topic = `session:${owner.id}`;
    const listening = await enter(owner.client, topic, { private: true });
    const elsewhere = await otherDevice(backend, owner);
    const { data } = await owner.client.auth.getSession();
    const mine = sessionIdOf(data.session!.access_token);

    expect((await elsewhere.auth.signOut({ scope: "global" })).error).toBeNull();
    const heard = await waitFor(() => listening.heard.find((h) => h.event === "session.ended"), "the hint");
    expect((heard.payload.session_ids as string[]).includes(mine)).toBe(true);
    const { error } = await owner.client.auth.getUser();
    expect(error?.name).toBe("AuthSessionMissingError"); // the server's session_not_found
    await listening.channel.unsubscribe();
  });

  it.skipIf(skip)("names only the session a sign-out on one device ended", async () => {
    const owner = await newUser(backend, "local");
    const listening = await enter(owner.client, `session:${owner.id}`, { private: true });
    const elsewhere = await otherDevice(backend, owner);
    const theirs = sessionIdOf((await elsewhere.auth.getSession()).data.session!.access_token);

    expect((await elsewhere.auth.signOut({ scope: "local" })).error).toBeNull();
    const heard = await waitFor(() => listening.heard.find((h) => h.event === "session.ended"), "the hint");
    expect(heard.payload.session_ids).toEqual([theirs]);
    expect((await owner.client.auth.getUser()).error).toBeNull();
    await listening.channel.unsubscribe();
  });

  it.skipIf(skip)("tells the device of an account deleted, and the auth server says the user is gone", async () => {
    const owner = await newUser(backend, "deleted");
    const listening = await enter(owner.client, `session:${owner.id}`, { private: true });
    const elsewhere = await otherDevice(backend, owner);

    const { error: deleteError } = await elsewhere.functions.invoke("delete-account", { body: {} });
    expect(deleteError).toBeNull();
    await waitFor(() => listening.heard.find((h) => h.event === "session.ended"), "the hint");
    const { error } = await owner.client.auth.getUser();
    expect((error as { code?: string } | null)?.code).toBe("user_not_found");
    await listening.channel.unsubscribe();
  });

  it.skipIf(skip)("lets neither a stranger nor a visitor hear a person's topic", async () => {
    const owner = await newUser(backend, "watched");
    const topic = `session:${owner.id}`;
    await expect(enter(stranger.client, topic, { private: true })).rejects.toBeTruthy();
    await expect(enter(anon, topic, { private: true })).rejects.toBeTruthy();
    // The same name joined as a public channel is another topic: the database's private message never reaches it.
    const visitor = anonClient(backend); // a client of its own: supabase-js hands out one channel per name
    const publicTwin = await enter(visitor, topic);
    await (await otherDevice(backend, owner)).auth.signOut({ scope: "global" });
    await sleep(SILENCE_MS);
    expect(publicTwin.heard).toEqual([]);
    await visitor.removeAllChannels();
  });
});
