// Decides, before the first render, what the shell may assume about the session, and when to load
// the session actor: at once if a session is stored or the page was opened from an auth e-mail
// link; otherwise only when a page needs it (protected pages, /auth) or another tab signs in.
import { authStorageKey } from "../api/config";
import { openedFromAuthLink } from "../lib/initial-url";
import {
  SESSION_HINT,
  ensureSessionRuntime,
  registerSessionRuntime,
  setSessionView,
  storedSessionUser,
} from "../state/session-store";

export function bootSession(): void {
  registerSessionRuntime(() => import("./actors").then((m) => m.startSessionActor()));

  const key = authStorageKey();
  const stored = storedSessionUser(window.localStorage, key);
  const fromLink = openedFromAuthLink();
  setSessionView({
    status: stored ? "signed-in" : fromLink ? "checking" : "signed-out",
    user: stored,
    verified: false,
  });

  // Only this app's own session counts: a mark the head's script made for another (index.html) goes.
  if (!stored && !fromLink) document.documentElement.removeAttribute(SESSION_HINT);

  const start = () => void ensureSessionRuntime().catch(() => undefined);
  if (stored || fromLink) start();
  window.addEventListener("storage", (e) => {
    if (e.key === key && e.newValue) start();
  });
}
