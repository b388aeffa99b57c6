// Signing out by choice, from the account menu or from /account: one flow for both. When work exists
// only on this device (unsent changes, queued generations) the person is asked first, since signing out
// removes it (docs/decisions/018-signing-out-clears-the-device.md). The person goes to / before the
// session ends, so the protected page being left never sends them to /auth?from=<that page>; a sign-out
// that fails says so in a notice (the page it started from is gone by then). Decision 124.
import { useState } from "react";
import { useLocation } from "wouter";
import { hasUnsyncedWork, unsyncedWarning, type UnsyncedCounts } from "../lib/unsynced-warning";
import { ensureSessionRuntime } from "./session-store";
import { showToast } from "./toasts";

/** The question asked before a sign-out that would lose work: the props of a ConfirmModal. */
export type SignOutQuestion = {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
};

/**
 * `findUnsynced` counts what only this device holds (the caller reads it from Dexie: this layer holds
 * no data access); when it fails, nothing is known to be lost and the sign-out goes ahead.
 */
export function useSignOut(findUnsynced: () => Promise<UnsyncedCounts | null>): {
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
      const result = await (await ensureSessionRuntime()).signOut();
      if (!result.ok) showToast({ tone: "error", title: "Sign out failed", message: result.message });
    } catch {
      showToast({ tone: "error", title: "Sign out failed", message: "Check your connection and try again." });
    } finally {
      setPending(false);
    }
  };

  const request = async () => {
    const work = await findUnsynced().catch(() => null);
    if (work && hasUnsyncedWork(work)) setWarning(unsyncedWarning(work));
    else await signOut();
  };

  const question =
    warning === null
      ? null
      : {
          title: "Sign out and lose unsent work?",
          body: warning,
          confirmLabel: "Sign out anyway",
          onConfirm: () => void signOut(),
          onClose: () => setWarning(null),
        };
  return { request, pending, question };
}
