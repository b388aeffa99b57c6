// Long-lived processes, started once and on demand (this module is its own chunk, loaded by
// session-boot, so supabase-js, XState and Dexie stay off the first page load): the session actor, fed by supabase-js auth
// events and mirrored into the session store for views, and for the signed-in user the queue
// runner (src/app/queue-runtime.ts), and the watch that ends this device's session once the server has
// ended it elsewhere (src/app/session-watch.ts).
import { createActor, fromPromise, type SnapshotFrom } from "xstate";
import { checkSession, onAuthChange, renewingOnce, signOut, signOutLocally } from "../api/auth";
import { onStoredSessionWritten, storedSessionOwner } from "../api/client";
import { subscribeSessionEnds } from "../api/session-ends";
import { sanitizeForLog } from "../api/errors";
import { db } from "../db/db";
import { clearOtherUsersCache, clearUserData } from "../db/user-data";
import { untilOnline } from "../lib/online";
import { sessionMachine, type AuthEventName, type ClearReason } from "../features/auth/session-machine";
import { getSessionView, isEndingHere, setSessionView, type SessionRuntime } from "../state/session-store";
import { replaceToasts } from "../state/toasts";
import { pullUserData } from "../sync/pull";
import { subscribeAll } from "../sync/triggers";
import { followLibraryUser } from "./library-runtime";
import { preloadOwnPages } from "./page-preload";
import { followSignedInUser } from "./queue-runtime";
import { followWatchedUser, watchSession, type SessionEnd, type SessionWatch } from "./session-watch";

/** Offline, the pull waits for the connection (the views show what Dexie holds meanwhile). */
async function reloadUserData(userId: string, signal: AbortSignal): Promise<void> {
  await clearOtherUsersCache(db, userId);
  await untilOnline(signal);
  // A session the server refuses is renewed at once and the pull made again (renewingOnce).
  const report = await renewingOnce(
    () => pullUserData(db, userId),
    (r) => r.errors.some(({ error }) => error.code === "auth_required"),
  );
  for (const { part, error } of report.errors) {
    console.warn(`[sync] pull of ${part} failed: ${error.title} (${sanitizeForLog(error.detail)})`);
  }
}

async function clearLocalData(reason: ClearReason, keepUserId: string | null): Promise<void> {
  if (reason === "switched-user" && keepUserId) await clearOtherUsersCache(db, keepUserId);
  else await clearUserData(db, { includeQueuedWork: reason === "signed-out-by-choice" });
}

const machine = sessionMachine.provide({
  actors: {
    reloadUserData: fromPromise(({ input, signal }: { input: { userId: string }; signal: AbortSignal }) =>
      reloadUserData(input.userId, signal),
    ),
    clearUserData: fromPromise(({ input }: { input: { reason: ClearReason; keepUserId: string | null } }) =>
      clearLocalData(input.reason, input.keepUserId),
    ),
    signOut: fromPromise(async ({ input }: { input: { local: boolean; everywhere: boolean } }) => {
      const result = await (input.local ? signOutLocally() : signOut(input.everywhere));
      if (!result.ok) throw result.error;
    }),
  },
});

type Snapshot = SnapshotFrom<typeof machine>;
type Actor = ReturnType<typeof createActor<typeof machine>>;

/** What the person is told when their session ends elsewhere: one message, in place of any on screen. */
const ENDED_ELSEWHERE: Record<SessionEnd, { title: string; message: string }> = {
  "account-gone": {
    title: "Your account was deleted",
    message: "You are signed out, and nothing of the account is kept on this device.",
  },
  "session-ended": {
    title: "You were signed out",
    message: "Your session was ended on another device. Sign in to continue; work waiting here is sent once you do.",
  },
};
const ENDED_TOAST_MS = 10_000;
/** A page shown again after being hidden this long asks whether its session still holds. */
const RETURN_CHECK_AFTER_MS = 10_000;

