// Signing out by choice, from the account menu or from /account: one flow for both. When work exists
// only on this device (unsent changes, queued generations) the person is asked first, since signing out
// removes it (docs/decisions/018-signing-out-clears-the-device.md). The person goes to / before the
// session ends, so the protected page being left never sends them to /auth?from=<that page>; a sign-out
// that fails says so in a notice (the page it started from is gone by then). Decision 124.
// Sign out ends this device's session; Sign out everywhere ends every session of the person, and the
// other devices sign out within seconds (decision 129), so it is always asked first.
import { useState } from "react";
import { useLocation } from "wouter";
import { hasUnsyncedWork, unsyncedWarning, type UnsyncedCounts } from "../lib/unsynced-warning";
import { endingHereWhile, ensureSessionRuntime } from "./session-store";
import { showToast } from "./toasts";

/** The question asked before a sign-out that would lose work: the props of a ConfirmModal. */
export type SignOutQuestion = {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
};

const EVERYWHERE = "Every device signed in to your account, this one included, is signed out within seconds.";

/**
 * `findUnsynced` counts what only this device holds (the caller reads it from Dexie: this layer holds
 * no data access); when it fails, nothing is known to be lost and the sign-out goes ahead.
 */
export function useSignOut(
  findUnsynced: () => Promise<UnsyncedCounts | null>,
  { everywhere = false }: { everywhere?: boolean } = {},
): {
  request: () => Promise<void>;
  pending: boolean;
  question: SignOutQuestion | null;
} {
  const [, navigate] = useLocation();
  const [pending, setPending] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);

  const signOut = async () => {
    setWarning(null);
    setPending(true);
    navigate("/");
    try {
      const runtime = await ensureSessionRuntime();
      const result = await endingHereWhile(() => runtime.signOut({ everywhere }));
      if (!result.ok) showToast({ tone: "error", title: "Sign out failed", message: result.message });
    } catch {
      showToast({ tone: "error", title: "Sign out failed", message: "Check your connection and try again." });
    } finally {
      setPending(false);
    }
  };

  const request = async () => {
    const work = await findUnsynced().catch(() => null);
    const lost = work && hasUnsyncedWork(work) ? unsyncedWarning(work) : null;
    if (everywhere) setWarning(lost ? `${EVERYWHERE} ${lost}` : EVERYWHERE);
    else if (lost) setWarning(lost);
    else await signOut();
  };

  const question =
    warning === null
      ? null
      : {
          title: everywhere ? "Sign out on every device?" : "Sign out and lose unsent work?",
          body: warning,
          confirmLabel: everywhere ? "Sign out everywhere" : "Sign out anyway",
          onConfirm: () => void signOut(),
          onClose: () => setWarning(null),
        };
  return { request, pending, question };
}
