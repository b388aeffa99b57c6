// Delete account, after a confirmation that names what goes: every generation, every stored image,
// the preferences and the sign-in itself, on the server. This device's copy is removed with the
// sign-out that follows.
import { useState } from "react";
import { useLocation } from "wouter";
import { deleteAccount } from "../../api/account";
import { endingHereWhile, ensureSessionRuntime } from "../../state/session-store";
import { showToast } from "../../state/toasts";
import { ConfirmModal } from "../../ui/modal";

export function DeleteAccount({ email, userId }: { email: string; userId?: string }) {
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The server announces the account's ended sessions to every device, this page included: meanwhile
  // that is this page's own doing, not news to announce (decision 129).
  const remove = () => endingHereWhile(removeAccount);

  const removeAccount = async () => {
    setBusy(true);
    setError(null);
    // What analytics hold of this account is sent first; nothing of it is sent while (or after) it goes.
    const recorder = userId ? await import("../../sync/telemetry").then((m) => m.telemetry()).catch(() => null) : null;
    if (userId) await recorder?.closingAccount(userId).catch(() => undefined);
    const result = await deleteAccount();
    if (!result.ok) {
      if (userId) recorder?.accountKept(userId);
      setBusy(false);
      setConfirming(false);
      setError(result.error.message);
      return;
    }
    if (userId) await recorder?.accountGone(userId).catch(() => undefined);
    // The account is gone, and its session with it on the server: signing out on this device alone
    // clears this browser's copy and queued work as well. To / first, so /account (a protected page)
    // does not send the person to the sign-in screen as the session ends.
    navigate("/");
    await ensureSessionRuntime()
      .then((runtime) => runtime.signOut({ local: true }))
      .catch(() => undefined);
    showToast({
      tone: "success",
      title: "Your account was deleted",
      message: "Every image and setting of it is gone.",
    });
  };

  return (
    <div className="flex flex-col gap-3">
      <h2 className="card-title text-lg">Delete account</h2>
      <p className="text-sm text-base-content/80">
        Removes your account, every generation and every stored image, published ones included. This cannot be undone.
      </p>
      {error && (
        <div role="alert" className="alert alert-error alert-soft text-base-content text-sm">
          {error}
        </div>
      )}
      <div>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => setConfirming(true)}>
          Delete account…
        </button>
      </div>
      {confirming && (
        <ConfirmModal
          title="Delete your account?"
          body={
            <>
              <p>
                The account <strong className="break-all">{email}</strong>, all its generations and images, and its
                preferences are deleted for good, on every device.
              </p>
              <p className="mt-2">You will be signed out.</p>
            </>
          }
          confirmLabel="Delete my account"
          busy={busy}
          onConfirm={() => void remove()}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