function startWatch(actor: Actor, userId: string): SessionWatch {
  return watchSession({
    check: checkSession,
    stillStored: async () => (await storedSessionOwner()) !== null,
    listen: (onEnded, onStatus) => subscribeSessionEnds(userId, onEnded, onStatus),
    // A page hidden only briefly kept its socket, and with it the hint: only a longer absence is asked about.
    onReturn: (listener) =>
      subscribeAll([{ on: "visible" }, { on: "online" }], ({ on, hiddenForMs = 0 }) => {
        if (on === "online" || hiddenForMs >= RETURN_CHECK_AFTER_MS) listener();
      }),
    endingHere: isEndingHere,
    end: (how) => {
      replaceToasts({ tone: "warning", ...ENDED_ELSEWHERE[how], durationMs: ENDED_TOAST_MS });
      // A gone account's data, queued work included, can never be sent: all of it goes (decision 129).
      if (how === "account-gone") actor.send({ type: "session.signOut", local: true });
      else void signOutLocally();
    },
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  });
}

function mirror(actor: Actor, snapshot: Snapshot): void {
  const status = snapshot.matches("checking") ? "checking" : snapshot.matches("signedIn") ? "signed-in" : "signed-out";
  const signedInId = status === "signed-in" ? (snapshot.context.user?.id ?? null) : null;
  // While the actor reads the stored session, the view keeps what the stored hint said (session-boot.ts):
  // a person signed in sees their account control throughout, not a placeholder between two draws of it.
  const shown = getSessionView();
  const hintStands = status === "checking" && !snapshot.context.user && shown.status === "signed-in" && !shown.verified;
  if (!hintStands) setSessionView({ status, user: snapshot.context.user, verified: status !== "checking" });
  followSignedInUser(signedInId);
  followLibraryUser(signedInId);
  followWatchedUser(signedInId, (userId) => startWatch(actor, userId));
  preloadOwnPages(status === "signed-in");
}

export function startSessionActor(): SessionRuntime {
  const actor = createActor(machine);
  actor.subscribe((snapshot) => mirror(actor, snapshot));
  actor.start();

  const subscribed = onAuthChange(({ event, user }) => {
    actor.send({ type: "auth.changed", event: event as AuthEventName, user });
  });
  // supabase-js tells the page's other tabs of its auth events, but the service worker's client (which
  // renews a lapsed session while it drains the queue) tells nobody. What any store of the session
  // writes is announced by the auth store, so a session renewed, replaced or removed there (a refresh
  // the server refused ends the session) is followed here too, rather than sending with one that is gone.
  if (subscribed.ok) {
    onStoredSessionWritten(() => {
      void storedSessionOwner().then((owner) => {
        if (owner === undefined) return;
        const snapshot = actor.getSnapshot();
        const signedIn = snapshot.matches("signedIn");
        if (owner === null && signedIn) actor.send({ type: "auth.changed", event: "SIGNED_OUT", user: null });
        else if (owner && (!signedIn || owner.id !== snapshot.context.user?.id)) {
          actor.send({ type: "auth.changed", event: "SIGNED_IN", user: owner });
        }
      });
    });
  } else {
    // No backend configured: nobody can be signed in, and the auth screens say why.
    actor.send({ type: "auth.changed", event: "INITIAL_SESSION", user: null });
  }

  return {
    signOut(options) {
      if (!actor.getSnapshot().matches("signedIn")) return Promise.resolve({ ok: true as const });
      return new Promise((resolve) => {
        const sub = actor.subscribe((snapshot) => {
          if (snapshot.matches("signedOut")) {
            sub.unsubscribe();
            resolve({ ok: true });
          } else if (snapshot.matches({ signedIn: "ready" }) && snapshot.context.lastError) {
            sub.unsubscribe();
            resolve({ ok: false, message: snapshot.context.lastError });
          }
        });
        actor.send({
          type: "session.signOut",
          local: options?.local === true,
          everywhere: options?.everywhere === true,
        });
      });
    },
  };
}
