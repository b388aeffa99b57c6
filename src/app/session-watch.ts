// A session ended elsewhere is ended here within seconds (decision 129). An access token stays valid
// until it lapses whatever became of its session, so the signed-in page asks the auth server whether
// its session still holds: when the database announces that a session of the person ended (a hint on
// their private topic), when the page is shown again or the connection returns, when that topic is
// joined again after a lost connection (a hint may have been missed), and when the outbox finds a
// change refused in a way a gone account would explain. Only the server's answer ends anything.
import type { SessionCheck } from "../api/auth";
import type { SessionEndsStatus } from "../api/session-ends";

/** How the session ended: ended by the person elsewhere, or with its account. */
export type SessionEnd = "session-ended" | "account-gone";

/**
 * A hint waits this long before the server is asked: another tab of this browser that signed out
 * (and caused the hint) has by then told this one, which then has no session left to ask about.
 */
export const HINT_SETTLE_MS = 1_000;

export type SessionWatchDeps = {
  check: () => Promise<SessionCheck>;
  /** Whether this browser still holds a session (another tab may have signed out meanwhile). */
  stillStored: () => Promise<boolean>;
  /** Subscribes to the hint; returns its unsubscribe. */
  listen: (onEnded: () => void, onStatus: (status: SessionEndsStatus) => void) => () => void;
  /** Subscribes to the moments worth asking again (shown again, back online); returns its unsubscribe. */
  onReturn: (listener: () => void) => () => void;
  /** True while this page ends its own session on purpose (its own end is no news). */
  endingHere: () => boolean;
  /** Ends the session on this device and says so, once. */
  end: (how: SessionEnd) => void;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

export type SessionWatch = {
  /** Asks the server now (joined to a question already in flight); false when the session has ended. */
  confirm: () => Promise<boolean>;
  stop: () => void;
};

export function watchSession(deps: SessionWatchDeps): SessionWatch {
  let stopped = false;
  let ended = false;
  let asking: Promise<boolean> | null = null;
  const timers = new Set<unknown>();

  const ask = async (): Promise<boolean> => {
    if (stopped || ended) return !ended;
    if (!(await deps.stillStored())) return false; // signed out in this browser already: nothing to announce
    const answer = await deps.check();
    if (answer === "valid" || answer === "unknown") return true;
    if (ended || deps.endingHere()) return false;
    ended = true;
    deps.end(answer);
    return false;
  };

  const confirm = () => {
    asking ??= ask().finally(() => (asking = null));
    return asking;
  };

  const afterHint = () => {
    const handle = deps.setTimeout(() => {
      timers.delete(handle);
      // A hint heard while this page ends its own session is its own doing: asking would only be refused.
      if (!deps.endingHere()) void confirm();
    }, HINT_SETTLE_MS);
    timers.add(handle);
  };

  let joined = false;
  const unlisten = deps.listen(afterHint, (status) => {
    if (status !== "SUBSCRIBED") return;
    if (joined) void confirm();
    joined = true;
  });
  const unreturn = deps.onReturn(() => void confirm());

  return {
    confirm,
    stop: () => {
      stopped = true;
      for (const handle of timers) deps.clearTimeout(handle);
      timers.clear();
      unlisten();
      unreturn();
    },
  };
}

let current: { userId: string; watch: SessionWatch } | null = null;

/** Watches the session of the person now signed in (made by `start`); stops on sign-out or a switch. */
export function followWatchedUser(userId: string | null, start: (userId: string) => SessionWatch): void {
  if (current?.userId === userId) return;
  current?.watch.stop();
  current = null;
  if (userId) current = { userId, watch: start(userId) };
}

/** Whether the signed-in person's session still holds, per the server (true when nobody is watched). */
export function confirmSession(): Promise<boolean> {
  return current ? current.watch.confirm() : Promise.resolve(true);
}
