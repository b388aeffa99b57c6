// Sign out from /account, the same flow as the account menu's (src/state/use-sign-out.ts): a warning
// first when work exists only on this device, then / as the session ends.
import { unsyncedWork } from "../../db/queries";
import { useSession } from "../../state/session-store";
import { useSignOut } from "../../state/use-sign-out";
import { ConfirmModal } from "../../ui/modal";

export function SignOutButton() {
  const userId = useSession().user?.id;
  const { request, pending, question } = useSignOut(async () => (userId ? unsyncedWork(userId) : null));
  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => void request()} disabled={pending}>
        {pending ? "Signing out…" : "Sign out"}
      </button>
      {question && <ConfirmModal {...question} />}
    </>
  );
}
