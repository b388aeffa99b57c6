// The session as a process: fed every supabase-js auth event, it reloads the user's data once per
// sign-in (SIGNED_IN followed by INITIAL_SESSION, TOKEN_REFRESHED and USER_UPDATED for the same
// user do not reload again) and empties it on sign-out. Effects are named actors provided by
// src/app/actors.ts, so tests drive the machine with fakes.
import { assign, fromPromise, setup } from "xstate";

export type SessionUser = { id: string; email: string };

export type AuthEventName =
  | "INITIAL_SESSION"
  | "SIGNED_IN"
  | "SIGNED_OUT"
  | "TOKEN_REFRESHED"
  | "USER_UPDATED"
  | "PASSWORD_RECOVERY"
  | "MFA_CHALLENGE_VERIFIED";

/** Why local data is being cleared; decides whether queued work goes too. */
export type ClearReason = "signed-out-by-choice" | "session-ended" | "switched-user";

export type SessionEvent =
  | { type: "auth.changed"; event: AuthEventName; user: SessionUser | null }
  /**
   * `local`: the server has already ended the session (the account is deleted), so only this device
   * forgets it; `everywhere`: every session of the person ends, on every device.
   */
  | { type: "session.signOut"; local?: boolean; everywhere?: boolean };

export type SessionContext = {
  user: SessionUser | null;
  signOutRequested: boolean;
  lastError: string | null;
};

function describe(error: unknown): string {
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  return String(error);
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    reloadUserData: fromPromise<void, { userId: string }>(async () => {
      throw new Error("reloadUserData is provided by src/app/actors.ts");
    }),
    clearUserData: fromPromise<void, { reason: ClearReason; keepUserId: string | null }>(async () => {
      throw new Error("clearUserData is provided by src/app/actors.ts");
    }),
    signOut: fromPromise<void, { local: boolean; everywhere: boolean }>(async () => {
      throw new Error("signOut is provided by src/app/actors.ts");
    }),
  },
  guards: {
    hasUser: ({ event }) => event.type === "auth.changed" && event.user !== null,
    noUser: ({ event }) => event.type === "auth.changed" && event.user === null,
    otherUser: ({ context, event }) =>
      event.type === "auth.changed" && event.user !== null && event.user.id !== context.user?.id,
  },
  actions: {
    assignUser: assign({
      user: ({ event }) => (event.type === "auth.changed" ? event.user : null),
    }),
    recordError: assign({ lastError: (_, params: { error: unknown }) => describe(params.error) }),
  },
}).createMachine({
  id: "session",
  context: { user: null, signOutRequested: false, lastError: null },
  initial: "checking",
  states: {
    checking: {
      on: {
        "auth.changed": [{ guard: "hasUser", target: "signedIn", actions: "assignUser" }, { target: "signedOut" }],
      },
    },
    signedIn: {
      initial: "loading",
      states: {
        loading: {
          invoke: {
            src: "reloadUserData",
            input: ({ context }) => ({ userId: context.user!.id }),
            onDone: { target: "ready", actions: assign({ lastError: null }) },
            onError: {
              target: "ready",
              actions: { type: "recordError", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        ready: {},
        switching: {
          invoke: {
            src: "clearUserData",
            input: ({ context }) => ({ reason: "switched-user" as const, keepUserId: context.user!.id }),
            onDone: { target: "loading" },
            onError: {
              target: "loading",
              actions: { type: "recordError", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        signingOut: {
          entry: assign({ signOutRequested: true, lastError: null }),
          invoke: {
            src: "signOut",
            input: ({ event }) => ({
              local: event.type === "session.signOut" && event.local === true,
              everywhere: event.type === "session.signOut" && event.everywhere === true,
            }),
            // Normally SIGNED_OUT arrives while the call is still running and moves us on.
            onDone: { target: "ready", actions: assign({ signOutRequested: false }) },
            onError: {
              target: "ready",
              actions: [
                assign({ signOutRequested: false }),
                { type: "recordError", params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
      },
      on: {
        "auth.changed": [
          { guard: "noUser", target: "signedOut" },
          { guard: "otherUser", target: ".switching", actions: "assignUser" },
          { actions: "assignUser" },
        ],
        "session.signOut": { target: ".signingOut" },
      },
    },
    signedOut: {
      initial: "clearing",
      entry: assign({ user: null }),
      states: {
        clearing: {
          invoke: {
            src: "clearUserData",
            input: ({ context }) => ({
              reason: context.signOutRequested ? ("signed-out-by-choice" as const) : ("session-ended" as const),
              keepUserId: null,
            }),
            onDone: { target: "idle", actions: assign({ signOutRequested: false }) },
            onError: {
              target: "idle",
              actions: [
                assign({ signOutRequested: false }),
                { type: "recordError", params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
        idle: {},
      },
      on: {
        "auth.changed": { guard: "hasUser", target: "signedIn", actions: "assignUser" },
      },
    },
  },
});
