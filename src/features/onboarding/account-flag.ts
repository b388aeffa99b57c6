// The tour's completion as the account knows it, beside this browser's flag (onboarding-storage.ts).
// The backend client is loaded only when asked, so a visitor's first page never carries it.
import { getSessionView, sessionCall } from "../../state/session-store";
import { untilOnline } from "../../lib/online";
import { ok } from "../../lib/result";

const api = () => import("../../api/onboarding-flag");

/** Whether the person signed in on this device completed the tour (on any device); false for nobody. */
export async function completedWithAccount(): Promise<boolean> {
  if (!getSessionView().user) return false;
  return (
    (await api()
      .then((m) => m.accountOnboardingCompleted())
      .catch(() => null)) === true
  );
}

/**
 * Keeps a completion with the signed-in account, once (nothing when nobody is signed in, or it is kept).
 * Offline it waits for the connection, and is dropped if by then someone else (or nobody) is signed in.
 */
export async function keepCompletionWithAccount(): Promise<void> {
  const user = getSessionView().user;
  if (!user) return;
  await untilOnline();
  if (getSessionView().user?.id !== user.id) return;
  const m = await api().catch(() => null);
  if (!m || (await m.accountOnboardingCompleted()) !== false) return;
  // A call of the session: not sent once a sign-out is under way, and a sign-out waits for it.
  const kept = await sessionCall(() => m.markAccountOnboardingCompleted(), ok(undefined));
  if (!kept.ok) console.warn(`[onboarding] the completion was not kept with the account: ${kept.error.message}`);
}
