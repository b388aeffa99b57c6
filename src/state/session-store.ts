// A read-only mirror of the session for views. The session actor (src/app/actors.ts, loaded on
// demand with supabase-js) writes it; before that, the shell knows only whether a session is stored
// in this browser, which is enough to draw the top bar without loading the auth client.
import { useSyncExternalStore } from "react";

export type SessionUser = { id: string; email: string };

export type SessionView = {
  status: "checking" | "signed-in" | "signed-out";
  user: SessionUser | null;
  /** True once the session actor has answered; protected pages wait for it. */
  verified: boolean;
};

/** What the actor offers views besides the mirror. */
export type SessionRuntime = {
  /**
   * Signs out on purpose (queued work is removed too); resolves once the outcome is known. `everywhere`:
   * every session of the person ends, on every device. `local`: the server has already ended the session
   * (the account is deleted), so only this device forgets it.
   */
  signOut(options?: { local?: boolean; everywhere?: boolean }): Promise<{ ok: true } | { ok: false; message: string }>;
};

let endingHere = 0;

/**
 * Runs a chosen end of the session on this page (sign out, delete account). Meanwhile the server's
 * "your session has ended" is this page's own doing, not news from elsewhere (decision 129).
 */
export async function endingHereWhile<T>(work: () => Promise<T>): Promise<T> {
  endingHere += 1;
  try {
    // The calls already sent with the session get their answers before it ends, none starting meanwhile
    // (docs/decisions/159-a-chosen-end-waits-for-the-session-calls-in-flight.md):
    // sent after the end, they would be refused with a 401 that tells nothing.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...sessionCalls]), new Promise((r) => (timer = setTimeout(r, SETTLE_MS)))]);
    clearTimeout(timer);
    return await work();
  } finally {
    endingHere -= 1;
  }
}

const sessionCalls = new Set<Promise<unknown>>();
/** How long a chosen end waits at most for the calls in flight. */
const SETTLE_MS = 5_000;

/**
 * Sends a call made with this page's session (a read of the catch-up, a write to the account), unless the
 * page is ending the session: then it answers `skipped` at once. A chosen end waits for the calls in flight.
 */
export function sessionCall<T>(run: () => Promise<T>, skipped: T): Promise<T> {
  if (endingHere > 0) return Promise.resolve(skipped);
  const call = run();
  sessionCalls.add(call);
  const done = () => void sessionCalls.delete(call);
  call.then(done, done);
  return call;
}

export function isEndingHere(): boolean {
  return endingHere > 0;
}

let view: SessionView = { status: "checking", user: null, verified: false };
const listeners = new Set<() => void>();
let loader: (() => Promise<SessionRuntime>) | undefined;
let runtime: Promise<SessionRuntime> | undefined;

export function getSessionView(): SessionView {
  return view;
}

export function setSessionView(next: SessionView): void {
  if (
    next.status === view.status &&
    next.user?.id === view.user?.id &&
    next.user?.email === view.user?.email &&
    next.verified === view.verified
  )
    return;
  view = next;
  listeners.forEach((l) => l());
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionView {
  return useSyncExternalStore(subscribeSession, getSessionView, getSessionView);
}

/** The stored supabase-js session, read without the client: its user, or null when none is stored. */
/**
 * The attribute index.html's head script puts on <html> when a session is stored in this browser: "Sign in"
 * stays hidden while it stands (src/index.css), and the app removes it once it knows (account-menu.tsx,
 * session-boot.ts).
 */
export const SESSION_HINT = "data-session-hint";

export function storedSessionUser(storage: Pick<Storage, "getItem"> | undefined, key: string): SessionUser | null {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { refresh_token?: unknown; user?: { id?: unknown; email?: unknown } };
    if (typeof parsed.refresh_token !== "string" || typeof parsed.user?.id !== "string") return null;
    return { id: parsed.user.id, email: typeof parsed.user.email === "string" ? parsed.user.email : "" };
  } catch {
    return null;
  }
}

export function registerSessionRuntime(load: () => Promise<SessionRuntime>): void {
  loader = load;
}

/** Starts the session actor (once) and resolves with its commands. */
export function ensureSessionRuntime(): Promise<SessionRuntime> {
  if (!loader) return Promise.reject(new Error("session runtime not registered"));
  runtime ??= loader().catch((e: unknown) => {
    runtime = undefined; // a failed chunk load may succeed on the next attempt
    throw e;
  });
  return runtime;
}
