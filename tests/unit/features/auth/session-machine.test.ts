import { describe, expect, it } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { sessionMachine, type ClearReason } from "#src/features/auth/session-machine.ts";

const alice = { id: "a1", email: "alice@example.com" };
const bob = { id: "b2", email: "bob@example.com" };

function start(options: { signOutFails?: boolean } = {}) {
  const reloads: string[] = [];
  const signOuts: { local: boolean; everywhere: boolean }[] = [];
  const clears: { reason: ClearReason; keepUserId: string | null }[] = [];
  // The machine's actors reach the running actor through this box, filled once it exists.
  const box: { actor?: ReturnType<typeof createActor<typeof sessionMachine>> } = {};
  const machine = sessionMachine.provide({
    actors: {
      reloadUserData: fromPromise(async ({ input }: { input: { userId: string } }) => {
        reloads.push(input.userId);
      }),
      clearUserData: fromPromise(async ({ input }: { input: { reason: ClearReason; keepUserId: string | null } }) => {
        clears.push(input);
      }),
      signOut: fromPromise(async ({ input }: { input: { local: boolean; everywhere: boolean } }) => {
        signOuts.push(input);
        if (options.signOutFails) throw new Error("We couldn't reach the server.");
        // supabase-js emits SIGNED_OUT before its signOut() resolves.
        box.actor!.send({ type: "auth.changed", event: "SIGNED_OUT", user: null });
      }),
    },
  });
  const actor = createActor(machine);
  box.actor = actor;
  actor.start();
  return { actor, reloads, clears, signOuts };
}

describe("session machine", () => {
  it("reloads once for a reload with a stored session (SIGNED_IN then INITIAL_SESSION)", async () => {
    const { actor, reloads } = start();
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    actor.send({ type: "auth.changed", event: "INITIAL_SESSION", user: alice });
    actor.send({ type: "auth.changed", event: "TOKEN_REFRESHED", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    expect(reloads).toEqual(["a1"]);
    expect(actor.getSnapshot().context.user).toEqual(alice);
  });

  it("settles as signed out with no session and empties local data", async () => {
    const { actor, clears } = start();
    actor.send({ type: "auth.changed", event: "INITIAL_SESSION", user: null });
    await waitFor(actor, (s) => s.matches({ signedOut: "idle" }));
    expect(clears).toEqual([{ reason: "session-ended", keepUserId: null }]);
  });

  it("keeps queued work when a session ends by itself, but not on a chosen sign-out", async () => {
    const { actor, clears } = start();
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "auth.changed", event: "SIGNED_OUT", user: null });
    await waitFor(actor, (s) => s.matches({ signedOut: "idle" }));
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "session.signOut" });
    await waitFor(actor, (s) => s.matches({ signedOut: "idle" }));
    expect(clears.map((c) => c.reason)).toEqual(["session-ended", "signed-out-by-choice"]);
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it("signs out on this device alone when asked to, clearing as a chosen sign-out does", async () => {
    const { actor, clears, signOuts } = start();
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "session.signOut" });
    await waitFor(actor, (s) => s.matches({ signedOut: "idle" }));
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "session.signOut", local: true });
    await waitFor(actor, (s) => s.matches({ signedOut: "idle" }));
    expect(signOuts).toEqual([
      { local: false, everywhere: false },
      { local: true, everywhere: false },
    ]);
    expect(clears.map((c) => c.reason)).toEqual(["signed-out-by-choice", "signed-out-by-choice"]);
  });

  it("signs out everywhere when asked to, clearing this device as a chosen sign-out does", async () => {
    const { actor, clears, signOuts } = start();
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "session.signOut", everywhere: true });
    await waitFor(actor, (s) => s.matches({ signedOut: "idle" }));
    expect(signOuts).toEqual([{ local: false, everywhere: true }]);
    expect(clears.map((c) => c.reason)).toEqual(["signed-out-by-choice"]);
  });

  it("ignores a repeated SIGNED_OUT", async () => {
    const { actor, clears } = start();
    actor.send({ type: "auth.changed", event: "INITIAL_SESSION", user: null });
    await waitFor(actor, (s) => s.matches({ signedOut: "idle" }));
    actor.send({ type: "auth.changed", event: "SIGNED_OUT", user: null });
    expect(clears).toHaveLength(1);
  });

  it("clears the previous user's cache and reloads when another user signs in", async () => {
    const { actor, reloads, clears } = start();
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: bob });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }) && reloads.length === 2);
    expect(reloads).toEqual(["a1", "b2"]);
    expect(clears).toEqual([{ reason: "switched-user", keepUserId: "b2" }]);
  });

  it("stays signed in and records why when signing out fails", async () => {
    const { actor } = start({ signOutFails: true });
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "session.signOut" });
    const s = await waitFor(actor, (snap) => snap.matches({ signedIn: "ready" }) && snap.context.lastError !== null);
    expect(s.context.lastError).toBe("We couldn't reach the server.");
    expect(s.context.signOutRequested).toBe(false);
  });

  it("picks up a changed e-mail without reloading", async () => {
    const { actor, reloads } = start();
    actor.send({ type: "auth.changed", event: "SIGNED_IN", user: alice });
    await waitFor(actor, (s) => s.matches({ signedIn: "ready" }));
    actor.send({ type: "auth.changed", event: "USER_UPDATED", user: { ...alice, email: "new@example.com" } });
    expect(actor.getSnapshot().context.user?.email).toBe("new@example.com");
    expect(reloads).toHaveLength(1);
  });
});
