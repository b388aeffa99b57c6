// Sign out from /account, the same flow as the account menu's (src/state/use-sign-out.ts): a warning
// first when work exists only on this device, then / as the session ends. Sign out ends this device's
// session; Sign out everywhere, always asked first, ends every device's (decision 129).
import { unsyncedWork } from "../../db/queries";
import { useSession } from "../../state/session-store";
import { useSignOut } from "../../state/use-sign-out";
import { ConfirmModal } from "../../ui/modal";

function SignOutAction({ everywhere }: { everywhere: boolean }) {
  const userId = useSession().user?.id;
  const { request, pending, question } = useSignOut(async () => (userId ? unsyncedWork(userId) : null), {
    everywhere,
  });
  const label = everywhere ? "Sign out everywhere" : "Sign out";
  return (
    <>
      <button
        type="button"
        className={everywhere ? "btn btn-outline btn-sm" : "btn btn-sm"}
        onClick={() => void request()}
        disabled={pending}
      >
        {pending ? "Signing out…" : label}
      </button>
      {question && <ConfirmModal {...question} />}
    </>
  );
}

export function SignOutButton() {
  return <SignOutAction everywhere={false} />;
}

export function SignOutEverywhereButton() {
  return <SignOutAction everywhere />;
}
