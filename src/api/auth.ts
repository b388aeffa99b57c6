// Typed wrappers over supabase-js auth: each returns a Result with a worded AuthFailure instead of
// throwing, and hands out only what the app needs of a user (id and email).
import type { AuthChangeEvent, Session, User } from "@supabase/supabase-js";
import { err, ok, type Result } from "../lib/result";
import { deviceTimezone } from "../lib/time-zone";
import { toAuthFailure, type AuthFailure } from "./auth-errors";
import { forgetStoredSession, onStoredSessionWritten, supabase } from "./client";

export type SessionUser = { id: string; email: string };
export type AuthChange = { event: AuthChangeEvent; user: SessionUser | null };

function toSessionUser(user: User | null | undefined): SessionUser | null {
  return user ? { id: user.id, email: user.email ?? "" } : null;
}

async function attempt<T>(run: () => Promise<Result<T, AuthFailure>>): Promise<Result<T, AuthFailure>> {
  try {
    return await run();
  } catch (e) {
    return err(toAuthFailure(e));
  }
}

/** Subscribes to the client's auth events; the first one is INITIAL_SESSION. Returns the unsubscribe. */
export function onAuthChange(listener: (change: AuthChange) => void): Result<() => void, AuthFailure> {
  try {
    const { data } = supabase().auth.onAuthStateChange((event: AuthChangeEvent, session: Session | null) => {
      // Never await supabase calls inside this callback: the client holds its lock while it runs.
      listener({ event, user: toSessionUser(session?.user) });
    });
    return ok(() => data.subscription.unsubscribe());
  } catch (e) {
    return err(toAuthFailure(e));
  }
}

/**
 * Session renewals (a sign-in, a token refresh), for one person when `userId` is given, as the delivery
 * triggers hear them (src/sync/triggers.ts `session`); returns its unsubscribe.
 */
export function sessionRenewals(userId?: string): (listener: () => void) => () => void {
  const forThem = (user: SessionUser | null) => user !== null && (userId === undefined || user.id === userId);
  return (listener) => {
    const auth = onAuthChange(({ event, user }) => {
      if (forThem(user) && (event === "SIGNED_IN" || event === "TOKEN_REFRESHED")) listener();
    });
    // supabase-js tells the page's other tabs, but not what the service worker's client renewed: that is
    // heard as the auth store announces the write, so work waiting here for a session goes too.
    let stored: () => void = () => undefined;
    try {
      stored = onStoredSessionWritten(() => {
        void storedUser().then((user) => forThem(user) && listener());
      });
    } catch {
      // No backend configured: nothing is stored, and nothing waits for a session.
    }
    return () => {
      if (auth.ok) auth.value();
      stored();
    };
  };
}

export function signInWithPassword(email: string, password: string): Promise<Result<SessionUser, AuthFailure>> {
  return attempt(async () => {
    const { data, error } = await supabase().auth.signInWithPassword({ email, password });
    if (error) return err(toAuthFailure(error));
    const user = toSessionUser(data.user);
    return user ? ok(user) : err(toAuthFailure(new Error("Auth session or user missing")));
  });
}

/**
 * `signedIn` is false when the backend asks for an e-mail confirmation before the first sign-in. The device's
 * time zone goes with it, so the daily quota's first day ends at the person's midnight, not UTC's.
 */
export function signUp(
  email: string,
  password: string,
  emailRedirectTo: string,
): Promise<Result<{ user: SessionUser | null; signedIn: boolean }, AuthFailure>> {
  return attempt(async () => {
    const timezone = deviceTimezone();
    const options = { emailRedirectTo, ...(timezone ? { data: { timezone } } : {}) };
    const { data, error } = await supabase().auth.signUp({ email, password, options });
    if (error) return err(toAuthFailure(error));
    return ok({ user: toSessionUser(data.user), signedIn: Boolean(data.session) });
  });
}

export function sendPasswordReset(email: string, redirectTo: string): Promise<Result<void, AuthFailure>> {
  return attempt(async () => {
    const { error } = await supabase().auth.resetPasswordForEmail(email, { redirectTo });
    return error ? err(toAuthFailure(error)) : ok(undefined);
  });
}

export function updatePassword(password: string): Promise<Result<void, AuthFailure>> {
  return attempt(async () => {
    const { error } = await supabase().auth.updateUser({ password });
    return error ? err(toAuthFailure(error)) : ok(undefined);
  });
}

/** The sentence for a current password that does not sign the person in. */
const WRONG_CURRENT_PASSWORD = "Your current password is not correct.";

/**
 * Changes the signed-in person's password after proving they know the current one: it signs in again
 * with their e-mail and `current` (the plain password grant every Supabase project has; a wrong one
 * leaves the session as it was), and only then sends `next` to updateUser. The re-authentication is
 * a sign-in, so it counts against the sign-in rate limit like any other.
 */
