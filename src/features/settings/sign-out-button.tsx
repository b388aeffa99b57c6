// Sign out from /account. When work exists only on this device (unsent changes, queued
// generations), the person is warned first: signing out by choice removes it.
import { useState } from "react";
import { useLocation } from "wouter";
import { unsyncedWork, type UnsyncedWork } from "../../db/queries";
import { hasUnsyncedWork, unsyncedWarning } from "../../lib/unsynced-warning";
import { ensureSessionRuntime, useSession } from "../../state/session-store";
import { ConfirmModal } from "../../ui/modal";

export function SignOutButton({ onError }: { onError: (message: string | null) => void }) {
  const userId = useSession().user?.id;
  const [, navigate] = useLocation();
  const [pending, setPending] = useState(false);
  const [warning, setWarning] = useState<UnsyncedWork | null>(null);

  const signOut = async () => {
    setWarning(null);
    setPending(true);
    onError(null);
    try {
      const result = await (await ensureSessionRuntime()).signOut();
      if (result.ok) navigate("/");
      else onError(result.message);
    } catch {
      onError("We couldn't reach the sign-in service. Check your connection and try again.");
    }
    setPending(false);
  };

  const request = async () => {
    const work = userId ? await unsyncedWork(userId).catch(() => null) : null;
    if (work && hasUnsyncedWork(work)) setWarning(work);
    else await signOut();
  };

  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => void request()} disabled={pending}>
        {pending ? "Signing out…" : "Sign out"}
      </button>
      {warning && (
        <ConfirmModal
          title="Sign out and lose unsent work?"
          body={unsyncedWarning(warning)}
          confirmLabel="Sign out anyway"
          onConfirm={() => void signOut()}
          onClose={() => setWarning(null)}
        />
      )}
    </>
  );
}