export function changePassword(current: string, next: string): Promise<Result<void, AuthFailure>> {
  return attempt(async () => {
    const { data: own, error: sessionError } = await supabase().auth.getSession();
    if (sessionError) return err(toAuthFailure(sessionError));
    const user = own.session?.user;
    if (!user?.email) return err(toAuthFailure(new Error("Auth session or user missing")));
    const { data, error } = await supabase().auth.signInWithPassword({ email: user.email, password: current });
    if (error) {
      const failure = toAuthFailure(error);
      return err(failure.code === "invalid_credentials" ? { ...failure, message: WRONG_CURRENT_PASSWORD } : failure);
    }
    if (data.user?.id !== user.id) return err(toAuthFailure(new Error("Auth session or user missing")));
    const { error: updateError } = await supabase().auth.updateUser({ password: next });
    return updateError ? err(toAuthFailure(updateError)) : ok(undefined);
  });
}

/**
 * Ends this device's session on the server and in this browser (the client then emits SIGNED_OUT);
 * `everywhere` ends every session of the person, and the other devices hear of it within seconds
 * (decision 129).
 */
export function signOut(everywhere = false): Promise<Result<void, AuthFailure>> {
  return attempt(async () => {
    const { error } = await supabase().auth.signOut({ scope: everywhere ? "global" : "local" });
    return error ? err(toAuthFailure(error)) : ok(undefined);
  });
}

/**
 * Forgets the session in this browser only, for when the server has already ended it (the account was
 * deleted): a sign-out through the server would be refused there. With no stored session supabase-js has
 * no token to send, so its sign-out makes no request; it drops what it holds and emits SIGNED_OUT.
 */
export function signOutLocally(): Promise<Result<void, AuthFailure>> {
  return attempt(async () => {
    await forgetStoredSession();
    const { error } = await supabase().auth.signOut({ scope: "local" });
    return error ? err(toAuthFailure(error)) : ok(undefined);
  });
}

/** What the auth server answers for a refresh token of a session it has ended. */
const SESSION_ENDED = new Set([
  "refresh_token_already_used",
  "refresh_token_not_found",
  "session_not_found",
  "session_expired",
]);

/**
 * One attempt to renew the session with its refresh token; true when a fresh session is in place. A
 * session the server has ended (signed out everywhere, or its refresh token reused too late) is
 * forgotten on this device too: supabase-js keeps it while its own clock says the access token is valid,
 * and every call would be refused with nobody asked to sign in. Signed out, the person is asked, and
 * their queued work waits for them (session-ended keeps it).
 */
export async function refreshSession(): Promise<boolean> {
  try {
    const { data, error } = await supabase().auth.refreshSession();
    if (error && SESSION_ENDED.has(String((error as { code?: unknown }).code))) {
      // The page's tabs hear it either way: SIGNED_OUT, or the auth store announcing the removal when
      // the service worker's client (which has no localStorage hint to clear) signs out.
      if (typeof window !== "undefined") await signOutLocally();
      else
        await supabase()
          .auth.signOut({ scope: "local" })
          .catch(() => undefined);
      return false;
    }
    return !error && Boolean(data.session);
  } catch {
    return false;
  }
}

/**
 * Runs `work`, and when the server refused its session (`refused`), renews the session once and runs it
 * again. The client renews a token only as its own clock says it lapses; one the server refuses before
 * that (a device clock running late, a renewal whose answer was lost to a reload) must be renewed at
 * once: the refresh token a lost renewal used is honoured again only for a few seconds (GoTrue's reuse
 * interval, 10 s on hosted Supabase), after which the server ends the session.
 */
export async function renewingOnce<T>(
  work: () => Promise<T>,
  refused: (result: T) => boolean,
  renew: () => Promise<boolean> = refreshSession,
): Promise<T> {
  const first = await work();
  if (!refused(first) || !(await renew())) return first;
  return work();
}

/**
 * What the auth server says of this device's session: `account-gone` when its person no longer exists,
 * `session-ended` when the session was ended (signed out everywhere, or by a password change elsewhere)
 * or none is held here, `unknown` when it could not be asked (no network, a server error): then nothing
 * may be concluded. An access token stays valid until it lapses whatever became of its session, so only
 * this question tells (decision 129).
 */
export async function checkSession(): Promise<SessionCheck> {
  try {
    const { data, error } = await supabase().auth.getUser();
    if (!error) return data.user ? "valid" : "session-ended";
    const code = String((error as { code?: unknown }).code);
    if (code === "user_not_found") return "account-gone";
    // supabase-js answers the server's session_not_found as AuthSessionMissingError (and forgets the session).
    if (error.name === "AuthSessionMissingError" || SESSION_ENDED.has(code)) return "session-ended";
    return "unknown";
  } catch {
    return "unknown";
  }
}

export type SessionCheck = "valid" | "session-ended" | "account-gone" | "unknown";

/** The signed-in user per the stored session (read from storage, no network), or null. */
export async function storedUser(): Promise<SessionUser | null> {
  try {
    const { data } = await supabase().auth.getSession();
    return toSessionUser(data.session?.user);
  } catch {
    return null;
  }
}
